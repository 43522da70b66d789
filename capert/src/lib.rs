//! capert: the CAPE runtime. See ARCHITECTURE.md.

pub mod sys;
pub mod track;

pub mod allreduce;
pub mod diff;
pub mod merge;
pub mod schedule;
pub mod tickpt;
