//! capert's own diagnostic lines (`capert: error: ...`, stats), written to the real stderr
//! whatever fd 2 points to at the moment (io.rs redirects it on ranks other than 0).

use crate::sys::fd;
use std::sync::atomic::{AtomicI32, Ordering};

/// The real stderr (a duplicate of the original fd 2), for capert's own diagnostics on every rank.
static REAL_STDERR: AtomicI32 = AtomicI32::new(2);

/// Called once the original stderr has been duplicated to `real_err`.
pub fn set_real_stderr(real_err: i32) {
    REAL_STDERR.store(real_err, Ordering::Relaxed);
}

/// Writes one diagnostic line to the real stderr, whatever fd 2 currently points to.
pub fn eprint_line(line: &str) {
    let mut s = String::with_capacity(line.len() + 1);
    s.push_str(line);
    s.push('\n');
    fd::write_all(REAL_STDERR.load(Ordering::Relaxed), s.as_bytes());
}
