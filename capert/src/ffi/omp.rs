//! The OpenMP runtime API (`omp.h`).

use super::guard;
use crate::region::{team, with_state};
use std::ffi::c_int;
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::OnceLock;
use std::time::Instant;

#[no_mangle]
pub extern "C" fn omp_set_num_threads(n: c_int) {
    guard(|| with_state(|s| s.team.omp_set_num_threads(n)))
}
#[no_mangle]
pub extern "C" fn omp_get_num_threads() -> c_int {
    guard(|| with_state(|s| s.team.omp_num_threads()))
}
#[no_mangle]
pub extern "C" fn omp_get_max_threads() -> c_int {
    guard(|| with_state(|s| team::omp_max_threads(s)))
}
#[no_mangle]
pub extern "C" fn omp_get_thread_num() -> c_int {
    guard(|| with_state(|s| s.team.omp_thread_num()))
}
#[no_mangle]
pub extern "C" fn omp_get_num_procs() -> c_int {
    guard(|| with_state(|s| team::omp_num_procs(s)))
}
#[no_mangle]
pub extern "C" fn omp_in_parallel() -> c_int {
    guard(|| with_state(|s| s.team.omp_in_parallel() as c_int))
}
#[no_mangle]
pub extern "C" fn omp_set_dynamic(on: c_int) {
    guard(|| with_state(|s| s.team.omp_set_dynamic(on != 0)))
}
#[no_mangle]
pub extern "C" fn omp_get_dynamic() -> c_int {
    guard(|| with_state(|s| s.team.omp_dynamic() as c_int))
}
#[no_mangle]
pub extern "C" fn omp_set_nested(on: c_int) {
    guard(|| with_state(|s| s.team.omp_set_nested(on != 0)))
}
#[no_mangle]
pub extern "C" fn omp_get_nested() -> c_int {
    guard(|| with_state(|s| s.team.omp_nested() as c_int))
}
#[no_mangle]
pub extern "C" fn omp_set_max_active_levels(levels: c_int) {
    guard(|| with_state(|s| s.team.omp_set_max_active_levels(levels)))
}
#[no_mangle]
pub extern "C" fn omp_get_max_active_levels() -> c_int {
    guard(|| with_state(|s| s.team.omp_max_active_levels()))
}
#[no_mangle]
pub extern "C" fn omp_get_supported_active_levels() -> c_int {
    guard(|| team::SUPPORTED_ACTIVE_LEVELS)
}
/// No `cancel` construct is supported (capecc refuses it), so cancellation is off, as
/// without `OMP_CANCELLATION`.
#[no_mangle]
pub extern "C" fn omp_get_cancellation() -> c_int {
    guard(|| 0)
}
/// Threads are not bound to places (`omp_proc_bind_false`), and there are no places: as
/// libgomp without `OMP_PROC_BIND` and `OMP_PLACES`.
#[no_mangle]
pub extern "C" fn omp_get_proc_bind() -> c_int {
    guard(|| 0)
}
#[no_mangle]
pub extern "C" fn omp_get_num_places() -> c_int {
    guard(|| 0)
}
#[no_mangle]
pub extern "C" fn omp_get_place_num_procs(_place: c_int) -> c_int {
    guard(|| 0)
}
#[no_mangle]
pub extern "C" fn omp_get_place_proc_ids(_place: c_int, _ids: *mut c_int) {
    guard(|| {})
}
#[no_mangle]
pub extern "C" fn omp_get_place_num() -> c_int {
    guard(|| -1)
}
#[no_mangle]
pub extern "C" fn omp_get_partition_num_places() -> c_int {
    guard(|| 0)
}
#[no_mangle]
pub extern "C" fn omp_get_partition_place_nums(_place_nums: *mut c_int) {
    guard(|| {})
}
/// Task priorities are hints; tasks run when created (`OMP_MAX_TASK_PRIORITY` unset: 0).
#[no_mangle]
pub extern "C" fn omp_get_max_task_priority() -> c_int {
    guard(|| 0)
}
#[no_mangle]
pub extern "C" fn omp_set_schedule(kind: c_int, chunk: c_int) {
    guard(|| {
        with_state(|s| {
            let current = team::schedule_var(s);
            s.team.omp_set_schedule(kind, chunk, current);
        })
    })
}
#[no_mangle]
pub extern "C" fn omp_get_schedule(kind: *mut c_int, chunk: *mut c_int) {
    guard(|| {
        let (k, c) = with_state(|s| team::schedule_var(s));
        // SAFETY: out-pointers from the caller, checked for null.
        unsafe {
            if !kind.is_null() {
                *kind = k;
            }
            if !chunk.is_null() {
                *chunk = c;
            }
        }
    })
}
#[no_mangle]
pub extern "C" fn omp_get_thread_limit() -> c_int {
    guard(|| with_state(|s| team::omp_num_procs(s)))
}
#[no_mangle]
pub extern "C" fn omp_get_level() -> c_int {
    guard(|| with_state(|s| s.team.omp_level()))
}
#[no_mangle]
pub extern "C" fn omp_get_active_level() -> c_int {
    guard(|| with_state(|s| s.team.omp_active_level()))
}
#[no_mangle]
pub extern "C" fn omp_get_ancestor_thread_num(level: c_int) -> c_int {
    guard(|| with_state(|s| s.team.omp_ancestor_thread_num(level)))
}
#[no_mangle]
pub extern "C" fn omp_get_team_size(level: c_int) -> c_int {
    guard(|| with_state(|s| s.team.omp_team_size(level)))
}
#[no_mangle]
pub extern "C" fn omp_in_final() -> c_int {
    guard(|| 0)
}

// Devices: there are none but the host (a `target` region runs on the encountering thread,
// as gcc does without offloading), and a `teams` construct makes a league of one team.
static DEFAULT_DEVICE: AtomicI32 = AtomicI32::new(0);

#[no_mangle]
pub extern "C" fn omp_get_num_devices() -> c_int {
    guard(|| 0)
}
#[no_mangle]
pub extern "C" fn omp_get_default_device() -> c_int {
    guard(|| DEFAULT_DEVICE.load(Ordering::Relaxed))
}
#[no_mangle]
pub extern "C" fn omp_set_default_device(device: c_int) {
    guard(|| DEFAULT_DEVICE.store(device, Ordering::Relaxed))
}
/// The host's device number: `omp_get_num_devices()`, as in OpenMP 5.
#[no_mangle]
pub extern "C" fn omp_get_initial_device() -> c_int {
    guard(|| 0)
}
#[no_mangle]
pub extern "C" fn omp_get_device_num() -> c_int {
    guard(|| 0)
}
#[no_mangle]
pub extern "C" fn omp_is_initial_device() -> c_int {
    guard(|| 1)
}
#[no_mangle]
pub extern "C" fn omp_get_num_teams() -> c_int {
    guard(|| 1)
}
#[no_mangle]
pub extern "C" fn omp_get_team_num() -> c_int {
    guard(|| 0)
}

fn epoch() -> Instant {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

#[no_mangle]
pub extern "C" fn omp_get_wtime() -> f64 {
    guard(|| epoch().elapsed().as_secs_f64())
}
#[no_mangle]
pub extern "C" fn omp_get_wtick() -> f64 {
    guard(|| 1e-9)
}
