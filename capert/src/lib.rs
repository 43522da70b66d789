//! capert: the CAPE runtime. See ARCHITECTURE.md.

pub mod sys;
pub mod track;
