//! What the driver reads of ELF files (through the `object` crate): an object's section names
//! (to rename `.data*`/`.bss*`), a shared library's defined symbols, the file type, and the
//! shared-library functions whose address a program takes (for canonical PLT entries).
//! A malformed file is `None`, never a panic.

use object::elf::{
    R_X86_64_64, R_X86_64_GLOB_DAT, R_X86_64_GOT32, R_X86_64_GOT64, R_X86_64_GOTPCREL,
    R_X86_64_GOTPCREL64, R_X86_64_GOTPCRELX, R_X86_64_REX_GOTPCRELX,
};
use object::{
    Architecture, Object, ObjectSection, ObjectSymbol, ObjectSymbolTable, RelocationFlags,
    RelocationTarget, SymbolKind,
};

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

/// The first undefined symbol of libgomp's own ABI (`GOMP_parallel`, `GOMP_barrier`, ...) in
/// an ELF relocatable: the object was compiled with `gcc -fopenmp`. `None` otherwise.
pub fn libgomp_call(bytes: &[u8]) -> Option<String> {
    let file = object::File::parse(bytes).ok()?;
    file.symbols()
        .filter(|symbol| symbol.is_undefined())
        .filter_map(|symbol| symbol.name().ok())
        .find(|name| name.starts_with("GOMP_") || name.starts_with("GOACC_"))
        .map(str::to_string)
}

/// `objcopy` arguments that move every `.data*` section to `cape_data` and every `.bss*`
/// section to `cape_bss` (kept NOBITS), so that the runtime can find the user's globals
/// between `__start_cape_*` and `__stop_cape_*`. `.tdata`/`.tbss` (thread-local) and
/// `.rodata` stay where they are, and so does `.data.rel.ro*`: constants that hold addresses
/// (position-independent code puts them there), read-only once the program is loaded.
pub fn rename_arguments(section_names: &[String]) -> Vec<String> {
    let mut seen: Vec<&str> = Vec::new();
    let mut args = Vec::new();
    for name in section_names {
        if seen.contains(&name.as_str()) {
            continue;
        }
        seen.push(name);
        if name.starts_with(".data.rel.ro") {
            continue;
        }
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

/// Undefined symbols whose address an x86-64 relocatable object takes through the GOT or
/// stores in data (`R_X86_64_64`), not calls alone: what position-independent code does with
/// `&sin`. Includes variables and calls without the PLT (`-fno-plt`); the caller intersects
/// with what the link made of them. `None` if `bytes` is not an ELF relocatable object.
pub fn address_taken_undefined(bytes: &[u8]) -> Option<Vec<String>> {
    let file = object::File::parse(bytes).ok()?;
    if file.kind() != object::ObjectKind::Relocatable {
        return None;
    }
    if file.architecture() != Architecture::X86_64 {
        return Some(Vec::new());
    }
    let mut names: Vec<String> = Vec::new();
    for section in file.sections() {
        for (_, relocation) in section.relocations() {
            let RelocationFlags::Elf { r_type } = relocation.flags() else {
                continue;
            };
            let takes_address = matches!(
                r_type,
                R_X86_64_64
                    | R_X86_64_GOT32
                    | R_X86_64_GOTPCREL
                    | R_X86_64_GOT64
                    | R_X86_64_GOTPCREL64
                    | R_X86_64_GOTPCRELX
                    | R_X86_64_REX_GOTPCRELX
            );
            let RelocationTarget::Symbol(index) = relocation.target() else {
                continue;
            };
            if !takes_address {
                continue;
            }
            let Ok(symbol) = file.symbol_by_index(index) else {
                continue;
            };
            if !symbol.is_undefined() {
                continue;
            }
            let Ok(name) = symbol.name_bytes() else {
                continue;
            };
            let name = String::from_utf8_lossy(name).into_owned();
            if !name.is_empty() && !names.contains(&name) {
                names.push(name);
            }
        }
    }
    Some(names)
}

/// A function of a shared library that the executable refers to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportedFunction {
    pub name: String,
    pub weak: bool,
}

/// Functions of shared libraries whose address a non-PIE x86-64 executable loads from a
/// dynamic relocation (a GOT entry, `R_X86_64_GLOB_DAT`, or a pointer in data,
/// `R_X86_64_64`) while the executable gives them no canonical PLT entry (the dynamic
/// symbol's value is 0): the loader then writes the function's own address, which differs
/// between processes (ASLR), so a pointer one rank stores is garbage on another. Empty for
/// other executables; `None` if `bytes` is not ELF.
pub fn functions_without_fixed_address(bytes: &[u8]) -> Option<Vec<ImportedFunction>> {
    let file = object::File::parse(bytes).ok()?;
    if file.kind() != object::ObjectKind::Executable || file.architecture() != Architecture::X86_64
    {
        return Some(Vec::new());
    }
    let (Some(symbols), Some(relocations)) =
        (file.dynamic_symbol_table(), file.dynamic_relocations())
    else {
        return Some(Vec::new());
    };
    let mut found: Vec<ImportedFunction> = Vec::new();
    for (_, relocation) in relocations {
        let RelocationFlags::Elf { r_type } = relocation.flags() else {
            continue;
        };
        if r_type != R_X86_64_GLOB_DAT && r_type != R_X86_64_64 {
            continue;
        }
        let RelocationTarget::Symbol(index) = relocation.target() else {
            continue;
        };
        let Ok(symbol) = symbols.symbol_by_index(index) else {
            continue;
        };
        if !symbol.is_undefined() || symbol.kind() != SymbolKind::Text || symbol.address() != 0 {
            continue;
        }
        let Ok(name) = symbol.name_bytes() else {
            continue;
        };
        let name = String::from_utf8_lossy(name).into_owned();
        if !found.iter().any(|f| f.name == name) {
            found.push(ImportedFunction {
                name,
                weak: symbol.is_weak(),
            });
        }
    }
    Some(found)
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
