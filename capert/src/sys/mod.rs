//! Everything that talks to the kernel directly. All `unsafe` of capert outside `ffi/` lives here.

pub mod borrowed_job;
pub mod bounds;
pub mod check_flag;
pub mod checkpoint_dir;
pub mod coroutine;
pub mod direct;
pub mod fd;
pub mod ft;
pub mod futex;
pub mod heap;
pub mod invalid;
pub mod mem;
pub mod missing;
pub mod mpi;
pub mod mpi_lock;
pub mod mpi_pages;
pub mod mpi_stream;
pub mod mprotect;
pub mod raw;
pub mod region_call;
pub mod signals;
pub mod simd;
pub mod stack;
pub mod streams;
pub mod uffd;
