//! `__cape_barrier`: a merge point of the innermost active region.

use super::guard;
use crate::region::{self, with_state};
use crate::runtime;

/// A barrier: every thread of the team calls it; the writes of all threads before it are
/// merged, so every thread sees them after it. A no-op in a team of one.
#[no_mangle]
pub extern "C" fn __cape_barrier() {
    guard(|| {
        if let Err(e) = with_state(region::constructs::barrier) {
            runtime::fatal(&e);
        }
        region::cooperative::barrier();
    })
}
