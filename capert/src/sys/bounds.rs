//! Bounds of the user's global variables: the `cape_data` and `cape_bss` sections (the
//! driver renames the user objects' `.data`/`.bss`), found through the linker-provided
//! `__start_*`/`__stop_*` symbols. They are referenced weakly: a program without user
//! globals has no such sections and the symbols resolve to 0. The executable's code lies
//! between the linker's `__executable_start` and `etext` (also weak: 0 if a linker lacks them).

std::arch::global_asm!(
    ".weak __start_cape_data",
    ".weak __stop_cape_data",
    ".weak __start_cape_bss",
    ".weak __stop_cape_bss",
    ".weak __executable_start",
    ".weak etext",
    ".pushsection .data.capert_section_bounds,\"aw\"",
    ".balign 8",
    ".globl capert_section_bounds",
    ".hidden capert_section_bounds",
    "capert_section_bounds:",
    ".quad __start_cape_data",
    ".quad __stop_cape_data",
    ".quad __start_cape_bss",
    ".quad __stop_cape_bss",
    ".quad __executable_start",
    ".quad etext",
    ".popsection",
);

extern "C" {
    static capert_section_bounds: [usize; 6];
}

/// `[(start, end)]` of the non-empty user global sections, in address order.
pub fn user_global_sections() -> Vec<(usize, usize)> {
    // SAFETY: the symbol is defined by the global_asm! above as six 8-byte words that are
    // only written by the loader (relocations), never at run time.
    let b = unsafe { std::ptr::read_volatile(&raw const capert_section_bounds) };
    let mut out: Vec<(usize, usize)> = [(b[0], b[1]), (b[2], b[3])]
        .into_iter()
        .filter(|&(s, e)| s != 0 && e > s)
        .collect();
    out.sort_unstable();
    out
}

/// `(start, end)` of the executable's code (text), or `(0, 0)` when the linker did not say.
pub fn executable_code() -> (usize, usize) {
    // SAFETY: as in `user_global_sections`.
    let b = unsafe { std::ptr::read_volatile(&raw const capert_section_bounds) };
    (b[4], b[5])
}

#[cfg(test)]
mod tests {
    /// The linker names the code's bounds, and our own functions lie inside them (the check a
    /// record's combiner address must pass).
    #[test]
    fn executable_code_holds_our_functions() {
        let (start, end) = super::executable_code();
        let f = super::executable_code as fn() -> (usize, usize) as usize;
        assert!(
            start < end && (start..end).contains(&f),
            "{start:#x}..{end:#x} {f:#x}"
        );
    }
}
