//! What the driver reads of ELF files (through the `object` crate): an object's section names
//! (to rename `.data*`/`.bss*`), a shared library's defined symbols, the file type.
//! A malformed file is `None`, never a panic.

use object::{Object, ObjectSection, ObjectSymbol};

/// Section names of an ELF relocatable or executable, or `None` if `bytes` is not ELF.
pub fn section_names(bytes: &[u8]) -> Option<Vec<String>> {
    let file = object::File::parse(bytes).ok()?;
    file.sections()
        .map(|section| {
            let name = section.name_bytes().ok()?;
            Some(String::from_utf8_lossy(name).into_owned())
        })
        .collect()
}

/// Names of the symbols a shared library defines (its `.dynsym`), or `None` if it has none.
pub fn defined_dynamic_symbols(bytes: &[u8]) -> Option<Vec<String>> {
    let file = object::File::parse(bytes).ok()?;
    file.dynamic_symbol_table()?;
    file.dynamic_symbols()
        .filter(|symbol| !symbol.is_undefined())
        .map(|symbol| {
            let name = symbol.name_bytes().ok()?;
            Some(String::from_utf8_lossy(name).into_owned())
        })
        .collect()
}

/// `objcopy` arguments that move every `.data*` section to `cape_data` and every `.bss*`
/// section to `cape_bss` (kept NOBITS), so that the runtime can find the user's globals
/// between `__start_cape_*` and `__stop_cape_*`. `.tdata`/`.tbss` (thread-local) and
/// `.rodata` stay where they are.
pub fn rename_arguments(section_names: &[String]) -> Vec<String> {
    let mut seen: Vec<&str> = Vec::new();
    let mut args = Vec::new();
    for name in section_names {
        if seen.contains(&name.as_str()) {
            continue;
        }
        seen.push(name);
        if name == ".data" || name.starts_with(".data.") {
            args.push("--rename-section".to_string());
            args.push(format!("{name}=cape_data"));
        } else if name == ".bss" || name.starts_with(".bss.") {
            args.push("--rename-section".to_string());
            args.push(format!("{name}=cape_bss,alloc"));
        }
    }
    args
}

/// Whether `bytes` is an ELF relocatable object (`ET_REL`, what `cc -c` writes), as opposed to
/// an executable or a shared library, whose sections can no longer be renamed.
pub fn is_relocatable(bytes: &[u8]) -> bool {
    file_type(bytes) == Some(1)
}

/// Whether `bytes` (at least the first 18) start an ELF shared library (`ET_DYN`).
pub fn is_shared_library(bytes: &[u8]) -> bool {
    file_type(bytes) == Some(3)
}

/// `e_type` (1 relocatable, 2 executable, 3 shared object) from the first 18 bytes: the
/// callers may hold no more than that, too little for a full header parse.
fn file_type(bytes: &[u8]) -> Option<u16> {
    if bytes.get(0..4)? != b"\x7fELF" {
        return None;
    }
    let raw = [*bytes.get(16)?, *bytes.get(17)?];
    match bytes.get(5)? {
        1 => Some(u16::from_le_bytes(raw)),
        2 => Some(u16::from_be_bytes(raw)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_this_test_binary() {
        let bytes = std::fs::read(std::env::current_exe().unwrap()).unwrap();
        let names = section_names(&bytes).unwrap();
        assert!(names.iter().any(|n| n == ".text"), "{names:?}");
        assert_eq!(
            file_type(&bytes[..18]).map(|t| t == 2 || t == 3),
            Some(true)
        );
        assert!(!is_relocatable(&bytes));
    }

    #[test]
    fn not_elf_is_none() {
        assert_eq!(section_names(b"#!/bin/sh\n"), None);
        assert_eq!(defined_dynamic_symbols(b""), None);
        assert!(!is_shared_library(b"\x7fELF"));
    }
}
