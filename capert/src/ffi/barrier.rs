//! `__cape_barrier`: a merge point of the innermost active region.

use super::guard;
use crate::region::{self, with_state};
use crate::runtime;

/// A barrier: every thread of the team calls it; the writes of all threads before it are
/// merged, so every thread sees them after it. A no-op in a team of one.
#[no_mangle]
pub extern "C" fn __cape_barrier() {
    guard(|| {
        // the merge's own calls leave the program's `errno` as it was
        let errno = crate::sys::signals::errno();
        // several threads in this rank: they meet first, thread 0 merges with the other ranks
        let result = region::threads::barrier(|| {
            let merged = with_state(region::constructs::barrier);
            region::threads::sections_merged();
            merged
        })
        .unwrap_or_else(|| with_state(region::constructs::barrier));
        if let Err(e) = result {
            runtime::fatal(&e);
        }
        region::cooperative::barrier();
        crate::sys::signals::set_errno(errno);
    })
}

/// A barrier among the threads of this rank only, without a merge (a variable both
/// firstprivate and lastprivate: every thread's copy-in before any copy-out). A no-op with
/// one thread per rank.
#[no_mangle]
pub extern "C" fn __cape_rank_barrier() {
    guard(|| {
        region::threads::barrier(|| Ok(()));
    })
}
