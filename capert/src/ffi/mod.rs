//! The C ABI of capert. Every exported function runs inside [`guard`]: no panic crosses
//! into C; an internal error prints one line and stops the job.

// These functions are called from C, where `unsafe fn` means nothing; their pointer
// contracts are documented in the header instead.
#![allow(clippy::not_unsafe_ptr_arg_deref)]

// One module per construct, like libgomp. Every `extern "C" fn` here has a body that is one
// `guard(...)`; tests/ffi_guard.rs checks it against the symbols libcapert.a exports.
pub mod atomic;
pub mod barrier;
pub mod check;
pub mod checkpoint;
pub mod files;
pub mod heap;
pub mod inputs;
pub mod io_buffers;
pub mod lock;
pub mod r#loop;
pub mod omp;
pub mod parallel;
pub mod reduction;
pub mod single;
pub mod start;
pub mod task;
pub mod threadprivate;
pub mod wait;

use std::panic::{catch_unwind, AssertUnwindSafe};

/// Runs `f`, turning a panic (already reported by the panic hook as
/// `capert: internal error: ...`) into the end of the job with status 70.
pub fn guard<R>(f: impl FnOnce() -> R) -> R {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(_) => crate::sys::mpi::abort_job(70),
    }
}
