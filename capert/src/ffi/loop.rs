//! Worksharing loops (`for`, `sections`) and the `ordered` construct.

use super::barrier::__cape_barrier;
use super::guard;
use crate::region::with_state;
use crate::runtime;
use crate::worksharing::__cape_loop;
use std::ffi::{c_int, c_longlong, c_ulonglong};

/// Starts a worksharing loop over `[0, n)` with a `CAPE_SCHED_*` schedule; `chunk` 0 means
/// no chunk size was given. `l` lives in the outlined function's frame.
#[no_mangle]
pub extern "C" fn __cape_loop_init(
    l: *mut __cape_loop,
    n: c_ulonglong,
    schedule: c_int,
    chunk: c_longlong,
) {
    guard(|| {
        // SAFETY: the generated code passes the address of its own loop object.
        if let Some(l) = unsafe { l.as_mut() } {
            with_state(|s| l.init(s, n, schedule, chunk));
        }
    })
}

/// Starts a worksharing loop with the `ordered` clause (arguments as `__cape_loop_init`). In a
/// team of more than one, thread 0 runs every iteration in sequential order and the other
/// threads run none (their `__cape_loop_next` returns 0 at once); while thread 0 runs a
/// chunk, `omp_get_thread_num()` returns the thread the schedule gives that chunk.
#[no_mangle]
pub extern "C" fn __cape_loop_init_ordered(
    l: *mut __cape_loop,
    n: c_ulonglong,
    schedule: c_int,
    chunk: c_longlong,
) {
    guard(|| {
        // SAFETY: the generated code passes the address of its own loop object.
        if let Some(l) = unsafe { l.as_mut() } {
            with_state(|s| l.init_ordered(s, n, schedule, chunk));
        }
    })
}

/// `#pragma omp ordered` (the construct) starts: a runtime error when it runs in a team of
/// more than one outside a loop with the `ordered` clause (an orphaned construct reached
/// from the wrong place); otherwise nothing, the loop already runs in order.
#[no_mangle]
pub extern "C" fn __cape_ordered_begin() {
    guard(|| {
        if !with_state(|s| s.team.ordered_construct_allowed()) {
            runtime::fatal(
                "`#pragma omp ordered` ran inside a parallel region but not in a loop with the \
                 `ordered` clause; add `ordered` to the enclosing `for` directive",
            );
        }
    })
}

/// Next block `[*lo, *hi)` of this thread's iterations; returns 0 when there are no more.
#[no_mangle]
pub extern "C" fn __cape_loop_next(
    l: *mut __cape_loop,
    lo: *mut c_ulonglong,
    hi: *mut c_ulonglong,
) -> c_int {
    guard(|| {
        // SAFETY: pointers from the generated code to its loop object and two locals.
        unsafe {
            let Some(l) = l.as_mut() else { return 0 };
            match with_state(|s| l.next_block(s)) {
                Some((a, b)) if !lo.is_null() && !hi.is_null() => {
                    *lo = a;
                    *hi = b;
                    1
                }
                _ => 0,
            }
        }
    })
}

/// 1 if this thread ran the loop's last iteration (n-1), for `lastprivate`.
#[no_mangle]
pub extern "C" fn __cape_loop_is_last(l: *const __cape_loop) -> c_int {
    guard(|| {
        // SAFETY: pointer from the generated code to its loop object.
        unsafe { l.as_ref() }.is_some_and(|l| l.is_last()) as c_int
    })
}

/// Ends a worksharing loop. `nowait` 0: the loop's implicit barrier (a merge point);
/// otherwise no barrier. A loop that is the last statement of its region may pass 1: the
/// region's end is its barrier, and one merge instead of two is done.
#[no_mangle]
pub extern "C" fn __cape_loop_end(l: *mut __cape_loop, nowait: c_int) {
    guard(|| {
        // SAFETY: pointer from the generated code to its loop object.
        if let Some(l) = unsafe { l.as_mut() } {
            with_state(|s| l.finish(s));
        }
    });
    if nowait == 0 {
        __cape_barrier();
    }
}
