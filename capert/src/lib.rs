//! capert: the CAPE runtime. See ARCHITECTURE.md.

pub mod arena;
pub mod config;
pub mod diag;
pub mod ffi;
pub mod io;
pub mod region;
pub mod region_heap;
pub mod runtime;
pub mod symbols;
pub mod sys;
pub mod track;

pub mod allreduce;
pub mod diff;
pub mod ft;
pub mod merge;
pub mod schedule;
pub mod stats;
pub mod tickpt;
pub mod worksharing;
