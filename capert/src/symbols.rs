//! Names of global variables for race reports: a minimal reader of the executable's ELF
//! symbol table (`/proc/self/exe`). Best effort: any parse problem gives no name.
//! Source lines of code addresses (check builds carry debug information) come from
//! `addr2line` (binutils, which capecc needs anyway), run once per report.

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

/// `file:line` of each code address (a return address: the call is just before it); missing
/// when addr2line is not there or does not know the address.
pub fn code_lines(pcs: &[usize]) -> std::collections::HashMap<usize, String> {
    let mut found = std::collections::HashMap::new();
    let wanted: Vec<usize> = pcs.iter().copied().filter(|&pc| pc > 0).collect();
    if wanted.is_empty() {
        return found;
    }
    // the path, not `/proc/self/exe`, which would be addr2line itself
    let Ok(exe) = std::fs::read_link("/proc/self/exe") else {
        return found;
    };
    let output = std::process::Command::new("addr2line")
        .arg("-e")
        .arg(exe)
        .args(wanted.iter().map(|pc| format!("{:#x}", pc - 1)))
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .output();
    let Ok(output) = output else { return found };
    let cwd = std::env::current_dir()
        .map(|d| format!("{}/", d.display()))
        .unwrap_or_default();
    for (pc, line) in wanted
        .iter()
        .zip(String::from_utf8_lossy(&output.stdout).lines())
    {
        let line = line.split(" (discriminator").next().unwrap_or(line).trim();
        if line.starts_with("??") || line.ends_with(":0") || line.ends_with(":?") {
            continue;
        }
        let line = line.strip_prefix(cwd.as_str()).unwrap_or(line);
        found.insert(*pc, line.to_string());
    }
    found
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
