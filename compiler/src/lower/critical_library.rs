//! The C library functions that write memory through their arguments, called under a
//! cross-rank lock (`critical_calls.rs`): each call becomes a statement expression that makes
//! the call with its arguments evaluated once, then reports the destination range it wrote
//! (exact where the size is an argument, as `memcpy`'s `n`; from the result where it depends
//! on it, as `strlen(dst) + 1` after `strcpy`, the count `sprintf` returns, the conversions
//! `sscanf` assigned).

use crate::diag::{Diagnostic, Span};

/// What a library call writes, as C expressions over its arguments `A0`, `A1`, ... and its
/// result `R`: (condition, destination, length) per written range.
pub struct Library {
    returns_void: bool,
    ranges: Vec<(String, String, String)>,
}

fn range(condition: &str, dst: &str, len: &str) -> (String, String, String) {
    (condition.into(), dst.into(), len.into())
}

const STRLEN: &str = "__builtin_strlen((const char *)A0) + 1";

/// The writes of library function `name` called with `args` (None: not a known writer; an
/// error: a known writer whose writes cannot be known, with the reason).
pub fn library(cx: &super::Context, name: &str, args: &[Span]) -> Option<Result<Library, String>> {
    let plain = name.strip_prefix("__builtin_").unwrap_or(name);
    let ranges = match plain {
        "memcpy" | "memmove" | "memset" | "strncpy" if args.len() == 3 => {
            vec![range("1", "A0", "A2")]
        }
        "strcpy" | "strcat" | "strncat" => vec![range("1", "A0", STRLEN)],
        "sprintf" | "vsprintf" => vec![range("R >= 0", "A0", "(size_t)R + 1")],
        "snprintf" | "vsnprintf" => vec![range(
            "R >= 0 && A1 > 0",
            "A0",
            "(size_t)R < (size_t)A1 ? (size_t)R + 1 : (size_t)A1",
        )],
        "fgets" => vec![range("R != 0", "A0", STRLEN)],
        "fread" => vec![range("1", "A0", "R * A1")],
        "time" => vec![range("A0 != 0", "A0", "sizeof *A0")],
        "qsort" if args.len() == 4 => {
            return Some(Ok(Library {
                returns_void: true,
                ranges: vec![range("1", "A0", "A1 * A2")],
            }))
        }
        "sscanf" | "fscanf" => return Some(scanned(cx, args, 1)),
        "scanf" => return Some(scanned(cx, args, 0)),
        _ => return None,
    };
    Some(Ok(Library {
        returns_void: false,
        ranges,
    }))
}

/// `sscanf`-like: the pointers after the format, one per assigning conversion; the k-th is
/// written when more than k conversions were assigned (`%n` when k were).
fn scanned(cx: &super::Context, args: &[Span], format_at: usize) -> Result<Library, String> {
    let literal = args
        .get(format_at)
        .map(|&s| cx.text(s).trim())
        .filter(|t| t.starts_with('"'))
        .ok_or("the format is not a string literal, so capecc cannot tell what it assigns; write the format as a literal")?;
    let mut format = String::new();
    for piece in literal.split('"').skip(1).step_by(2) {
        format.push_str(piece);
    }
    let mut ranges = Vec::new();
    let mut arg = format_at + 1;
    let mut assigned = 0;
    for conv in conversions(&format) {
        let Some(conv) = conv else { continue };
        let a = format!("A{arg}");
        arg += 1;
        match conv {
            Conversion::Count => ranges.push(range(
                &format!("R >= {assigned}"),
                &a,
                &format!("sizeof *{a}"),
            )),
            Conversion::String => {
                let len = format!("__builtin_strlen((const char *){a}) + 1");
                ranges.push(range(&format!("R > {assigned}"), &a, &len));
                assigned += 1;
            }
            Conversion::Chars(n) => {
                ranges.push(range(&format!("R > {assigned}"), &a, &n.to_string()));
                assigned += 1;
            }
            Conversion::Value => {
                let len = format!("sizeof *{a}");
                ranges.push(range(&format!("R > {assigned}"), &a, &len));
                assigned += 1;
            }
        }
    }
    if arg != args.len() {
        return Err(format!(
            "the format assigns {} arguments but the call passes {}; make them match",
            arg - format_at - 1,
            args.len().saturating_sub(format_at + 1)
        ));
    }
    Ok(Library {
        returns_void: false,
        ranges,
    })
}

#[derive(Debug, PartialEq)]
enum Conversion {
    /// `%n`: the count of characters read so far
    Count,
    /// `%s`, `%[...]`: a string and its terminating zero
    String,
    /// `%c` with its width
    Chars(usize),
    /// a number or a pointer: the pointee's size
    Value,
}

/// The conversions of a `scanf` format, in order (None: suppressed with `*`, no argument).
fn conversions(format: &str) -> Vec<Option<Conversion>> {
    let mut found = Vec::new();
    let mut chars = format.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            continue;
        }
        if chars.peek() == Some(&'%') {
            chars.next();
            continue;
        }
        let suppressed = chars.peek() == Some(&'*');
        if suppressed {
            chars.next();
        }
        let mut width = String::new();
        while let Some(d) = chars.peek().filter(|d| d.is_ascii_digit()) {
            width.push(*d);
            chars.next();
        }
        while chars
            .peek()
            .is_some_and(|m| matches!(m, 'h' | 'l' | 'j' | 'z' | 't' | 'L' | 'q' | 'm'))
        {
            chars.next();
        }
        let conv = match chars.next() {
            Some('n') => Conversion::Count,
            Some('s') => Conversion::String,
            Some('[') => {
                // a `]` right after `[` or `[^` is part of the set
                if chars.peek() == Some(&'^') {
                    chars.next();
                }
                if chars.peek() == Some(&']') {
                    chars.next();
                }
                for d in chars.by_ref() {
                    if d == ']' {
                        break;
                    }
                }
                Conversion::String
            }
            Some('c') => Conversion::Chars(width.parse().unwrap_or(1)),
            Some(_) => Conversion::Value,
            None => break,
        };
        found.push((!suppressed).then_some(conv));
    }
    found
}

/// The statement expression that replaces the call `name(args)` (`id` keeps its names apart
/// from those of calls nested in its arguments).
pub fn render_call(
    name: &str,
    lib: &Library,
    args: &[String],
    id: usize,
) -> Result<String, Vec<Diagnostic>> {
    let arg = |i: usize| format!("__cape_a{id}_{i}");
    let result = format!("__cape_r{id}");
    let mut text = String::from("({ ");
    for (i, a) in args.iter().enumerate() {
        text.push_str(&format!("__auto_type {} = ({}); ", arg(i), a.trim()));
    }
    let passed: Vec<String> = (0..args.len()).map(arg).collect();
    let call = format!("{name}({})", passed.join(", "));
    if lib.returns_void {
        text.push_str(&format!("{call}; "));
    } else {
        text.push_str(&format!("__auto_type {result} = {call}; "));
    }
    // A10 before A1: the longer names first
    let spell = |e: &str| -> String {
        let mut e = e.replace('R', &result);
        for i in (0..args.len()).rev() {
            e = e.replace(&format!("A{i}"), &arg(i));
        }
        e
    };
    for (condition, dst, len) in &lib.ranges {
        text.push_str(&format!(
            "if ({}) __cape_critical_store((void *)({}), (size_t)({})); ",
            spell(condition),
            spell(dst),
            spell(len)
        ));
    }
    if !lib.returns_void {
        text.push_str(&format!("{result}; "));
    }
    text.push_str("})");
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scanf_conversions() {
        use Conversion::*;
        assert_eq!(
            conversions("%d %*d %5s %[^,], %3c %lf %n %%"),
            vec![
                Some(Value),
                None,
                Some(String),
                Some(String),
                Some(Chars(3)),
                Some(Value),
                Some(Count)
            ]
        );
        assert_eq!(conversions("%[]a]%c"), vec![Some(String), Some(Chars(1))]);
    }

    #[test]
    fn call_reports_after() {
        let lib = Library {
            returns_void: false,
            ranges: vec![range("R >= 0", "A0", "(size_t)R + 1")],
        };
        let text = render_call(
            "sprintf",
            &lib,
            &["buf".into(), "\"%d\"".into(), "x".into()],
            7,
        )
        .unwrap_or_default();
        assert!(text
            .contains("__auto_type __cape_r7 = sprintf(__cape_a7_0, __cape_a7_1, __cape_a7_2);"));
        assert!(text.contains("if (__cape_r7 >= 0) __cape_critical_store((void *)(__cape_a7_0), (size_t)((size_t)__cape_r7 + 1));"));
    }
}
