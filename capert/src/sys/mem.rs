//! Fixed-address anonymous mappings (arena, user stack).

use std::io;

/// Maps `len` bytes of private anonymous read/write memory exactly at `base`, without
/// replacing anything already mapped there (`MAP_FIXED_NOREPLACE`) and without reserving swap
/// (`MAP_NORESERVE`): only pages that are touched cost memory. `what` names the mapping
/// and `var` the environment variable that moves it, for the error message.
pub fn map_fixed(base: usize, len: usize, what: &str, var: &str) -> Result<(), String> {
    let flags =
        libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE | libc::MAP_FIXED_NOREPLACE;
    // SAFETY: MAP_FIXED_NOREPLACE never replaces an existing mapping, so no memory that Rust
    // or C code references can be affected; the result is checked below.
    let got = unsafe {
        libc::mmap(
            base as *mut libc::c_void,
            len,
            libc::PROT_READ | libc::PROT_WRITE,
            flags,
            -1,
            0,
        )
    };
    if got == libc::MAP_FAILED {
        let err = io::Error::last_os_error();
        return Err(match err.raw_os_error() {
            Some(libc::EEXIST) => format!(
                "cannot map the {what} at {base:#x} ({len} bytes): something is already mapped there; set `{var}` to a free address"
            ),
            Some(libc::ENOMEM) => format!(
                "cannot map the {what} at {base:#x} ({len} bytes): out of address space or memory map limit; set a smaller size or another `{var}`"
            ),
            _ => format!("cannot map the {what} at {base:#x} ({len} bytes): {err}; set `{var}` to another address"),
        });
    }
    if got as usize != base {
        // A kernel older than 4.17 ignores MAP_FIXED_NOREPLACE and may place it elsewhere.
        // SAFETY: `got` is the mapping just created by us and nothing references it.
        unsafe { libc::munmap(got, len) };
        return Err(format!(
            "cannot map the {what} at {base:#x}: the kernel placed it elsewhere (address taken or kernel older than 4.17); set `{var}` to a free address"
        ));
    }
    // Transparent huge pages would make one write dirty 2 MiB; tracking works per 4 KiB page.
    // SAFETY: advice on our own fresh mapping; failure is harmless.
    unsafe { libc::madvise(got, len, libc::MADV_NOHUGEPAGE) };
    Ok(())
}

/// Transparent huge pages for a mapping made by [`map_fixed`] (whose default is none): with
/// the uffd tracker, memory filled before it is tracked then costs its scans one entry per
/// 2 MiB instead of 512 (docs/tracker.md).
pub fn allow_huge_pages(base: usize, len: usize) {
    // SAFETY: advice on a mapping of ours; it changes no content; failure is harmless.
    unsafe { libc::madvise(base as *mut libc::c_void, len, libc::MADV_HUGEPAGE) };
}

/// Makes `[base, base+len)` inaccessible (stack guard). `base` must be page aligned and ours.
pub fn protect_none(base: usize, len: usize) -> Result<(), String> {
    // SAFETY: the caller owns the mapping; nothing lives in the guard page.
    let rc = unsafe { libc::mprotect(base as *mut libc::c_void, len, libc::PROT_NONE) };
    if rc != 0 {
        return Err(format!(
            "cannot protect the stack guard page at {base:#x}: {}",
            io::Error::last_os_error()
        ));
    }
    Ok(())
}

/// Unmaps a mapping made by [`map_fixed`] (tests only need this).
pub fn unmap(base: usize, len: usize) {
    // SAFETY: the caller owns the mapping and no reference into it outlives this call.
    unsafe { libc::munmap(base as *mut libc::c_void, len) };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collision_is_a_clear_error() {
        let base = 0x3a00_0000_0000usize;
        let len = 1 << 20;
        map_fixed(base, len, "arena", "CAPE_ARENA_BASE").unwrap();
        let e = map_fixed(base + 4096, len, "arena", "CAPE_ARENA_BASE").unwrap_err();
        assert!(e.contains("already mapped"), "{e}");
        assert!(e.contains("`CAPE_ARENA_BASE`"), "{e}");
        unmap(base, len);
    }
}
