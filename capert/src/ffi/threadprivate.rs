//! `threadprivate` variables and `copyin`.

use super::guard;
use crate::region::{self, with_state};
use crate::sys::raw::ProgramBytes;
use std::ffi::c_void;

/// Registers a threadprivate variable of `size` bytes at `addr` (once per variable, from a
/// constructor: may run before `__cape_start`). Never merged; sequential code sees thread 0's
/// copy; each thread gets its own copy back in the next region.
#[no_mangle]
pub extern "C" fn __cape_threadprivate(addr: *mut c_void, size: usize) {
    guard(|| {
        if addr.is_null() {
            return;
        }
        // SAFETY: by the ABI contract `addr` is a variable of `size` bytes with static
        // storage duration.
        let var = unsafe { ProgramBytes::new(addr as usize, size) };
        with_state(|s| s.threadprivates.register(var))
    })
}

/// `copyin`: inside a region, this thread's copy of the threadprivate variable at `addr`
/// becomes thread 0's value at the region's start.
#[no_mangle]
pub extern "C" fn __cape_copyin(addr: *mut c_void, size: usize) {
    guard(|| {
        if addr.is_null() {
            return;
        }
        // SAFETY: by the ABI contract `addr` is (part of) a threadprivate variable of at
        // least `size` bytes.
        let var = unsafe { ProgramBytes::new(addr as usize, size) };
        if region::threads::worker_copyin(var) {
            return;
        }
        with_state(|s| region::threadprivate::copyin(s, var))
    })
}
