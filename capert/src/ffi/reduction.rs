//! Reductions: partial values recorded, combined at the merge point.

use super::guard;
use crate::region::{self, with_state};
use crate::sys::raw::{Combiner, ProgramBytes};
use std::ffi::c_void;

/// Records a reduction: `partial` (`size` bytes) is combined into `shared` with
/// `combine(inout, in)` after the region's merge, for all ranks in rank order.
#[no_mangle]
pub extern "C" fn __cape_reduce(
    shared: *mut c_void,
    partial: *const c_void,
    size: usize,
    combine: Option<extern "C" fn(*mut c_void, *const c_void)>,
) {
    guard(|| {
        let Some(combine) = combine else { return };
        if shared.is_null() || partial.is_null() {
            return;
        }
        // SAFETY: `partial` points to `size` readable bytes by the ABI contract.
        let bytes = unsafe { std::slice::from_raw_parts(partial.cast::<u8>(), size) }.to_vec();
        // SAFETY: by the ABI contract `shared` is a live variable of `size` bytes and
        // `combine` combines objects of that type.
        let (shared, combine) = unsafe {
            (
                ProgramBytes::new(shared as usize, size),
                Combiner::new(combine, size),
            )
        };
        // only the rank team's own reductions wait for its merge: a team of one nested in
        // it combines into its thread's variable now, like any team of one
        let rank_team_level = with_state(|s| s.team.innermost_hybrid());
        if rank_team_level && region::threads::in_rank_team() {
            // thread 0 of the rank takes it at the merge point
            region::threads::reduce(shared, combine, bytes);
            return;
        }
        let now = with_state(|s| region::constructs::reduce(s, shared, combine, bytes));
        if let Some(partial) = now {
            // a team of one: user code, run with the state released
            combine.apply(shared, &partial);
        }
    })
}
