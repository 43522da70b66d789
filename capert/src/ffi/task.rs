//! Tasks: spread over the team by a `single` that only creates them, or run at once
//! (region/tasks.rs).

use super::guard;
use crate::region::{tasks, with_state};
use crate::runtime;
use crate::sys::raw::{Combiner, ProgramBytes};
use std::ffi::{c_int, c_void};

/// A `single` whose block only creates tasks: 1 on every thread of an active team (each runs
/// the tasks that fall to it), else as `__cape_single_begin`. Ends with `__cape_single_end`.
#[no_mangle]
pub extern "C" fn __cape_task_single_begin() -> c_int {
    guard(|| {
        with_state(|s| {
            if let Err(e) = s.team.worksharing_begin("a `single` construct") {
                runtime::fatal(&e);
            }
            tasks::single_begin(s) as c_int
        })
    })
}

/// A task is created: 1 if this thread runs it now (then `__cape_task_end` after it).
/// `has_depend`: the task has `depend` clauses.
#[no_mangle]
pub extern "C" fn __cape_task_begin(has_depend: c_int) -> c_int {
    guard(|| with_state(|s| tasks::task_begin(s, has_depend != 0)) as c_int)
}

/// The end of a task this thread ran.
#[no_mangle]
pub extern "C" fn __cape_task_end() {
    guard(|| with_state(tasks::task_end))
}

/// Before `__cape_task_end`: the task wrote `size` bytes at `addr`, a local of the function
/// that created it (stack memory that merges do not carry). When the task was spread, the
/// bytes reach every rank at the next merge point; otherwise nothing happens.
#[no_mangle]
pub extern "C" fn __cape_task_result(addr: *mut c_void, size: usize) {
    guard(|| {
        if addr.is_null() || size == 0 || !with_state(|s| tasks::spread_task_running(s)) {
            return;
        }
        // SAFETY: by the ABI contract `addr` is a live variable of `size` bytes.
        let bytes = unsafe { std::slice::from_raw_parts(addr.cast::<u8>(), size) }.to_vec();
        let mut pieces = Vec::new();
        let mut offset = 0;
        while offset < size {
            let (len, f): (usize, CombineFn) = if size - offset >= 8 {
                (8, assign_8)
            } else {
                (1, assign_1)
            };
            // SAFETY: `[addr + offset, + len)` lies inside the variable; `assign_<len>`
            // copies exactly `len` bytes from its operand to its target.
            pieces.push(unsafe {
                (
                    ProgramBytes::new(addr as usize + offset, len),
                    Combiner::new(f, len),
                    bytes[offset..offset + len].to_vec(),
                )
            });
            offset += len;
        }
        with_state(|s| tasks::task_result(s, pieces));
    })
}

/// At the start of a task: the task updates the `size` bytes at `addr`, a local of the
/// function that created it, with `atomic` or inside `critical` sections. When the task was
/// spread, those updates are merged with the other ranks' ones at the next merge point (as
/// updates of shared memory are); otherwise nothing happens.
#[no_mangle]
pub extern "C" fn __cape_task_updates(addr: *mut c_void, size: usize) {
    guard(|| {
        if !addr.is_null() {
            with_state(|s| tasks::task_updates(s, addr as usize, size));
        }
    })
}

type CombineFn = extern "C" fn(*mut c_void, *const c_void);

/// The combiner of a task result's 8-byte pieces: the operand replaces the target.
extern "C" fn assign_8(target: *mut c_void, operand: *const c_void) {
    guard(|| {
        // SAFETY: the runtime calls it on its own records: 8-byte target and operand.
        unsafe { std::ptr::copy_nonoverlapping(operand.cast::<u8>(), target.cast::<u8>(), 8) }
    })
}

/// The combiner of a task result's last bytes, one at a time.
extern "C" fn assign_1(target: *mut c_void, operand: *const c_void) {
    guard(|| {
        // SAFETY: the runtime calls it on its own records: 1-byte target and operand.
        unsafe { *target.cast::<u8>() = *operand.cast::<u8>() }
    })
}

/// `taskwait` (and the end of a `taskgroup`): the tasks created so far have finished, on
/// every thread; a merge point in the generating code of a spreading `single`.
#[no_mangle]
pub extern "C" fn __cape_taskwait() {
    guard(|| {
        if let Err(e) = with_state(tasks::taskwait) {
            runtime::fatal(&e);
        }
    })
}

/// Before a task construct of a function (not lexically in a `single`): when the generating
/// code of a spreading `single` reaches it, a merge point, so that what that code wrote before
/// the task (a sort's partition) is every rank's before the task refines it on one rank;
/// nothing otherwise.
#[no_mangle]
pub extern "C" fn __cape_task_spawn_point() {
    guard(|| {
        if let Err(e) = with_state(tasks::taskwait) {
            runtime::fatal(&e);
        }
    })
}

/// The number of tasks of a `taskloop` of `total` iterations (of its collapsed loops), as
/// libgomp makes them: `total / grainsize` (at least 1) with `grainsize` > 0, else
/// `num_tasks` if given (> 0), else the team size, never more than `total`. The translated
/// code gives the first `total % tasks` tasks one iteration more than the others.
#[no_mangle]
pub extern "C" fn __cape_taskloop_tasks(total: u64, grainsize: i64, num_tasks: i64) -> u64 {
    guard(|| {
        if total == 0 {
            return 0;
        }
        if grainsize > 0 {
            return (total / grainsize as u64).max(1);
        }
        let tasks = if num_tasks > 0 {
            num_tasks as u64
        } else {
            with_state(|s| s.team.omp_num_threads()).max(1) as u64
        };
        tasks.min(total)
    })
}

/// A `taskloop`'s iterations per task: `grainsize` if given (> 0), else `total` divided by
/// `num_tasks` if given, else by the team size.
#[no_mangle]
pub extern "C" fn __cape_taskloop_grain(total: u64, grainsize: i64, num_tasks: i64) -> u64 {
    guard(|| {
        if grainsize > 0 {
            return grainsize as u64;
        }
        let tasks = if num_tasks > 0 {
            num_tasks as u64
        } else {
            with_state(|s| s.team.omp_num_threads()).max(1) as u64
        };
        total.div_ceil(tasks).max(1)
    })
}
