//! The recording switch of a check build (`capecc --check=races`): an `int` in the program's
//! access hooks that they test before calling the runtime, so that an access outside a region
//! costs one load. Not 0: the number of the recording period (epoch) in progress; the hooks
//! skip an access identical to one they passed on in the same period.

use std::ffi::c_int;
use std::sync::atomic::{AtomicPtr, Ordering};

static FLAG: AtomicPtr<c_int> = AtomicPtr::new(std::ptr::null_mut());

/// Remembers the hooks' switch.
///
/// # Safety
/// `flag` is NULL or points to an `int` that lives as long as the program (a global of the
/// hooks) and that nothing else writes.
pub unsafe fn register(flag: *mut c_int) {
    FLAG.store(flag, Ordering::Relaxed);
}

/// Whether the program was built with access hooks.
pub fn registered() -> bool {
    !FLAG.load(Ordering::Relaxed).is_null()
}

/// Sets the hooks' switch: 0 off, else the recording period (nothing without hooks).
pub fn set(period: c_int) {
    let flag = FLAG.load(Ordering::Relaxed);
    if !flag.is_null() {
        // SAFETY: `register`'s contract: a live `int` of the program; the program runs user
        // code and this runtime call on one thread.
        unsafe { flag.write_volatile(period) };
    }
}

/// The hooks' switch now (0 without hooks).
pub fn get() -> c_int {
    let flag = FLAG.load(Ordering::Relaxed);
    if flag.is_null() {
        return 0;
    }
    // SAFETY: as in `set`.
    unsafe { flag.read_volatile() }
}
