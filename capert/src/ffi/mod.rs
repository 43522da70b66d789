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
