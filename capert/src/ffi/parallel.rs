//! `__cape_parallel`, `__cape_parallel_scoped`: a parallel region.

use super::guard;
use super::inputs::__cape_stdin_sync;
use super::start::shut_down;
use crate::region::{self, Body, RegionOutcome, WriteSpan};
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
    guard(|| run(func, data, num_threads, if_clause, stack_pointer, None))
}

/// One entry of a region's write scope: `len > 0`: the bytes `[addr, addr + len)`;
/// `len == 0`: the heap block holding `addr` (all globals for an address in them; nothing
/// for NULL or memory the runtime does not track).
#[repr(C)]
#[allow(non_camel_case_types)]
pub struct __cape_span {
    pub addr: *const c_void,
    pub len: usize,
}

/// [`__cape_parallel`] for a region whose writes to shared memory the compiler proved to lie
/// inside the stack above `stack_pointer` and the `count` spans of `scope` (together with
/// everything the functions it calls write): the runtime then looks for written pages there
/// only. `scope` may be NULL when `count` is 0.
#[no_mangle]
pub extern "C" fn __cape_parallel_scoped(
    func: Option<extern "C" fn(*mut c_void)>,
    data: *mut c_void,
    num_threads: c_int,
    if_clause: c_int,
    stack_pointer: *mut c_void,
    scope: *const __cape_span,
    count: usize,
) {
    guard(|| {
        let spans: &[WriteSpan] = if count == 0 || scope.is_null() {
            &[]
        } else {
            // SAFETY: the compiler passes an array of `count` spans that lives across the call;
            // `__cape_span` and `WriteSpan` are both #[repr(C)] pairs of pointer-sized fields
            // (a pointer and a usize have the same size and alignment), read only.
            unsafe { std::slice::from_raw_parts(scope.cast::<WriteSpan>(), count) }
        };
        run(
            func,
            data,
            num_threads,
            if_clause,
            stack_pointer,
            Some(spans),
        )
    })
}

/// [`__cape_parallel`] for a region whose threads wait for each other through shared flags
/// (a flush or an atomic read in a loop, in the region or a function it calls): every rank
/// runs the whole team as user-level threads that take turns at each spin and barrier, so
/// nothing is merged (region/cooperative.rs).
#[no_mangle]
pub extern "C" fn __cape_parallel_cooperative(
    func: Option<extern "C" fn(*mut c_void)>,
    data: *mut c_void,
    num_threads: c_int,
    if_clause: c_int,
    stack_pointer: *mut c_void,
) {
    guard(|| {
        let Some(func) = func else {
            runtime::fatal("`__cape_parallel_cooperative` called without a function");
        };
        if crate::io::stdin_reader() && !crate::arena::in_active_region() {
            __cape_stdin_sync();
        }
        let outcome = region::cooperative::parallel(
            &|| func(data),
            func as usize,
            num_threads,
            if_clause != 0,
            stack_pointer as usize,
        );
        finish(outcome);
    })
}

fn run(
    func: Option<extern "C" fn(*mut c_void)>,
    data: *mut c_void,
    num_threads: c_int,
    if_clause: c_int,
    stack_pointer: *mut c_void,
    scope: Option<&[WriteSpan]>,
) {
    let Some(func) = func else {
        runtime::fatal("`__cape_parallel` called without a function");
    };
    if crate::io::stdin_reader() && !crate::arena::in_active_region() {
        __cape_stdin_sync();
    }
    let body = Body {
        func,
        data: data as usize,
    };
    finish(region::parallel(
        body,
        num_threads,
        if_clause != 0,
        stack_pointer as usize,
        scope,
    ));
}

fn finish(outcome: Result<RegionOutcome, String>) {
    match outcome {
        Ok(RegionOutcome::Done) => {}
        Ok(RegionOutcome::RacesFound) => {
            shut_down(1);
            std::process::exit(1);
        }
        Err(e) => runtime::fatal(&e),
    }
}
