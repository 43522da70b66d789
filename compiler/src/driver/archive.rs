//! Just enough of the `ar` format to list the ELF objects of a static library (to find the
//! `.data*`/`.bss*` sections of libraries built without capecc). Bounds are checked: a
//! malformed archive gives `None`, never a panic.

const MAGIC: &[u8] = b"!<arch>\n";
const HEADER: usize = 60;

/// Whether `bytes` is a (regular, not thin) `ar` archive.
pub fn is_archive(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

/// The contents of the archive's members, without the symbol table and the long-name table.
pub fn members(bytes: &[u8]) -> Option<Vec<&[u8]>> {
    if !is_archive(bytes) {
        return None;
    }
    let mut members = Vec::new();
    let mut offset = MAGIC.len();
    while offset < bytes.len() {
        let header = bytes.get(offset..offset.checked_add(HEADER)?)?;
        if &header[58..60] != b"`\n" {
            return None;
        }
        let name = std::str::from_utf8(&header[..16]).ok()?.trim_end();
        let size: usize = std::str::from_utf8(&header[48..58])
            .ok()?
            .trim()
            .parse()
            .ok()?;
        let start = offset + HEADER;
        let data = bytes.get(start..start.checked_add(size)?)?;
        // `/`, `/SYM64/`: symbol tables; `//`: the GNU long-name table
        if !matches!(
            name,
            "/" | "/SYM64/" | "//" | "__.SYMDEF" | "__.SYMDEF SORTED"
        ) {
            members.push(data);
        }
        // members start at even offsets
        offset = start + size + size % 2;
    }
    Some(members)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn member(name: &str, data: &[u8]) -> Vec<u8> {
        let mut out = format!(
            "{name:<16}{:<12}{:<6}{:<6}{:<8}{:<10}`\n",
            0,
            0,
            0,
            644,
            data.len()
        )
        .into_bytes();
        out.extend_from_slice(data);
        if data.len() % 2 == 1 {
            out.push(b'\n');
        }
        out
    }

    #[test]
    fn lists_members_and_skips_tables() {
        let mut bytes = MAGIC.to_vec();
        bytes.extend(member("/", b"symtab"));
        bytes.extend(member("a.o/", b"abc"));
        bytes.extend(member("b.o/", b"defg"));
        assert_eq!(members(&bytes).unwrap(), [&b"abc"[..], &b"defg"[..]]);
        bytes.truncate(bytes.len() - 2);
        assert_eq!(members(&bytes), None);
        assert_eq!(members(b"\x7fELF"), None);
    }
}
