//! The text lang-c parses: the preprocessed text with the parts the analysis never looks at
//! blanked, byte offsets unchanged (the AST's spans index the real text).
//!
//! - The content of an `omp.h` that is not ours (`gcc -fopenmp -E prog.c` output given as a
//!   `.i`): gcc's header uses attributes lang-c cannot parse. Only its typedef names matter to
//!   the parse (`omp_lock_t l;`), so they are declared as `int`; the emitted file re-includes
//!   `<omp.h>`, which the build finds in our directory first.
//! - Long initializer lists of numbers only (generated tables): lang-c keeps a parse cache
//!   entry per expression, which made a 8 MB table take seconds and hundreds of MB. The first
//!   number stays, so the initializer keeps its kind.
//! - GNU words lang-c cannot parse where gcc's headers use them: `__extension__` (no meaning to
//!   the analysis) is blanked, so `__extension__ (__m128)(__v4sf){ ... }` in `<xmmintrin.h>`
//!   parses; `__int128`, `__int128_t` and `__uint128_t` read as integer type specifiers of the
//!   same length (all the analysis asks of them). The emitted C keeps the real words.

use std::borrow::Cow;

use crate::diag::Span;
use crate::preprocess::LineMap;

/// Lists shorter than this are parsed as they are.
const LONG_LIST: usize = 1024;

pub fn parse_view<'t>(text: &'t str, lines: &LineMap) -> Cow<'t, str> {
    let mut blanks: Vec<(Span, String)> = Vec::new();
    for block in lines.header_blocks("omp.h") {
        let content = text.get(block.start..block.end).unwrap_or("");
        if !content.contains("__cape_opaque") {
            let declarations: String = typedef_names(content)
                .iter()
                .map(|name| format!("typedef int {name}; "))
                .collect();
            blanks.push((block, declarations));
        }
    }
    // not inside a foreign omp.h, already replaced as a whole
    let headers: Vec<Span> = blanks.iter().map(|(b, _)| *b).collect();
    blanks.extend(numeric_lists(text).into_iter().map(|s| (s, String::new())));
    blanks.extend(gnu_words(text).into_iter().filter(|(word, _)| {
        !headers
            .iter()
            .any(|b| b.start <= word.start && word.end <= b.end)
    }));
    if blanks.is_empty() {
        return Cow::Borrowed(text);
    }
    let mut bytes = text.as_bytes().to_vec();
    for (span, replacement) in blanks {
        let Some(range) = bytes.get_mut(span.start..span.end) else {
            continue;
        };
        // a replacement longer than the range cannot be placed: blank only
        let replacement = if replacement.len() <= range.len() {
            replacement.as_bytes()
        } else {
            &[]
        };
        for (i, b) in range.iter_mut().enumerate() {
            *b = match replacement.get(i) {
                Some(&r) => r,
                None if *b == b'\n' => b'\n',
                None => b' ',
            };
        }
    }
    // only ASCII bytes were written over whole ranges of a `str`, so it stays UTF-8
    Cow::Owned(String::from_utf8(bytes).unwrap_or_else(|_| text.to_string()))
}

/// Each GNU word of [`GNU_WORDS`] outside literals, with what lang-c reads instead.
fn gnu_words(text: &str) -> Vec<(Span, String)> {
    let bytes = text.as_bytes();
    let is_ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut found = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'"' || b == b'\'' {
            i = crate::respell::literal_end(bytes, i);
        } else if b.is_ascii_digit() {
            i = number_end(bytes, i);
        } else if is_ident(b) {
            let end = i + bytes[i..].iter().take_while(|&&c| is_ident(c)).count();
            let word = &text[i..end];
            if let Some((_, read_as)) = GNU_WORDS.iter().find(|(w, _)| *w == word) {
                found.push((Span::new(i, end), read_as.to_string()));
            }
            i = end;
        } else {
            i += 1;
        }
    }
    found
}

/// GNU words and what lang-c reads in their place: nothing, or one type specifier exactly as
/// long, so that its span (the type's text in the emitted C) covers the real word.
const GNU_WORDS: &[(&str, &str)] = &[
    ("__extension__", ""),
    ("__int128", "__signed"),
    ("__int128_t", "__signed__"),
    ("__uint128_t", "__typeof(0)"),
];

/// The names a header's text declares with `typedef ... NAME;` (at brace depth 0).
fn typedef_names(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = text;
    while let Some(at) = find_word(rest, "typedef") {
        let after = &rest[at + "typedef".len()..];
        let mut depth = 0usize;
        let mut end = after.len();
        for (i, c) in after.char_indices() {
            match c {
                '{' | '(' | '[' => depth += 1,
                '}' | ')' | ']' => depth = depth.saturating_sub(1),
                ';' if depth == 0 => {
                    end = i;
                    break;
                }
                _ => {}
            }
        }
        let declaration = after.get(..end).unwrap_or("").trim_end();
        let name_start = declaration
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .map_or(0, |i| i + 1);
        let name = &declaration[name_start..];
        if name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
            names.push(name.to_string());
        }
        rest = after.get(end..).unwrap_or("");
    }
    names
}

/// Where `word` occurs as a whole identifier.
fn find_word(text: &str, word: &str) -> Option<usize> {
    let is_ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(i) = text.get(from..)?.find(word) {
        let at = from + i;
        let end = at + word.len();
        let before_ok = at == 0 || !is_ident(bytes[at - 1]);
        let after_ok = end >= bytes.len() || !is_ident(bytes[end]);
        if before_ok && after_ok {
            return Some(at);
        }
        from = end;
    }
    None
}

/// Inside each brace list of at least [`LONG_LIST`] bytes that holds numbers only: the span
/// from after its first comma to its closing brace.
fn numeric_lists(text: &str) -> Vec<Span> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'{' {
            i += 1;
            continue;
        }
        let open = i;
        let mut first_comma = None;
        i += 1;
        let close = loop {
            let Some(&b) = bytes.get(i) else { break None };
            match b {
                b'}' => break Some(i),
                b',' => {
                    first_comma.get_or_insert(i);
                    i += 1;
                }
                b' ' | b'\t' | b'\n' | b'\r' | b'+' | b'-' => i += 1,
                b'0'..=b'9' | b'.' => i = number_end(bytes, i),
                // anything else (an identifier, a nested list, a cast): not a plain table;
                // scanning goes on from here, so every byte is looked at about once
                _ => break None,
            }
        };
        if let (Some(close), Some(comma)) = (close, first_comma) {
            if close - open >= LONG_LIST {
                spans.push(Span::new(comma + 1, close));
            }
            i = close + 1;
        }
    }
    spans
}

/// The end of a preprocessing number starting at `i` (`1.5e-3f`, `0x1p+4`, `10UL`).
pub(crate) fn number_end(bytes: &[u8], mut i: usize) -> usize {
    while let Some(&b) = bytes.get(i) {
        let exponent_sign = matches!(b, b'+' | b'-')
            && matches!(
                bytes.get(i.wrapping_sub(1)),
                Some(b'e' | b'E' | b'p' | b'P')
            );
        if b.is_ascii_alphanumeric() || b == b'.' || b == b'_' || exponent_sign {
            i += 1;
        } else {
            break;
        }
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_number_lists_keep_their_first_number() {
        let numbers: Vec<String> = (0..400).map(|i| format!("{i}.5e-1")).collect();
        let text = format!(
            "double t[] = {{ -1.0f, {} }};\nint x = f(a, {{1, 2}});",
            numbers.join(", ")
        );
        let lines = LineMap::new(&text);
        let view = parse_view(&text, &lines);
        assert_eq!(view.len(), text.len());
        assert!(view.starts_with("double t[] = { -1.0f,  "));
        assert!(view.trim_end().ends_with("};\nint x = f(a, {1, 2});"));
        assert!(!view.contains("399"));
    }

    #[test]
    fn lists_with_names_are_left_alone() {
        let names: Vec<String> = (0..400).map(|i| format!("{i}.0 + x")).collect();
        let text = format!("double t[] = {{ {} }};", names.join(", "));
        let lines = LineMap::new(&text);
        assert_eq!(parse_view(&text, &lines), text);
    }

    #[test]
    fn gnu_words_are_read_as_what_lang_c_takes() {
        let text = "unsigned __int128 x = 1; __uint128_t y; char *s = \"__int128\";\n\
                    int f(void) { return __extension__ (int)(long){ 2 }; }\n";
        let lines = LineMap::new(text);
        let view = parse_view(text, &lines);
        assert_eq!(view.len(), text.len());
        assert_eq!(
            view,
            "unsigned __signed x = 1; __typeof(0) y; char *s = \"__int128\";\n\
             int f(void) { return               (int)(long){ 2 }; }\n"
        );
        assert!(crate::parse::parse(&view).is_ok());
    }

    #[test]
    fn a_foreign_omp_h_becomes_its_typedef_names() {
        let text = "# 1 \"a.c\"\n# 1 \"/usr/lib/gcc/include/omp.h\" 1 3 4\n\
                    typedef struct __attribute__((__aligned__ (8))) omp_lock_t { int x[2]; } omp_lock_t;\n\
                    typedef long unsigned int omp_uintptr_t;\n\
                    extern int omp_get_thread_num (void) __attribute__((__nothrow__));\n\
                    # 2 \"a.c\" 2\nomp_lock_t l;\n";
        let lines = LineMap::new(text);
        let view = parse_view(text, &lines);
        assert_eq!(view.len(), text.len());
        assert!(view.contains("typedef int omp_lock_t; typedef int omp_uintptr_t; "));
        assert!(!view.contains("__attribute__"));
        assert!(view.ends_with("# 2 \"a.c\" 2\nomp_lock_t l;\n"));
    }
}
