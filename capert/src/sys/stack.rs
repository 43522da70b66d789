//! Running a function on another stack (the fixed-address user stack).

use std::ffi::{c_char, c_int};

/// The user's frames and the command line above them (`runtime::command_line`) lie below
/// `top - MAIN_TOP_GAP` (a snapshot keeps `[sp, top - MAIN_TOP_GAP)`).
pub const MAIN_TOP_GAP: usize = 64;

/// The user's `main` after renaming: `int __cape_user_main(int, char **, char **)`.
pub type UserMain = extern "C" fn(c_int, *mut *mut c_char, *mut *mut c_char) -> c_int;

/// Calls `main(argc, argv, envp)` with the stack pointer set to `top` and returns its status:
/// the user's frames are then the only ones on the user stack (none of the runtime's above
/// them), and the return address at `top - 8` is in this function (a fixed address).
///
/// # Safety
/// `top` must be the 16-byte aligned upper end of a mapped, writable region large enough for
/// everything `main` does; `main` must not unwind (C code).
pub unsafe fn call_main_on_stack(
    top: usize,
    main: UserMain,
    argc: c_int,
    argv: *mut *mut c_char,
    envp: *mut *mut c_char,
) -> c_int {
    debug_assert_eq!(top % 16, 0);
    // C requires `errno` to be 0 when `main` starts; MPI's start-up leaves it set
    // SAFETY: `__errno_location` returns this thread's `errno`, always valid to write.
    unsafe { *libc::__errno_location() = 0 };
    let status: c_int;
    #[cfg(target_arch = "x86_64")]
    // SAFETY: the old stack pointer is kept in callee-saved r12, which `main` preserves; the
    // new stack is 16-byte aligned before `call` as the SysV ABI requires; the arguments are in
    // rdi, rsi, rdx and the status in eax; all caller-saved registers are declared clobbered.
    unsafe {
        std::arch::asm!(
            "mov r12, rsp",
            "mov rsp, {top}",
            // The unwinder must stop at `main`'s caller: this function's CFI describes its
            // frame relative to the old stack pointer, and read above `top` it faults (a
            // backtrace taken by a signal handler, e.g. Open MPI's on SIGABRT, turned abort()
            // into a segmentation fault). An undefined return address ends the walk, as at
            // `_start`.
            ".cfi_undefined rip",
            "call {f}",
            "mov rsp, r12",
            ".cfi_restore rip",
            top = in(reg) top,
            f = in(reg) main,
            inout("rdi") argc as usize => _,
            in("rsi") argv,
            in("rdx") envp,
            lateout("eax") status,
            out("r12") _,
            clobber_abi("C"),
        );
    }
    #[cfg(target_arch = "aarch64")]
    // SAFETY: as above with callee-saved x19 holding the old sp, the arguments in x0-x2 and
    // the status in w0.
    unsafe {
        let status_word: usize;
        std::arch::asm!(
            "mov x19, sp",
            "mov sp, {top}",
            ".cfi_undefined x30",
            "blr {f}",
            "mov sp, x19",
            ".cfi_restore x30",
            top = in(reg) top,
            f = in(reg) main,
            inout("x0") argc as usize => status_word,
            in("x1") argv,
            in("x2") envp,
            out("x19") _,
            clobber_abi("C"),
        );
        status = status_word as c_int;
    }
    status
}

/// The current stack pointer (approximately: the address of a local).
pub fn current_sp() -> usize {
    let marker = 0u8;
    std::hint::black_box(&marker) as *const u8 as usize
}

/// Gives the calling thread an alternate signal stack, so that the tracker's SIGSEGV handler
/// (installed with `SA_ONSTACK`) never runs on a write-protected user stack page.
pub fn install_alt_stack() -> Result<(), String> {
    const SIZE: usize = 256 << 10;
    // SAFETY: a fresh private anonymous mapping owned by the process forever.
    let mem = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            SIZE,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    if mem == libc::MAP_FAILED {
        return Err(format!(
            "cannot map the signal stack: {}",
            std::io::Error::last_os_error()
        ));
    }
    let ss = libc::stack_t {
        ss_sp: mem,
        ss_flags: 0,
        ss_size: SIZE,
    };
    // SAFETY: `ss` describes the mapping above, which is never unmapped.
    if unsafe { libc::sigaltstack(&ss, std::ptr::null_mut()) } != 0 {
        return Err(format!(
            "cannot install the signal stack (`sigaltstack`): {}",
            std::io::Error::last_os_error()
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    static SEEN: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

    extern "C" fn probe(argc: c_int, _: *mut *mut c_char, _: *mut *mut c_char) -> c_int {
        SEEN.store(current_sp(), std::sync::atomic::Ordering::Relaxed);
        argc + 1
    }

    #[test]
    fn runs_on_the_given_stack() {
        let base = 0x3b00_0000_0000usize;
        let len = 1 << 20;
        crate::sys::mem::map_fixed(base, len, "stack", "CAPE_STACK_BASE").unwrap();
        let null = std::ptr::null_mut();
        // SAFETY: fresh 1 MiB mapping, aligned top; probe does not unwind.
        let status = unsafe { call_main_on_stack(base + len, probe, 6, null, null) };
        let seen = SEEN.load(std::sync::atomic::Ordering::Relaxed);
        assert_eq!(status, 7);
        assert!(seen > base && seen < base + len, "{seen:#x}");
        crate::sys::mem::unmap(base, len);
    }
}
