//! The C ABI of capert. Every exported function runs inside [`guard`]: no panic crosses
//! into C; an internal error prints one line and stops the job.

// These functions are called from C, where `unsafe fn` means nothing; their pointer
// contracts are documented in the header instead.
#![allow(clippy::not_unsafe_ptr_arg_deref)]

pub mod abi;
pub mod omp;

use std::panic::{catch_unwind, AssertUnwindSafe};

/// Runs `f`, turning a panic (already reported by the panic hook as
/// `capert: internal error: ...`) into the end of the job with status 70.
pub fn guard<R>(f: impl FnOnce() -> R) -> R {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(_) => crate::sys::mpi::abort_job(70),
    }
}

/// Combines a partial reduction value into the shared variable at `shared` with the combiner
/// at address `combine`. Both come from `__cape_reduce` calls of the compiled program (its
/// ABI contract: `shared` is a live object of `partial.len()` bytes, `combine` a
/// `void (*)(void *, const void *)` for that type).
pub fn combine(shared: usize, partial: &[u8], combine: usize) {
    if shared == 0 || combine == 0 {
        return;
    }
    // SAFETY: guaranteed by the `__cape_reduce` contract described above; the function
    // address is the same on every rank because programs are linked without PIE.
    unsafe { crate::sys::raw::combine_into(shared, partial, combine) }
}

/// Copies `len` bytes of program memory at `addr`. Only used on addresses the compiled program
/// handed to the ABI (reduction/atomic targets, threadprivate and copyprivate variables),
/// which its contract makes live objects of at least that size.
pub fn read_memory(addr: usize, len: usize) -> Vec<u8> {
    if addr == 0 || len == 0 {
        return Vec::new();
    }
    // SAFETY: guaranteed by the ABI contract described above.
    unsafe { crate::sys::raw::read_bytes(addr, len) }
}

/// Writes `bytes` to program memory at `addr` (same contract as [`read_memory`]).
pub fn write_memory(addr: usize, bytes: &[u8]) {
    if addr == 0 || bytes.is_empty() {
        return;
    }
    // SAFETY: guaranteed by the ABI contract; `bytes` is runtime memory, never the target.
    unsafe { crate::sys::raw::write_bytes(addr, bytes) }
}
