//! Everything that talks to the kernel directly. All `unsafe` of capert outside `ffi/` lives here.

pub mod mprotect;
pub mod signals;
pub mod uffd;
