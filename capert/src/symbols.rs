//! Names of global variables for race reports: a minimal reader of the executable's ELF
//! symbol table (`/proc/self/exe`). Best effort: any parse problem gives no name.

use std::sync::OnceLock;

/// (start, size, name) of every object symbol, sorted by start.
static OBJECTS: OnceLock<Vec<(u64, u64, String)>> = OnceLock::new();

/// The name of the global object containing `addr`, if the symbol table says so.
pub fn global_name(addr: usize) -> Option<String> {
    let objects = OBJECTS.get_or_init(|| {
        std::fs::read("/proc/self/exe")
            .ok()
            .and_then(|elf| object_symbols(&elf))
            .unwrap_or_default()
    });
    let addr = addr as u64;
    let i = objects.partition_point(|o| o.0 <= addr);
    let (start, size, name) = objects.get(i.checked_sub(1)?)?;
    (addr < start + (*size).max(1)).then(|| {
        if addr == *start {
            name.clone()
        } else {
            format!("{name}+{}", addr - start)
        }
    })
}

fn u16_at(b: &[u8], i: usize) -> Option<u16> {
    Some(u16::from_le_bytes(b.get(i..i + 2)?.try_into().ok()?))
}
fn u32_at(b: &[u8], i: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(i..i + 4)?.try_into().ok()?))
}
fn u64_at(b: &[u8], i: usize) -> Option<u64> {
    Some(u64::from_le_bytes(b.get(i..i + 8)?.try_into().ok()?))
}

/// STT_OBJECT symbols of a little-endian ELF64 file.
pub fn object_symbols(elf: &[u8]) -> Option<Vec<(u64, u64, String)>> {
    if elf.get(..4)? != b"\x7fELF" || *elf.get(4)? != 2 || *elf.get(5)? != 1 {
        return None;
    }
    let shoff = u64_at(elf, 0x28)? as usize;
    let shentsize = u16_at(elf, 0x3a)? as usize;
    let shnum = u16_at(elf, 0x3c)? as usize;
    let section = |i: usize| -> Option<(u32, usize, usize, u32, usize)> {
        let h = shoff + i * shentsize;
        Some((
            u32_at(elf, h + 4)?,             // sh_type
            u64_at(elf, h + 0x18)? as usize, // sh_offset
            u64_at(elf, h + 0x20)? as usize, // sh_size
            u32_at(elf, h + 0x28)?,          // sh_link
            u64_at(elf, h + 0x38)? as usize, // sh_entsize
        ))
    };
    let mut out = Vec::new();
    for i in 0..shnum {
        let (ty, off, size, link, entsize) = section(i)?;
        if ty != 2 || entsize < 24 {
            continue; // not SHT_SYMTAB
        }
        let (_, str_off, str_size, _, _) = section(link as usize)?;
        let strtab = elf.get(str_off..str_off + str_size)?;
        for s in (off..off + size).step_by(entsize) {
            let info = *elf.get(s + 4)?;
            if info & 0xf != 1 {
                continue; // not STT_OBJECT
            }
            let name_off = u32_at(elf, s)? as usize;
            let value = u64_at(elf, s + 8)?;
            let sym_size = u64_at(elf, s + 16)?;
            let name = strtab.get(name_off..)?;
            let end = name.iter().position(|&c| c == 0)?;
            out.push((
                value,
                sym_size,
                String::from_utf8_lossy(&name[..end]).into_owned(),
            ));
        }
    }
    out.sort_unstable();
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    static SOME_GLOBAL: [u8; 64] = [1; 64];

    #[test]
    fn finds_own_statics_or_nothing() {
        let addr = std::hint::black_box(&SOME_GLOBAL) as *const _ as usize;
        if let Some(name) = global_name(addr + 3) {
            assert!(name.contains("SOME_GLOBAL"), "{name}");
            assert!(name.ends_with("+3"), "{name}");
        }
        assert!(object_symbols(b"not an elf").is_none());
    }
}
