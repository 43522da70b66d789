//! capert: the CAPE runtime. See ARCHITECTURE.md.

// `unsafe` only in sys/ (the kernel, MPI, raw memory) and ffi/ (the C ABI).
#![deny(unsafe_code)]

pub mod access_check;
pub mod addr_hash;
pub mod arena;
pub mod config;
pub mod diag;
#[allow(unsafe_code)]
pub mod ffi;
pub mod io;
pub mod lazy;
pub mod objects;
pub mod omp_env;
pub mod pool;
pub mod region;
pub mod region_heap;
pub mod runs;
pub mod runtime;
pub mod settings;
pub mod symbols;
#[allow(unsafe_code)]
pub mod sys;
pub mod track;
pub mod wait_watch;

pub mod allreduce;
pub mod diff;
pub mod ft;
pub mod inject;
pub mod merge;
pub mod schedule;
pub mod stats;
pub use cape_format::tickpt;
pub mod worksharing;
