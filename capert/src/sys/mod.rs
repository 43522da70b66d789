//! Everything that talks to the kernel directly. All `unsafe` of capert outside `ffi/` lives here.

pub mod mprotect;
pub mod signals;
pub mod uffd;
pub mod bounds;
pub mod fd;
pub mod heap;
pub mod mem;
pub mod stack;
pub mod global;
pub mod mpi;
pub mod raw;
