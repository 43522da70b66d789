//! C89's implicit `int`, which gcc accepts with a warning and lang-c does not: a declaration
//! without a type specifier (`main(argc, argv) int argc; char **argv; { ... }`,
//! `static count = 0;`, `register i;` among K&R parameter declarations). Where lang-c stops at
//! such a declaration, `int ` is inserted before its first declarator and the text parsed
//! again, so the translation (and the C it emits) says what gcc assumed. Only places where
//! lang-c failed are touched: a text that parses is never changed.

use crate::diag::{Diagnostic, Span};
use crate::parse;
use crate::parse_view::parse_view;
use crate::preprocess::LineMap;

/// At most this many insertions; a text needing more is left to the original error.
const MAX_INSERTIONS: usize = 10_000;

const INSERTED: &str = "int ";

/// Words after which a missing type specifier means `int`.
const SPECIFIER_WORDS: &[&str] = &[
    "static",
    "extern",
    "register",
    "auto",
    "const",
    "volatile",
    "inline",
    "__inline",
    "__inline__",
    "_Thread_local",
    "__thread",
];

/// The text with `int ` inserted where C89 implies it.
pub struct Completed {
    pub text: String,
    /// Offsets in the original text where `int ` went, ascending.
    insertions: Vec<usize>,
}

impl Completed {
    /// The offset in the original text of an offset in the completed one (an offset inside an
    /// inserted `int ` maps to where it was inserted).
    pub fn original_offset(&self, offset: usize) -> usize {
        let mut shift = 0;
        for &at in &self.insertions {
            let inserted_at = at + shift;
            if offset < inserted_at {
                break;
            }
            if offset < inserted_at + INSERTED.len() {
                return at;
            }
            shift += INSERTED.len();
        }
        offset - shift
    }

    /// A diagnostic about the completed text, moved to the original's offsets.
    pub fn original_diagnostic(&self, mut d: Diagnostic) -> Diagnostic {
        let span = |s: Span| Span::new(self.original_offset(s.start), self.original_offset(s.end));
        if let Some((s, _)) = d.primary.as_mut() {
            *s = span(*s);
        }
        for (s, _) in d.secondary.iter_mut() {
            *s = span(*s);
        }
        d
    }

    /// gcc's `-Wimplicit-int` warnings, at the original offsets.
    pub fn warnings(&self) -> Vec<Diagnostic> {
        self.insertions
            .iter()
            .map(|&at| {
                Diagnostic::warning("type defaults to `int`")
                    .with_primary(Span::new(at, at), "no type specifier before this")
                    .with_note("C89's implicit `int`; capecc translates it as `int`, like gcc")
            })
            .collect()
    }
}

/// `Some` when lang-c fails on `text` only at declarations without a type specifier: the text
/// with `int ` inserted there (and nothing else changed). `None` when the text parses as it
/// is or fails for another reason.
pub fn complete(text: &str) -> Option<Completed> {
    let mut current = text.to_string();
    let mut insertions: Vec<usize> = Vec::new();
    loop {
        let lines = LineMap::new(&current);
        let view = parse_view(&current, &lines);
        let at = match parse::error_offset(&view) {
            None if insertions.is_empty() => return None,
            None => {
                return Some(Completed {
                    text: current,
                    insertions,
                })
            }
            Some(at) => at,
        };
        if insertions.len() >= MAX_INSERTIONS {
            return None;
        }
        let insert_at = missing_type_at(&current, at)?;
        // progress: every insertion lies after the previous one
        let original = insert_at - INSERTED.len() * insertions.len();
        if insertions.last().is_some_and(|&last| original <= last) {
            return None;
        }
        current.insert_str(insert_at, INSERTED);
        insertions.push(original);
    }
}

/// Where `int ` belongs when lang-c stopped at `at`: before the token there, if that token
/// starts a declarator (an identifier, or `*`) of a declaration that has no type specifier.
fn missing_type_at(text: &str, at: usize) -> Option<usize> {
    let rest = text.get(at..)?;
    let token = leading_word(rest);
    let starts_declarator = !token.is_empty() || rest.starts_with('*');
    if !starts_declarator {
        return None;
    }
    let before = previous_token(text, at);
    match before {
        // a file-scope function definition or declaration: `f(a, b) ...`, `f();`
        None | Some(";") | Some("}") => {
            let after = rest[token.len()..].trim_start();
            (!token.is_empty() && after.starts_with('(')).then_some(at)
        }
        Some(word) if SPECIFIER_WORDS.contains(&word) => Some(at),
        Some(_) => None,
    }
}

/// The identifier (or keyword) at the start of `text`, or "".
fn leading_word(text: &str) -> &str {
    let starts_word = text
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
    if !starts_word {
        return "";
    }
    let end = text
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    &text[..end]
}

/// The token before `at`, skipping white space and preprocessor lines (line markers,
/// `#define`s and pragmas, which lang-c treats as white space); `None` at the start.
fn previous_token(text: &str, at: usize) -> Option<&str> {
    let mut end = at;
    loop {
        let head = text.get(..end)?;
        let line_start = head.rfind('\n').map_or(0, |i| i + 1);
        let line = &head[line_start..];
        if line.trim_start().starts_with('#') {
            if line_start == 0 {
                return None;
            }
            end = line_start - 1;
            continue;
        }
        let trimmed = line.trim_end();
        if trimmed.is_empty() {
            if line_start == 0 {
                return None;
            }
            end = line_start - 1;
            continue;
        }
        let last = line_start + trimmed.len();
        let word_start = text[line_start..last]
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .map_or(line_start, |i| line_start + i + 1);
        return Some(if word_start < last {
            &text[word_start..last]
        } else {
            &text[last - 1..last]
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn completed(text: &str) -> String {
        complete(text).map(|c| c.text).unwrap_or_default()
    }

    #[test]
    fn k_and_r_main_gets_its_int() {
        let text = "main(argc, argv) int argc; char **argv;\n{ return 0; }\n";
        assert_eq!(
            completed(text),
            "int main(argc, argv) int argc; char **argv;\n{ return 0; }\n"
        );
    }

    #[test]
    fn storage_classes_and_parameters_get_their_int() {
        let text = "static count = 1;\nf(a, b) register a; double b; { register i; return a; }\n";
        assert_eq!(
            completed(text),
            "static int count = 1;\nint f(a, b) register int a; double b; { register int i; return a; }\n"
        );
    }

    #[test]
    fn text_that_parses_or_fails_otherwise_is_left_alone() {
        assert!(complete("int main(void) { return 0; }\n").is_none());
        assert!(complete("int main(void) { return 0 }\n").is_none());
    }

    #[test]
    fn offsets_map_back_to_the_original() {
        let text = "f() { return 0; }\ng() { return 1; }\n";
        let c = complete(text).expect("completed");
        assert_eq!(c.insertions, vec![0, 18]);
        assert_eq!(c.original_offset(0), 0);
        assert_eq!(c.original_offset(4), 0);
        assert_eq!(c.original_offset(5), 1);
        assert_eq!(c.original_offset(23), 18);
        assert_eq!(c.original_offset(26), 18);
        assert_eq!(c.original_offset(c.text.len()), text.len());
    }
}
