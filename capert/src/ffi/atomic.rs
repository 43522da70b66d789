//! `atomic` updates and `atomic capture`: applied now, merged at the next merge point.

use super::guard;
use crate::region::{self, with_state};
use crate::runtime;
use crate::sys::raw::{Combiner, ProgramBytes};
use std::ffi::{c_int, c_longlong, c_void};

/// `#pragma omp atomic capture` of an integer `x += delta` (also `x++`, `x -= e`, …), called
/// before the update itself: writes to `x0` (`size` bytes) the value `x` had when the epoch
/// started and returns the sum of the deltas that all earlier updates of `x` added, on any
/// rank (a one-sided fetch-and-add), so `x0 + result` is the captured old value. The update is
/// then made with `__cape_atomic_update` as usual; the merge gives the same final value.
#[no_mangle]
pub extern "C" fn __cape_atomic_fetch_add(
    x: *mut c_void,
    size: usize,
    x0: *mut c_void,
    delta: c_longlong,
) -> c_longlong {
    guard(|| {
        if x.is_null() || x0.is_null() || size == 0 || size > 16 {
            return 0;
        }
        // SAFETY: by the ABI contract `x` and `x0` are live integers of `size` bytes.
        let (x, x0) = unsafe {
            (
                ProgramBytes::new(x as usize, size),
                ProgramBytes::new(x0 as usize, size),
            )
        };
        if let Some((before, earlier)) = region::threads::capture_fetch_add(x, delta) {
            x0.write(&before);
            return earlier;
        }
        match with_state(|s| region::constructs::capture_fetch_add(s, x, delta)) {
            Ok((before, earlier)) => {
                x0.write(&before);
                earlier
            }
            Err(e) => runtime::fatal(&e),
        }
    })
}

/// `atomic capture` at `at` (`file:line`) of a 128-bit variable met an operand outside the
/// range of `long long`, the width of the shared counter `__cape_atomic_fetch_add` adds
/// deltas in: the captured value would be wrong, so the job stops (one line, from rank 0
/// when it meets it too).
#[no_mangle]
pub extern "C" fn __cape_atomic_capture_range(at: *const std::ffi::c_char) {
    guard(|| {
        let at = if at.is_null() {
            "?".into()
        } else {
            // SAFETY: by the ABI contract `at` is a NUL-terminated string literal.
            unsafe { std::ffi::CStr::from_ptr(at) }.to_string_lossy()
        };
        // every rank that meets it stops; rank 0 says it once
        let rank = region::try_with_state(|s| s.rt.as_ref().map(|rt| rt.rank))
            .flatten()
            .unwrap_or(0);
        runtime::fatal_at_merge(
            rank,
            &format!(
                "`atomic capture` at {at}: an operand of a 128-bit variable outside the range of \
             `long long`; CAPE takes captured values from a 64-bit counter shared by the ranks. \
             Keep such operands within `long long`"
            ),
        )
    })
}

/// Whether a mergeable update may be made as one atomic instruction by the caller, with no
/// call of `__cape_atomic_update`: 1 while the calling thread runs in a team of several
/// threads that this rank runs alone (the world is one rank: nothing is merged, the update is
/// all there is, as with libgomp); 0 elsewhere, where the update must be logged for the merge
/// between ranks or is made under the runtime's locks.
#[no_mangle]
pub extern "C" fn __cape_atomic_direct() -> c_int {
    guard(|| c_int::from(region::threads::atomic_direct()))
}

/// Called by an update's combiner (templates/constructs.c) before an operation that would
/// trap: an integer division by zero, or of its type's minimum by -1. 1 while the runtime
/// replays the rank's updates to tell its plain stores (`region/plain_writes.rs`) from values
/// the program may never have had: the combiner then leaves the variable, which merges as the
/// rank's store. 0 elsewhere: the combiner makes the operation, as the program would.
#[no_mangle]
pub extern "C" fn __cape_combine_undefined() -> c_int {
    guard(|| c_int::from(region::plain_writes::undefined_in_replay()))
}

/// A mergeable update (`#pragma omp atomic`, the update forms inside `critical`):
/// `combine(addr, operand)` is applied now; inside a parallel region, at the next merge point
/// the updated bytes are excluded from the diff and every rank applies every rank's logged
/// operands, in rank order, to the value before the epoch (deterministic). The updates of a
/// variable the rank also stored to plainly in the epoch merge as one store of its final
/// value on the rank instead (`region/plain_writes.rs`).
#[no_mangle]
pub extern "C" fn __cape_atomic_update(
    addr: *mut c_void,
    operand: *const c_void,
    size: usize,
    combine: Option<extern "C" fn(*mut c_void, *const c_void)>,
) {
    guard(|| atomic_update(addr, operand, size, combine, false))
}

/// `__cape_atomic_update` of an associative and commutative update whose operand has the
/// type of `addr` (an integer `+`, `*`, `&`, `|`, `^`, max or min; the translated code
/// decides): consecutive updates of one variable by a thread are logged as one, their
/// operands combined (`x + a + b` as `x + (a + b)`), so the merge carries one record per
/// variable and thread instead of one per update.
#[no_mangle]
pub extern "C" fn __cape_atomic_update_folding(
    addr: *mut c_void,
    operand: *const c_void,
    size: usize,
    combine: Option<extern "C" fn(*mut c_void, *const c_void)>,
) {
    guard(|| atomic_update(addr, operand, size, combine, true))
}

fn atomic_update(
    addr: *mut c_void,
    operand: *const c_void,
    size: usize,
    combine: Option<extern "C" fn(*mut c_void, *const c_void)>,
    folds: bool,
) {
    let Some(combine) = combine else { return };
    if addr.is_null() || operand.is_null() {
        return;
    }
    // SAFETY: `operand` points to `size` readable bytes by the ABI contract, the caller's
    // copy of the operand, which nothing writes during the call (the combiner writes
    // `addr` only).
    let bytes = unsafe { std::slice::from_raw_parts(operand.cast::<u8>(), size) };
    // SAFETY: by the ABI contract `addr` is a live variable of `size` bytes and
    // `combine` combines objects of that type.
    let (target, combine) = unsafe {
        (
            ProgramBytes::new(addr as usize, size),
            Combiner::new(combine, size),
        )
    };
    if region::threads::atomic_update(target, combine, bytes, folds) {
        // several threads in this rank: applied (a compare-and-swap loop or under the
        // rank's lock) and logged for the merge
        return;
    }
    with_state(|s| region::constructs::atomic_update(s, target, combine, bytes, folds));
    // user code: run with the state released; not a racy access in check builds
    crate::access_check::paused(|| combine.apply(target, bytes));
}
