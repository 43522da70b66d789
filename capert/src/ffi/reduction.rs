//! Reductions: partial values recorded, combined at the merge point.

use super::guard;
use crate::region::{self, with_state};
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
        let bytes = unsafe { crate::sys::raw::read_bytes(partial as usize, size) };
        let now =
            with_state(|s| region::constructs::reduce(s, shared as usize, combine as usize, bytes));
        if let Some(partial) = now {
            // a team of one: user code, run with the state released
            crate::sys::raw::combine(shared as usize, &partial, combine as usize);
        }
    })
}
