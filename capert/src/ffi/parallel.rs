//! `__cape_parallel`: a parallel region.

use super::guard;
use super::inputs::__cape_stdin_sync;
use super::start::shut_down;
use crate::region::{self, RegionOutcome};
use crate::runtime;
use std::ffi::{c_int, c_void};

/// Runs a parallel region: every rank of the team calls `fn(data)`; at the end the writes
/// of all ranks to shared memory are merged so that every rank holds the result.
///
/// `num_threads`: the `num_threads` clause, 0 for the default (`omp_set_num_threads`,
/// `OMP_NUM_THREADS`, else all ranks). `if_clause`: 0 runs the region with a team of one.
/// `stack_pointer`: `__CAPE_STACK_POINTER()` in the caller; stack memory above it is shared.
#[no_mangle]
pub extern "C" fn __cape_parallel(
    func: Option<extern "C" fn(*mut c_void)>,
    data: *mut c_void,
    num_threads: c_int,
    if_clause: c_int,
    stack_pointer: *mut c_void,
) {
    guard(|| {
        let Some(func) = func else {
            runtime::fatal("`__cape_parallel` called without a function");
        };
        if crate::io::stdin_reader() && !crate::arena::in_active_region() {
            __cape_stdin_sync();
        }
        match region::parallel(
            || func(data),
            num_threads,
            if_clause != 0,
            stack_pointer as usize,
        ) {
            Ok(RegionOutcome::Done) => {}
            Ok(RegionOutcome::RacesFound) => {
                shut_down(1);
                std::process::exit(1);
            }
            Err(e) => runtime::fatal(&e),
        }
    })
}
