//! Tokens of one pragma line. Positions are byte offsets into the line; the parser adds the
//! line's offset. The lexer never fails: anything it does not know becomes a one-character
//! `Other` token, and the parser reports it where it is unexpected.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokKind {
    Ident,
    Number,
    Str,
    Char,
    Punct,
    Other,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tok<'a> {
    pub kind: TokKind,
    pub text: &'a str,
    pub start: usize,
    pub end: usize,
}

impl<'a> Tok<'a> {
    pub fn is_punct(&self, p: &str) -> bool {
        self.kind == TokKind::Punct && self.text == p
    }

    pub fn is_ident(&self, name: &str) -> bool {
        self.kind == TokKind::Ident && self.text == name
    }
}

/// Two-character punctuators that matter to the directive grammar (reduction operators and
/// member access); every other punctuator is one character, which is all expression spans need.
const TWO_CHAR_PUNCT: [&str; 3] = ["&&", "||", "->"];

fn is_ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_' || c == '$'
}

fn is_ident_continue(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '$'
}

/// Splits `line` into tokens, skipping whitespace, comments and backslash-newline continuations.
pub fn tokenize(line: &str) -> Vec<Tok<'_>> {
    let bytes = line.as_bytes();
    let mut toks = Vec::new();
    let mut pos = 0;
    while let Some(c) = line[pos..].chars().next() {
        let start = pos;
        let next = bytes.get(pos + 1).copied();
        if c.is_whitespace() {
            pos += c.len_utf8();
            continue;
        }
        if c == '\\' && matches!(next, Some(b'\n') | Some(b'\r')) {
            pos += 2;
            continue;
        }
        if c == '/' && next == Some(b'*') {
            pos = match line[pos + 2..].find("*/") {
                Some(i) => pos + 2 + i + 2,
                None => line.len(),
            };
            continue;
        }
        if c == '/' && next == Some(b'/') {
            break;
        }
        let kind;
        if is_ident_start(c) {
            pos += 1;
            while pos < bytes.len() && is_ident_continue(bytes[pos] as char) {
                pos += 1;
            }
            kind = TokKind::Ident;
        } else if c.is_ascii_digit() || (c == '.' && next.is_some_and(|b| b.is_ascii_digit())) {
            // a C preprocessing number: digits, letters, `.`, and signs after an exponent letter
            pos += 1;
            while pos < bytes.len() {
                let b = bytes[pos];
                let prev = bytes[pos - 1];
                let part = b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'\'');
                let exponent_sign =
                    matches!(b, b'+' | b'-') && matches!(prev, b'e' | b'E' | b'p' | b'P');
                if !(part || exponent_sign) {
                    break;
                }
                pos += 1;
            }
            kind = TokKind::Number;
        } else if c == '"' || c == '\'' {
            pos = skip_quoted(bytes, pos);
            kind = if c == '"' {
                TokKind::Str
            } else {
                TokKind::Char
            };
        } else if c.is_ascii_punctuation() {
            let two = line.get(pos..pos + 2);
            pos += if two.is_some_and(|t| TWO_CHAR_PUNCT.contains(&t)) {
                2
            } else {
                1
            };
            kind = TokKind::Punct;
        } else {
            pos += c.len_utf8();
            kind = TokKind::Other;
        }
        toks.push(Tok {
            kind,
            text: &line[start..pos],
            start,
            end: pos,
        });
    }
    toks
}

/// Returns the position just after the closing quote of the literal starting at `start`, or the
/// end of the line when it is unterminated.
fn skip_quoted(bytes: &[u8], start: usize) -> usize {
    let quote = bytes[start];
    let mut pos = start + 1;
    while pos < bytes.len() {
        match bytes[pos] {
            b'\\' => pos += 2,
            b if b == quote => return pos + 1,
            b'\n' => return pos,
            _ => pos += 1,
        }
    }
    bytes.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(line: &str) -> Vec<&str> {
        tokenize(line).iter().map(|t| t.text).collect()
    }

    #[test]
    fn splits_identifiers_numbers_and_punctuation() {
        assert_eq!(
            texts("#pragma omp for reduction(&&:a) x->y 1.5e+3 \"a)b\" ')'"),
            [
                "#",
                "pragma",
                "omp",
                "for",
                "reduction",
                "(",
                "&&",
                ":",
                "a",
                ")",
                "x",
                "->",
                "y",
                "1.5e+3",
                "\"a)b\"",
                "')'"
            ]
        );
    }

    #[test]
    fn skips_comments_and_continuations() {
        assert_eq!(texts("a /* b */ c \\\n d // e"), ["a", "c", "d"]);
        assert_eq!(texts("a /* unterminated"), ["a"]);
    }

    #[test]
    fn survives_odd_input() {
        assert_eq!(texts("\"unterminated \\"), ["\"unterminated \\"]);
        assert_eq!(texts("é§\\"), ["é", "§", "\\"]);
        let t = tokenize("'\\");
        assert_eq!(t[0].end, 2);
    }
}
