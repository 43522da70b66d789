//! `__cape_parallel`, `__cape_parallel_in_scope`: a parallel region.

use super::guard;
use super::inputs::__cape_stdin_sync;
use super::start::shut_down;
use crate::region::{self, Body, RegionOutcome, WriteSpan};
use crate::runtime;
use crate::sys::region_call::{self, RegionCall};
use std::ffi::{c_int, c_void};

/// Runs a parallel region: every rank of the team calls `fn(data)`; at the end the writes
/// of all ranks to shared memory are merged so that every rank holds the result.
///
/// `num_threads`: the `num_threads` clause, 0 for the default (`omp_set_num_threads`,
/// `OMP_NUM_THREADS`, else all ranks). `if_clause`: 0 runs the region with a team of one.
/// `stack_pointer`: `__CAPE_STACK_POINTER()` in the caller; stack memory above it is shared.
///
/// On x86-64 the C symbol is the trampoline of `sys/region_call.rs`, which calls
/// [`__cape_region_entry`]; this function is the same entry without the caller's registers (a
/// snapshot then cannot be taken: see `config.rs`).
#[cfg(not(target_arch = "x86_64"))]
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

/// The runtime side of `__cape_parallel` and `__cape_parallel_in_scope` (x86-64): `call` is the
/// trampoline's block with the arguments and the caller's registers.
#[cfg(target_arch = "x86_64")]
#[no_mangle]
pub extern "C" fn __cape_region_entry(call: *mut RegionCall) {
    guard(|| {
        let body = |c: &RegionCall| {
            // SAFETY: the generated code passes a function pointer or NULL (an `Option` of an
            // `extern "C" fn` has the pointer's representation).
            let func = unsafe {
                std::mem::transmute::<usize, Option<extern "C" fn(*mut c_void)>>(c.args[0])
            };
            let (data, stack_pointer) = (c.args[1] as *mut c_void, c.args[4] as *mut c_void);
            let (num_threads, if_clause) = (c.args[2] as c_int, c.args[3] as c_int);
            let spans =
                (c.scoped != 0).then(|| scope_spans(c.args[5] as *const __cape_span, c.args[6]));
            run(func, data, num_threads, if_clause, stack_pointer, spans)
        };
        // SAFETY: the trampoline passes its block, which lives until this function returns.
        unsafe { region_call::enter(call, body) }
    })
}

/// One entry of a region's write scope: `len > 0`: the bytes `[addr, addr + len)`;
/// `len == 0`: the heap block holding `addr` (all globals for an address in them, the whole
/// stack above the region's stack pointer for an address there; nothing for NULL or memory
/// the runtime does not track).
#[repr(C)]
#[allow(non_camel_case_types)]
pub struct __cape_span {
    pub addr: *const c_void,
    pub len: usize,
}

/// [`__cape_parallel`] for a region whose writes to shared memory the compiler proved to lie
/// inside the `count` spans of `scope` (together with everything the functions it calls
/// write; the shared locals it writes by name are spans too): the runtime then looks for
/// written pages there only. `scope` may be NULL when `count` is 0. (x86-64: the trampoline,
/// as above.)
#[cfg(not(target_arch = "x86_64"))]
#[no_mangle]
pub extern "C" fn __cape_parallel_in_scope(
    func: Option<extern "C" fn(*mut c_void)>,
    data: *mut c_void,
    num_threads: c_int,
    if_clause: c_int,
    stack_pointer: *mut c_void,
    scope: *const __cape_span,
    count: usize,
) {
    guard(|| {
        let spans = scope_spans(scope, count);
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
        if num_threads < 0 {
            region::refuse_negative_num_threads(num_threads);
        }
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

/// The write scope the compiler passed.
fn scope_spans<'a>(scope: *const __cape_span, count: usize) -> &'a [WriteSpan] {
    if count == 0 || scope.is_null() {
        return &[];
    }
    // SAFETY: the compiler passes an array of `count` spans that lives across the call;
    // `__cape_span` and `WriteSpan` are both #[repr(C)] pairs of pointer-sized fields (a
    // pointer and a usize have the same size and alignment), read only.
    unsafe { std::slice::from_raw_parts(scope.cast::<WriteSpan>(), count) }
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
    if num_threads < 0 {
        region::refuse_negative_num_threads(num_threads);
    }
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
