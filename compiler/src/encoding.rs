//! Bytes the translator cannot take as they are. lang-c wants a `&str` and ASCII identifiers,
//! but a C file may hold any byte in a literal (`"caf\xe9"` saved as Latin-1) and UTF-8 in an
//! identifier (C99 allows `größe`, gcc 10 and later accept it; `gcc -E` writes it with universal
//! character names). Every run of non-ASCII bytes and UCNs becomes an ASCII placeholder `<prefix><HEX>_`: an identifier fragment, so `größe` stays one
//! identifier and a literal stays a literal. The translated C is decoded back byte for byte.
//! The prefix is one the input does not contain, and generated names never contain it (they all
//! start with `__cape_`), so decoding cannot touch the user's own text.

use crate::diag::{Diagnostic, Span};

/// A placeholder: where it is in the encoded text and where its bytes were in the original.
#[derive(Debug, Clone, Copy)]
struct Substitution {
    encoded: usize,
    encoded_len: usize,
    original: usize,
    original_len: usize,
}

/// Text for the translator, and how to get the original bytes back.
pub struct Encoded {
    /// ASCII-only when the original had non-ASCII bytes; the original itself otherwise
    pub text: String,
    prefix: String,
    substitutions: Vec<Substitution>,
    /// the original bytes with each byte that is not UTF-8 shown as `?` (same offsets)
    display: String,
}

impl Encoded {
    pub fn new(original: &[u8]) -> Encoded {
        let prefix = choose_prefix(original);
        let mut substitutions = Vec::new();
        let text = encode_with(&prefix, original, Some(&mut substitutions));
        Encoded {
            text,
            prefix,
            substitutions,
            display: display_text(original),
        }
    }

    /// Another file's bytes (an included source) encoded with the same placeholders.
    pub fn encode_other(&self, bytes: &[u8]) -> String {
        encode_with(&self.prefix, bytes, None)
    }

    /// The bytes of translated C: placeholders replaced by the bytes they stand for.
    pub fn decode(&self, text: &str) -> Vec<u8> {
        self.decode_with(text, false)
    }

    /// `decode`, with universal character names (`gcc -E` writes `ünknown` as
    /// `\U000000fcnknown`) turned into the characters when `characters` is set.
    fn decode_with(&self, text: &str, characters: bool) -> Vec<u8> {
        if self.substitutions.is_empty() {
            return text.as_bytes().to_vec();
        }
        let mut out = Vec::with_capacity(text.len());
        let mut rest = text.as_bytes();
        while let Some(at) = find(rest, self.prefix.as_bytes()) {
            out.extend_from_slice(&rest[..at]);
            let after = &rest[at + self.prefix.len()..];
            match hex_run(after) {
                Some((bytes, used)) => {
                    if characters {
                        out.extend_from_slice(&ucn_characters(&bytes));
                    } else {
                        out.extend_from_slice(&bytes);
                    }
                    rest = &after[used..];
                }
                None => {
                    out.extend_from_slice(self.prefix.as_bytes());
                    rest = after;
                }
            }
        }
        out.extend_from_slice(rest);
        out
    }

    /// Decoded text for people (messages, file names): names as the user wrote them (a
    /// universal character name as its character); bytes that are not UTF-8 show as U+FFFD.
    pub fn decode_for_display(&self, text: &str) -> String {
        String::from_utf8_lossy(&self.decode_with(text, true)).into_owned()
    }

    /// The original text with the same byte offsets as the original file (for rendering).
    pub fn display(&self) -> &str {
        &self.display
    }

    /// The offset in the original bytes of an offset of the encoded text (the start of a
    /// placeholder's bytes for an offset inside it).
    pub fn original_offset(&self, offset: usize) -> usize {
        let index = self.substitutions.partition_point(|s| s.encoded <= offset);
        let Some(s) = index.checked_sub(1).and_then(|i| self.substitutions.get(i)) else {
            return offset;
        };
        if offset < s.encoded + s.encoded_len {
            s.original
        } else {
            s.original + s.original_len + (offset - s.encoded - s.encoded_len)
        }
    }

    /// A diagnostic about the encoded text, moved to the original bytes and decoded.
    pub fn original_diagnostic(&self, d: &Diagnostic) -> Diagnostic {
        let span = |s: Span| Span::new(self.original_offset(s.start), self.original_offset(s.end));
        Diagnostic {
            severity: d.severity,
            message: self.decode_for_display(&d.message),
            primary: d
                .primary
                .as_ref()
                .map(|(s, label)| (span(*s), self.decode_for_display(label))),
            secondary: d
                .secondary
                .iter()
                .map(|(s, label)| (span(*s), self.decode_for_display(label)))
                .collect(),
            notes: d.notes.iter().map(|n| self.decode_for_display(n)).collect(),
        }
    }
}

/// Bytes as text with the same offsets: valid UTF-8 kept, every other byte shown as `?`.
pub fn display_text(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        out.push_str(chunk.valid());
        out.extend(chunk.invalid().iter().map(|_| '?'));
    }
    out
}

/// `__capeU`, else `__capeU0`, `__capeU1`, ...: the first the input does not contain.
fn choose_prefix(original: &[u8]) -> String {
    let mut prefix = "__capeU".to_string();
    let mut n = 0u32;
    while find(original, prefix.as_bytes()).is_some() {
        prefix = format!("__capeU{n}");
        n += 1;
    }
    prefix
}

fn encode_with(prefix: &str, bytes: &[u8], mut record: Option<&mut Vec<Substitution>>) -> String {
    if bytes.is_ascii() && !bytes.contains(&b'\\') {
        // the common case: nothing to hide
        return String::from_utf8_lossy(bytes).into_owned();
    }
    let mut text = String::with_capacity(bytes.len() + bytes.len() / 8);
    let mut i = 0;
    while i < bytes.len() {
        if hidden_len(bytes, i) == 0 {
            text.push(char::from(bytes[i]));
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && hidden_len(bytes, i) > 0 {
            i += hidden_len(bytes, i);
        }
        let encoded = text.len();
        text.push_str(prefix);
        for b in &bytes[start..i] {
            text.push_str(&format!("{b:02X}"));
        }
        text.push('_');
        if let Some(subs) = record.as_deref_mut() {
            subs.push(Substitution {
                encoded,
                encoded_len: text.len() - encoded,
                original: start,
                original_len: i - start,
            });
        }
    }
    text
}

/// The length of what a placeholder hides at `i`: a non-ASCII byte, or a universal character
/// name (`gcc -E` spells `größe` as `gr\U000000f6\U000000dfe`, which lang-c cannot read).
fn hidden_len(bytes: &[u8], i: usize) -> usize {
    match bytes.get(i..) {
        Some([b, ..]) if !b.is_ascii() => 1,
        Some([b'\\', kind @ (b'u' | b'U'), rest @ ..]) => {
            let digits = if *kind == b'u' { 4 } else { 8 };
            let hex = rest
                .iter()
                .take(digits)
                .filter(|d| d.is_ascii_hexdigit())
                .count();
            if hex == digits {
                2 + digits
            } else {
                0
            }
        }
        _ => 0,
    }
}

/// `bytes` with each universal character name that names a character as that character's
/// UTF-8 bytes.
fn ucn_characters(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let len = hidden_len(bytes, i);
        let character = (len > 2)
            .then(|| std::str::from_utf8(&bytes[i + 2..i + len]).ok())
            .flatten()
            .and_then(|hex| u32::from_str_radix(hex, 16).ok())
            .and_then(char::from_u32);
        match character {
            Some(c) => {
                out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
                i += len;
            }
            None => {
                out.push(bytes[i]);
                i += 1;
            }
        }
    }
    out
}

/// `C3B6_...` -> (bytes, length read including the `_`).
fn hex_run(text: &[u8]) -> Option<(Vec<u8>, usize)> {
    let end = text.iter().position(|&b| b == b'_')?;
    if end == 0 || end % 2 != 0 {
        return None;
    }
    let digit = |b: u8| match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    };
    let bytes = text[..end]
        .chunks(2)
        .map(|pair| Some(digit(pair[0])? << 4 | digit(pair[1])?))
        .collect::<Option<Vec<u8>>>()?;
    Some((bytes, end + 1))
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_any_bytes() {
        let original = b"char *s = \"caf\xe9\"; int gr\xc3\xb6\xc3\x9f" as &[u8];
        let mut original = original.to_vec();
        original.extend_from_slice("e = 1; // __capeU is taken\n".as_bytes());
        let e = Encoded::new(&original);
        assert!(e.text.is_ascii());
        assert!(e.text.contains("int gr__capeU0C3B6C39F_e = 1;"));
        assert_eq!(e.decode(&e.text), original);
        // a generated name built from the identifier decodes the same way
        assert_eq!(
            e.decode("__cape_shared_gr__capeU0C3B6C39F_e"),
            "__cape_shared_größe".as_bytes()
        );
    }

    #[test]
    fn maps_offsets_back_to_the_original() {
        let e = Encoded::new("int größe = x;".as_bytes());
        let x = e.text.find('x').unwrap_or(0);
        assert_eq!(e.original_offset(x), "int größe = ".len());
        assert_eq!(e.original_offset(6), 6);
        assert_eq!(e.display(), "int größe = x;");
    }

    #[test]
    fn hides_universal_character_names() {
        let original = br#"int gr\U000000f6\U000000dfe = 1; char *s = "\\u12";"#;
        let e = Encoded::new(original);
        assert!(e.text.starts_with("int gr__capeU5C55"));
        assert!(e.text.ends_with("6466_e = 1; char *s = \"\\\\u12\";"));
        assert_eq!(e.decode(&e.text), original);
    }

    #[test]
    fn messages_show_universal_character_names_as_characters() {
        let original = br"reduction(+:\U000000fcnknown) gr\u00f6\u00dfe";
        let e = Encoded::new(original);
        let (clause, name) = e.text.split_once(' ').unwrap_or_default();
        let item = clause
            .trim_start_matches("reduction(+:")
            .trim_end_matches(')');
        assert_eq!(
            e.decode_for_display(&format!("cannot find variable `{item}`")),
            "cannot find variable `ünknown`"
        );
        assert_eq!(e.decode_for_display(name), "größe");
        // the translated C keeps them as they were
        assert_eq!(e.decode(&e.text), original);
    }

    #[test]
    fn ascii_is_untouched() {
        let e = Encoded::new(b"int x;");
        assert_eq!(e.text, "int x;");
        assert_eq!(e.decode("int __capeUC3_;"), b"int __capeUC3_;");
    }
}
