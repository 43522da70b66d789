//! capecc: OpenMP C in, C calling the capert runtime out. See ARCHITECTURE.md.

pub mod diag;
pub mod directive;
pub mod driver;
