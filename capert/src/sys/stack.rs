//! Running a function on another stack (the fixed-address user stack).

use std::ffi::c_void;

/// Calls `f(arg)` with the stack pointer set to `top` and returns when `f` returns.
///
/// # Safety
/// `top` must be the 16-byte aligned upper end of a mapped, writable region large enough for
/// everything `f` does; `f` must not unwind (it is `extern "C"`; capert's callees catch panics).
pub unsafe fn call_on_stack(top: usize, f: extern "C" fn(*mut c_void), arg: *mut c_void) {
    debug_assert_eq!(top % 16, 0);
    #[cfg(target_arch = "x86_64")]
    // SAFETY: the old stack pointer is kept in callee-saved r12, which `f` preserves; the new
    // stack is 16-byte aligned before `call` as the SysV ABI requires; all caller-saved
    // registers are declared clobbered.
    unsafe {
        std::arch::asm!(
            "mov r12, rsp",
            "mov rsp, {top}",
            // The unwinder must stop at `f`'s caller: this function's CFI describes its frame
            // relative to the old stack pointer, and read above `top` it faults (a backtrace
            // taken by a signal handler, e.g. Open MPI's on SIGABRT, turned abort() into a
            // segmentation fault). An undefined return address ends the walk, as at `_start`.
            ".cfi_undefined rip",
            "call {f}",
            "mov rsp, r12",
            ".cfi_restore rip",
            top = in(reg) top,
            f = in(reg) f,
            in("rdi") arg,
            out("r12") _,
            clobber_abi("C"),
        );
    }
    #[cfg(target_arch = "aarch64")]
    // SAFETY: as above with callee-saved x19 holding the old sp; sp is 16-byte aligned.
    unsafe {
        std::arch::asm!(
            "mov x19, sp",
            "mov sp, {top}",
            ".cfi_undefined x30",
            "blr {f}",
            "mov sp, x19",
            ".cfi_restore x30",
            top = in(reg) top,
            f = in(reg) f,
            in("x0") arg,
            out("x19") _,
            clobber_abi("C"),
        );
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    compile_error!("capert supports x86_64 and aarch64 only");
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

    extern "C" fn probe(arg: *mut c_void) {
        // SAFETY: the test passes a pointer to a live usize.
        let out = unsafe { &mut *(arg as *mut usize) };
        *out = current_sp();
    }

    #[test]
    fn runs_on_the_given_stack() {
        let base = 0x3b00_0000_0000usize;
        let len = 1 << 20;
        crate::sys::mem::map_fixed(base, len, "stack", "CAPE_STACK_BASE").unwrap();
        let mut seen = 0usize;
        // SAFETY: fresh 1 MiB mapping, aligned top; probe does not unwind.
        unsafe { call_on_stack(base + len, probe, &mut seen as *mut usize as *mut c_void) };
        assert!(seen > base && seen < base + len, "{seen:#x}");
        crate::sys::mem::unmap(base, len);
    }
}
