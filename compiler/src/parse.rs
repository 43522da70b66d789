//! lang-c wrapper: the preprocessed translation unit -> AST; a syntax error -> one Diagnostic.

use lang_c::ast::TranslationUnit;
use lang_c::driver::{parse_preprocessed, Config, Flavor};

use crate::diag::{Diagnostic, Span};

/// Parses GNU C11. Pragma, `#define` and line-marker lines are whitespace to lang-c.
pub fn parse(preprocessed: &str) -> Result<TranslationUnit, Diagnostic> {
    check_nesting(preprocessed)?;
    match parse_preprocessed(&config(), preprocessed.to_string()) {
        Ok(parse) => Ok(parse.unit),
        Err(err) => {
            let at = err.offset.min(preprocessed.len());
            let found = found_token(preprocessed, at);
            if let Some(diag) = gnu_extension(preprocessed, at, found.as_deref()) {
                return Err(diag);
            }
            let mut expected: Vec<&str> = err
                .expected
                .iter()
                .copied()
                .filter(|e| !e.is_empty())
                .collect();
            expected.sort_unstable();
            let message = match found.as_deref() {
                Some(tok) => format!("syntax error: unexpected `{tok}`"),
                None => "syntax error: unexpected end of file".to_string(),
            };
            let len = found.as_ref().map_or(0, |t| t.len());
            let mut diag =
                Diagnostic::error(message).with_primary(Span::new(at, at + len), "unexpected here");
            if !expected.is_empty() && expected.len() <= 8 {
                let list: Vec<String> = expected.iter().map(|e| format!("`{e}`")).collect();
                diag = diag.with_note(format!("expected one of {}", list.join(", ")));
            }
            Err(diag)
        }
    }
}

fn config() -> Config {
    Config {
        flavor: Flavor::GnuC11,
        ..Config::with_gcc()
    }
}

/// Where lang-c stops on `preprocessed`, or `None` if it parses.
pub fn error_offset(preprocessed: &str) -> Option<usize> {
    parse_preprocessed(&config(), preprocessed.to_string())
        .err()
        .map(|err| err.offset.min(preprocessed.len()))
}

/// The token at `at`: an identifier/number run or a single punctuation character.
fn found_token(text: &str, at: usize) -> Option<String> {
    let rest = text.get(at..)?;
    let first = rest.chars().next()?;
    if first.is_alphanumeric() || first == '_' {
        Some(
            rest.chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect(),
        )
    } else {
        Some(first.to_string())
    }
}

/// A GNU C extension gcc accepts and lang-c cannot parse, recognised where the parse stopped:
/// said by name, with what to write instead, rather than as a syntax error.
fn gnu_extension(text: &str, at: usize, found: Option<&str>) -> Option<Diagnostic> {
    let rest = text.get(at..)?;
    let before = text.get(..at)?.trim_end();
    // `unsigned __int128 x`: lang-c takes `__int128` for the declared name and stops after it
    let after_int128 = before
        .strip_suffix("__int128")
        .filter(|b| !b.ends_with(|c: char| c.is_alphanumeric() || c == '_'));
    let (at, found) = match after_int128 {
        Some(b) => (b.len(), Some("__int128")),
        None => (at, found),
    };
    let (what, len, help) = match found? {
        "__int128" => (
            "`__int128` (a GNU extension) is",
            "__int128".len(),
            "help: use a 64-bit type (`long long`, `int64_t`), or a struct of two 64-bit halves",
        ),
        "&" if rest
            .strip_prefix("&&")
            .map(str::trim_start)
            .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')) =>
        {
            (
                "labels as values (`&&label`, a GNU extension) are",
                2,
                "help: number the targets and jump with a `switch` on the number",
            )
        }
        "*" if before.ends_with("goto")
            && !before[..before.len() - 4].ends_with(|c: char| c.is_alphanumeric() || c == '_') =>
        {
            (
                "computed `goto *` (a GNU extension) is",
                1,
                "help: number the targets and jump with a `switch` on the number",
            )
        }
        "{" if before.ends_with(')') && brace_depth(before) > 0 => (
            "nested functions (a GNU extension) are",
            1,
            "help: define the function at file scope and pass it what it uses of the enclosing \
             function as arguments",
        ),
        _ => return None,
    };
    Some(
        Diagnostic::error(format!("{what} not supported by capecc"))
            .with_primary(
                Span::new(at, at + len),
                "not supported by capecc's C parser",
            )
            .with_note(help),
    )
}

/// The depth of braces open at the end of `text`, outside literals, comments and
/// preprocessor lines (whether the text ends inside a function body).
fn brace_depth(text: &str) -> usize {
    let mut depth = 0usize;
    for line in text.lines().filter(|l| !l.trim_start().starts_with('#')) {
        let mut chars = line.chars();
        while let Some(c) = chars.next() {
            match c {
                '{' => depth += 1,
                '}' => depth = depth.saturating_sub(1),
                '"' | '\'' => {
                    while let Some(d) = chars.next() {
                        if d == '\\' {
                            chars.next();
                        } else if d == c {
                            break;
                        }
                    }
                }
                '/' if chars.as_str().starts_with('/') => break,
                _ => {}
            }
        }
    }
    depth
}

/// Parentheses, brackets and braces nested deeper than this are refused: the parser and the
/// passes recurse once per level, and the driver's stack (driver/front_end.rs) holds well
/// over this many. gcc itself fails near 60000 levels (cc1 runs out of stack).
pub const MAX_NESTING: usize = 50_000;

/// A clear error at the bracket that opens level [`MAX_NESTING`] + 1, never a stack overflow.
fn check_nesting(text: &str) -> Result<(), Diagnostic> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut at = 0;
    while at < bytes.len() {
        match bytes[at] {
            quote @ (b'"' | b'\'') => {
                // a literal: skip to its closing quote (or the line's end)
                at += 1;
                while at < bytes.len() && bytes[at] != quote && bytes[at] != b'\n' {
                    at += if bytes[at] == b'\\' { 2 } else { 1 };
                }
            }
            b'(' | b'[' | b'{' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(Diagnostic::error(format!(
                        "brackets nested more than {MAX_NESTING} deep"
                    ))
                    .with_primary(Span::new(at, at + 1), "this one opens a deeper level")
                    .with_note("help: split the expression or the block into smaller parts"));
                }
            }
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        at += 1;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{check_nesting, parse, MAX_NESTING};

    fn message(source: &str) -> (String, Vec<String>) {
        match parse(source) {
            Err(d) => (d.message, d.notes),
            Ok(_) => panic!("parsed: {source}"),
        }
    }

    #[test]
    fn gnu_extensions_are_named() {
        for (source, expected) in [
            (
                "__int128 a[4];",
                "`__int128` (a GNU extension) is not supported by capecc",
            ),
            (
                "int f(void) { unsigned __int128 s = 0; return (int)s; }",
                "`__int128` (a GNU extension) is not supported by capecc",
            ),
            (
                "int f(int i) { static void *t[] = { &&a, &&b }; a: return 1; b: return 2; }",
                "labels as values (`&&label`, a GNU extension) are not supported by capecc",
            ),
            (
                "int f(void *p) { goto *p; }",
                "computed `goto *` (a GNU extension) is not supported by capecc",
            ),
            (
                "int f(int k) { char *s = \"}\"; int add(int x) { return x + k; } return add(1); }",
                "nested functions (a GNU extension) are not supported by capecc",
            ),
        ] {
            let (m, notes) = message(source);
            assert_eq!(m, expected, "{source}");
            assert!(notes.iter().any(|n| n.starts_with("help: ")), "{source}");
        }
    }

    #[test]
    fn syntax_errors_stay_syntax_errors() {
        let (m, notes) = message("int f(void) { return 1 }");
        assert!(m.starts_with("syntax error"), "{m}");
        assert!(notes.iter().all(|n| !n.contains("``")), "{notes:?}");
        let (m, _) = message("int x = a && ;");
        assert!(m.starts_with("syntax error"), "{m}");
    }

    #[test]
    fn nesting_beyond_the_limit_is_an_error_at_its_bracket() {
        let deep = |n: usize| format!("int x = {}1{};", "(".repeat(n), ")".repeat(n));
        assert!(check_nesting(&deep(MAX_NESTING)).is_ok());
        let e = check_nesting(&deep(MAX_NESTING + 1)).unwrap_err();
        assert_eq!(e.primary.unwrap().0.start, "int x = ".len() + MAX_NESTING);
        // brackets in literals do not count
        let text = format!("char *s = \"{}\";", "(".repeat(MAX_NESTING + 1));
        assert!(check_nesting(&text).is_ok());
    }
}
