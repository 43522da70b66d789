//! Tasks: spread over the team by a `single` that only creates them, or run at once
//! (region/tasks.rs).

use super::guard;
use crate::region::{tasks, with_state};
use crate::runtime;
use std::ffi::c_int;

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
