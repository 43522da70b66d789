//! Futex wait and wake on a 32-bit word: the sleeping half of the mutex that translated code
//! takes itself for a `critical` section of a team its rank runs alone (`ffi/lock.rs`), and
//! the waits of the demand-driven merge's fault path (`invalid.rs`: plain system calls, so
//! async-signal-safe).

use std::sync::atomic::AtomicU32;

/// Sleeps while `word` holds `expected` (returns at once if it does not, or on a wake-up or a
/// signal: the caller checks the word again).
pub fn wait(word: &AtomicU32, expected: u32) {
    // SAFETY: FUTEX_WAIT on a live, aligned u32 of this process; no timeout.
    unsafe {
        libc::syscall(
            libc::SYS_futex,
            word.as_ptr(),
            libc::FUTEX_WAIT | libc::FUTEX_PRIVATE_FLAG,
            expected,
            std::ptr::null::<libc::timespec>(),
        )
    };
}

/// Wakes one thread sleeping on `word`.
pub fn wake_one(word: &AtomicU32) {
    // SAFETY: FUTEX_WAKE on a live, aligned u32 of this process.
    unsafe {
        libc::syscall(
            libc::SYS_futex,
            word.as_ptr(),
            libc::FUTEX_WAKE | libc::FUTEX_PRIVATE_FLAG,
            1,
        )
    };
}

/// Wakes every thread sleeping on `word`.
pub fn wake_all(word: &AtomicU32) {
    // SAFETY: FUTEX_WAKE on a live, aligned u32 of this process.
    unsafe {
        libc::syscall(
            libc::SYS_futex,
            word.as_ptr(),
            libc::FUTEX_WAKE | libc::FUTEX_PRIVATE_FLAG,
            i32::MAX,
        )
    };
}
