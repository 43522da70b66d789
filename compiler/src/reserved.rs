//! Generated code names things `__cape_...`, `__CAPE_...` and `CAPE_SCHED_...`; a user
//! identifier spelled that way would be captured by (or capture) a generated one. Before anything
//! else, such identifiers in the user's code are renamed by swapping the prefix for one that
//! occurs nowhere in the translation unit (`__cape_d` -> `__cap0_d`). The swap keeps lengths, so
//! every offset, line and column stays valid, and it is a bijection, so user names stay distinct.

use crate::parse_view::number_end;
use crate::preprocess::LineMap;

/// Prefixes of generated names; the swap replaces their first `e`/`E`.
const GENERATED: &[&str] = &["__cape_", "__CAPE_", "CAPE_SCHED_"];

/// The renaming chosen for one translation unit.
pub struct Renaming {
    /// the character that replaces the `E`/`e` of a generated prefix
    digit: char,
}

impl Renaming {
    fn swapped(&self, prefix: &str) -> String {
        prefix.replacen(['e', 'E'], &self.digit.to_string(), 1)
    }

    /// Undo the swap in a message shown to the user.
    pub fn restore(&self, text: &str) -> String {
        GENERATED
            .iter()
            .fold(text.to_string(), |t, p| t.replace(&self.swapped(p), p))
    }
}

/// `source` with the user's identifiers that start like a generated name renamed, and the
/// renaming (None when there was nothing to rename or no free prefix exists, in which case the
/// text is returned unchanged).
pub fn rename_user_identifiers(source: &str, lines: &LineMap) -> (String, Option<Renaming>) {
    let targets: Vec<(usize, usize)> = identifiers(source)
        .filter(|&(start, _)| !lines.is_system(start))
        .filter_map(|(start, end)| {
            let name = source.get(start..end)?;
            let prefix = GENERATED.iter().find(|p| name.starts_with(*p))?;
            Some((start, prefix.len()))
        })
        .collect();
    if targets.is_empty() {
        return (source.to_string(), None);
    }
    let free = ('0'..='9')
        .map(|digit| Renaming { digit })
        .find(|r| GENERATED.iter().all(|p| !source.contains(&r.swapped(p))));
    let Some(renaming) = free else {
        return (source.to_string(), None);
    };
    let mut out = String::with_capacity(source.len());
    let mut copied = 0;
    for (start, len) in targets {
        let prefix = source.get(start..start + len).unwrap_or("");
        out.push_str(source.get(copied..start).unwrap_or(""));
        out.push_str(&renaming.swapped(prefix));
        copied = start + len;
    }
    out.push_str(source.get(copied..).unwrap_or(""));
    (out, Some(renaming))
}

/// (start, end) of every identifier outside string and character literals and numbers.
fn identifiers(source: &str) -> impl Iterator<Item = (usize, usize)> + '_ {
    let bytes = source.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < bytes.len() {
            let c = bytes[i];
            if c == b'"' || c == b'\'' {
                i += 1;
                while i < bytes.len() && bytes[i] != c && bytes[i] != b'\n' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            } else if c.is_ascii_digit() {
                // a pp-number: `1e5`, `0x1fULL`, `1.5e-3f`
                i = number_end(bytes, i);
            } else if c.is_ascii_alphabetic() || c == b'_' {
                let start = i;
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                return Some((start, i));
            } else {
                i += 1;
            }
        }
        None
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renames_user_identifiers_only_and_keeps_lengths() {
        let source = "# 1 \"a.c\"\nint __cape_d = 1; char *s = \"__cape_d\"; int __CAPE_X, CAPE_SCHED_Y, __capex;\n";
        let lines = LineMap::new(source);
        let (out, renaming) = rename_user_identifiers(source, &lines);
        assert_eq!(out.len(), source.len());
        assert!(out.contains("int __cap0_d = 1;"));
        assert!(out.contains("\"__cape_d\""));
        assert!(out.contains("__CAP0_X, CAP0_SCHED_Y, __capex;"));
        let renaming = renaming.expect("renamed");
        assert_eq!(renaming.restore("`__cap0_d` is"), "`__cape_d` is");
    }

    #[test]
    fn picks_a_prefix_nobody_uses() {
        let source = "int __cape_d, __cap0_d, __CAP1_e;\n";
        let lines = LineMap::new(source);
        let (out, _) = rename_user_identifiers(source, &lines);
        assert_eq!(out, "int __cap2_d, __cap0_d, __CAP1_e;\n");
    }
}
