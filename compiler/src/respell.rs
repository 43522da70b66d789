//! Spellings gcc accepts and lang-c does not, rewritten in the preprocessed text before
//! anything reads it, so the translation (and the C it emits) uses the standard spelling:
//!
//! - digraphs (C99 6.4.6): `<:` `:>` `<%` `%>` `%:` `%:%:` become `[` `]` `{` `}` `#` `##`,
//!   padded with spaces to the same length (offsets and columns unchanged);
//! - GNU `__thread` becomes `_Thread_local`, which gcc treats the same. The word is longer,
//!   so diagnostics are moved back to the original offsets.
//!
//! String and character literals are left alone.

use crate::diag::{Diagnostic, Span};

const THREAD: &str = "__thread";
const THREAD_LOCAL: &str = "_Thread_local";

/// The respelled text, and where its offsets differ from the original's.
pub struct Respelled {
    pub text: String,
    /// original offsets of each `__thread` that became `_Thread_local`, ascending
    threads: Vec<usize>,
}

impl Respelled {
    /// The offset in the original text of an offset in the respelled one (inside a
    /// `_Thread_local` that was `__thread`: clamped to the original word).
    pub fn original_offset(&self, offset: usize) -> usize {
        let grown = THREAD_LOCAL.len() - THREAD.len();
        let mut shift = 0;
        for &at in &self.threads {
            let respelled_at = at + shift;
            if offset < respelled_at {
                break;
            }
            if offset < respelled_at + THREAD_LOCAL.len() {
                return at + (offset - respelled_at).min(THREAD.len());
            }
            shift += grown;
        }
        offset - shift
    }

    /// A diagnostic about the respelled text, moved to the original's offsets.
    pub fn original_diagnostic(&self, mut d: Diagnostic) -> Diagnostic {
        if self.threads.is_empty() {
            return d;
        }
        let span = |s: Span| Span::new(self.original_offset(s.start), self.original_offset(s.end));
        if let Some((s, _)) = d.primary.as_mut() {
            *s = span(*s);
        }
        for (s, _) in d.secondary.iter_mut() {
            *s = span(*s);
        }
        d
    }
}

/// `text` with digraphs and `__thread` in their standard spellings.
pub fn respell(text: &str) -> Respelled {
    let bytes = text.as_bytes();
    let mut out: Vec<u8> = Vec::with_capacity(text.len());
    let mut threads = Vec::new();
    let is_ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'"' | b'\'' => {
                let end = literal_end(bytes, i);
                out.extend_from_slice(&bytes[i..end]);
                i = end;
            }
            b'<' | b':' | b'%' => {
                let rest = &bytes[i..];
                let (replacement, len): (&[u8], usize) = if rest.starts_with(b"%:%:") {
                    (b"##  ", 4)
                } else if rest.starts_with(b"<:") {
                    (b"[ ", 2)
                } else if rest.starts_with(b":>") {
                    (b"] ", 2)
                } else if rest.starts_with(b"<%") {
                    (b"{ ", 2)
                } else if rest.starts_with(b"%>") {
                    (b"} ", 2)
                } else if rest.starts_with(b"%:") {
                    (b"# ", 2)
                } else {
                    (&rest[..1], 1)
                };
                out.extend_from_slice(replacement);
                i += len;
            }
            _ if is_ident(b) => {
                let end = i + bytes[i..].iter().take_while(|&&c| is_ident(c)).count();
                let word = &bytes[i..end];
                if word == THREAD.as_bytes() {
                    threads.push(i);
                    out.extend_from_slice(THREAD_LOCAL.as_bytes());
                } else {
                    out.extend_from_slice(word);
                }
                i = end;
            }
            _ => {
                out.push(b);
                i += 1;
            }
        }
    }
    // only ASCII was replaced by ASCII at character boundaries
    let text = String::from_utf8(out).unwrap_or_else(|_| text.to_string());
    Respelled { text, threads }
}

/// The end of the string or character literal opening at `start` (at the end of its line
/// if it is not closed there).
pub(crate) fn literal_end(bytes: &[u8], start: usize) -> usize {
    let quote = bytes[start];
    let mut i = start + 1;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'\\' => i += 2,
            b'\n' => return i,
            _ if b == quote => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digraphs_become_punctuators_of_the_same_length() {
        let text = "int a<:2:> = <%1, 2%>;\n#define S(x) %:x\n#define C(a, b) a%:%:b\n\
                    char *s = \"<:%>\"; char c = '%'; int m = 7 % 3 ? 1 : 2;";
        let r = respell(text);
        assert_eq!(r.text.len(), text.len());
        assert_eq!(
            r.text,
            "int a[ 2]  = { 1, 2} ;\n#define S(x) # x\n#define C(a, b) a##  b\n\
             char *s = \"<:%>\"; char c = '%'; int m = 7 % 3 ? 1 : 2;"
        );
        assert!(r.threads.is_empty());
    }

    #[test]
    fn gnu_thread_becomes_thread_local_and_offsets_map_back() {
        let text =
            "__thread int t;\nstatic __thread int u; int __thread_x; char *s = \"__thread\";";
        let r = respell(text);
        assert_eq!(
            r.text,
            "_Thread_local int t;\nstatic _Thread_local int u; int __thread_x; char *s = \"__thread\";"
        );
        assert_eq!(r.threads, vec![0, 23]);
        assert_eq!(r.original_offset(0), 0);
        assert_eq!(r.original_offset(13), 8);
        assert_eq!(r.original_offset(14), 9);
        // `u` after the second one
        let u = r.text.find("u;").unwrap();
        assert_eq!(r.original_offset(u), text.find("u;").unwrap());
        assert_eq!(r.original_offset(r.text.len()), text.len());
    }
}
