//! caperun: runs a program built with capecc under mpirun with a durable checkpoint log
//! (`CAPE_CHECKPOINT`), and when a rank dies relaunches it from the log (`CAPE_RESTART`)
//! until it completes or the retries run out. See docs/fault-tolerance.md.

pub mod args;
pub mod procs;
pub mod run;
pub mod state;
#[allow(unsafe_code)] // system calls; every block carries a `// SAFETY:` comment
mod sys;
pub mod watch;
