//! Just enough ELF to list an object file's section names (to rename `.data*`/`.bss*`).
//! Bounds are checked everywhere: a malformed file is an error, never a panic.

/// Section names of an ELF relocatable or executable, or `None` if `bytes` is not ELF.
pub fn section_names(bytes: &[u8]) -> Option<Vec<String>> {
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
    let read = |offset: usize, size: usize| -> Option<u64> {
        let raw = bytes.get(offset..offset.checked_add(size)?)?;
        let mut value = 0u64;
        for i in 0..size {
            let byte = if little { raw[size - 1 - i] } else { raw[i] };
            value = (value << 8) | u64::from(byte);
        }
        Some(value)
    };
    let word = if is_64 { 8 } else { 4 };
    let (shoff, shentsize, shnum, shstrndx) = if is_64 {
        (
            read(0x28, word)?,
            read(0x3a, 2)?,
            read(0x3c, 2)?,
            read(0x3e, 2)?,
        )
    } else {
        (
            read(0x20, word)?,
            read(0x2e, 2)?,
            read(0x30, 2)?,
            read(0x32, 2)?,
        )
    };
    let shoff = usize::try_from(shoff).ok()?;
    let shentsize = usize::try_from(shentsize).ok()?;
    let header = |index: usize| shoff.checked_add(index.checked_mul(shentsize)?);
    let mut shnum = usize::try_from(shnum).ok()?;
    let mut shstrndx = usize::try_from(shstrndx).ok()?;
    // Extended numbering: the real counts live in section 0.
    let (size_field, link_field) = if is_64 { (0x20, 0x28) } else { (0x14, 0x18) };
    if shnum == 0 && shoff != 0 {
        shnum = usize::try_from(read(header(0)? + size_field, word)?).ok()?;
    }
    if shstrndx == 0xffff {
        shstrndx = usize::try_from(read(header(0)? + link_field, 4)?).ok()?;
    }
    let offset_field = if is_64 { 0x18 } else { 0x10 };
    let strtab_offset = usize::try_from(read(header(shstrndx)? + offset_field, word)?).ok()?;
    let strtab_size = usize::try_from(read(header(shstrndx)? + size_field, word)?).ok()?;
    let strtab = bytes.get(strtab_offset..strtab_offset.checked_add(strtab_size)?)?;

    let mut names = Vec::with_capacity(shnum);
    for index in 0..shnum {
        let name_offset = usize::try_from(read(header(index)?, 4)?).ok()?;
        let rest = strtab.get(name_offset..)?;
        let end = rest.iter().position(|&b| b == 0)?;
        names.push(String::from_utf8_lossy(&rest[..end]).into_owned());
    }
    Some(names)
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
