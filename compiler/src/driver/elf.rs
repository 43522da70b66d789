//! Just enough ELF to list an object file's section names (to rename `.data*`/`.bss*`).
//! Bounds are checked everywhere: a malformed file is an error, never a panic.

/// One section header: what the readers below need of it.
struct Section {
    name: usize,
    kind: u64,
    offset: usize,
    size: usize,
    link: usize,
}

/// An ELF file's bytes with its class and byte order.
struct Elf<'a> {
    bytes: &'a [u8],
    is_64: bool,
    little: bool,
}

impl<'a> Elf<'a> {
    fn new(bytes: &'a [u8]) -> Option<Elf<'a>> {
        if bytes.get(0..4)? != b"\x7fELF" {
            return None;
        }
        let is_64 = match bytes.get(4)? {
            1 => false,
            2 => true,
            _ => return None,
        };
        let little = match bytes.get(5)? {
            1 => true,
            2 => false,
            _ => return None,
        };
        Some(Elf {
            bytes,
            is_64,
            little,
        })
    }

    fn read(&self, offset: usize, size: usize) -> Option<u64> {
        let raw = self.bytes.get(offset..offset.checked_add(size)?)?;
        let mut value = 0u64;
        for i in 0..size {
            let byte = if self.little {
                raw[size - 1 - i]
            } else {
                raw[i]
            };
            value = (value << 8) | u64::from(byte);
        }
        Some(value)
    }

    fn read_usize(&self, offset: usize, size: usize) -> Option<usize> {
        usize::try_from(self.read(offset, size)?).ok()
    }

    fn word(&self) -> usize {
        if self.is_64 {
            8
        } else {
            4
        }
    }

    /// The section headers and the index of the section-name string table.
    fn sections(&self) -> Option<(Vec<Section>, usize)> {
        let word = self.word();
        let (shoff, shentsize, shnum, shstrndx) = if self.is_64 {
            (0x28, 0x3a, 0x3c, 0x3e)
        } else {
            (0x20, 0x2e, 0x30, 0x32)
        };
        let shoff = self.read_usize(shoff, word)?;
        let shentsize = self.read_usize(shentsize, 2)?;
        let header = |index: usize| shoff.checked_add(index.checked_mul(shentsize)?);
        let mut shnum = self.read_usize(shnum, 2)?;
        let mut shstrndx = self.read_usize(shstrndx, 2)?;
        let (kind_field, offset_field, size_field, link_field) = if self.is_64 {
            (0x04, 0x18, 0x20, 0x28)
        } else {
            (0x04, 0x10, 0x14, 0x18)
        };
        // Extended numbering: the real counts live in section 0.
        if shnum == 0 && shoff != 0 {
            shnum = self.read_usize(header(0)? + size_field, word)?;
        }
        if shstrndx == 0xffff {
            shstrndx = self.read_usize(header(0)? + link_field, 4)?;
        }
        let mut sections = Vec::with_capacity(shnum.min(1 << 16));
        for index in 0..shnum {
            let at = header(index)?;
            sections.push(Section {
                name: self.read_usize(at, 4)?,
                kind: self.read(at + kind_field, 4)?,
                offset: self.read_usize(at + offset_field, word)?,
                size: self.read_usize(at + size_field, word)?,
                link: self.read_usize(at + link_field, 4)?,
            });
        }
        Some((sections, shstrndx))
    }

    fn contents(&self, section: &Section) -> Option<&'a [u8]> {
        self.bytes
            .get(section.offset..section.offset.checked_add(section.size)?)
    }
}

/// The NUL-terminated string at `offset` of a string table.
fn string_at(table: &[u8], offset: usize) -> Option<String> {
    let rest = table.get(offset..)?;
    let end = rest.iter().position(|&b| b == 0)?;
    Some(String::from_utf8_lossy(&rest[..end]).into_owned())
}

/// Section names of an ELF relocatable or executable, or `None` if `bytes` is not ELF.
pub fn section_names(bytes: &[u8]) -> Option<Vec<String>> {
    let elf = Elf::new(bytes)?;
    let (sections, shstrndx) = elf.sections()?;
    let strtab = elf.contents(sections.get(shstrndx)?)?;
    sections
        .iter()
        .map(|section| string_at(strtab, section.name))
        .collect()
}

/// Names of the symbols a shared library defines (its `.dynsym`), or `None` if it has none.
pub fn defined_dynamic_symbols(bytes: &[u8]) -> Option<Vec<String>> {
    const SHT_DYNSYM: u64 = 11;
    let elf = Elf::new(bytes)?;
    let (sections, _) = elf.sections()?;
    let dynsym = sections.iter().find(|s| s.kind == SHT_DYNSYM)?;
    let symbols = elf.contents(dynsym)?;
    let names = elf.contents(sections.get(dynsym.link)?)?;
    // st_shndx: 0 is an undefined (imported) symbol
    let (entry_size, shndx_field) = if elf.is_64 { (24, 6) } else { (16, 14) };
    let base = dynsym.offset;
    let mut defined = Vec::new();
    for index in 0..symbols.len() / entry_size {
        let at = base + index * entry_size;
        if elf.read(at + shndx_field, 2)? != 0 {
            defined.push(string_at(names, elf.read_usize(at, 4)?)?);
        }
    }
    Some(defined)
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

/// `e_type`: 1 relocatable, 2 executable, 3 shared object.
fn file_type(bytes: &[u8]) -> Option<u64> {
    Elf::new(bytes)?.read(16, 2)
}
