//! The OpenMP lock API (`omp_*_lock`, `omp_*_nest_lock`).

use super::guard;
use crate::region::with_state;
use std::ffi::c_int;

// Locks: word 0 holds the state, a flag (simple lock) or a count (nestable lock). Outside a
// parallel region that is all a lock needs. Inside one, the team's threads are processes whose
// writes are merged afterwards: a lock cannot make one thread see another's protected update,
// so setting one there is a clear error rather than a silent wrong result.

fn refuse_in_region(what: &str) {
    if with_state(|s| s.team.in_team_region()) {
        crate::runtime::fatal(&format!(
            "`{what}` inside a parallel region is not supported by CAPE (threads are processes whose writes merge at the region's end): use `#pragma omp atomic` or `#pragma omp critical` with an update statement"
        ));
    }
}

fn lock_word(lock: *mut u64) -> Option<&'static mut u64> {
    // SAFETY: the program passes a pointer to its omp_lock_t / omp_nest_lock_t, whose first
    // member is an unsigned long long.
    unsafe { lock.as_mut() }
}

#[no_mangle]
pub extern "C" fn omp_init_lock(lock: *mut u64) {
    guard(|| {
        if let Some(w) = lock_word(lock) {
            *w = 0;
        }
    })
}
#[no_mangle]
pub extern "C" fn omp_destroy_lock(lock: *mut u64) {
    guard(|| omp_init_lock(lock))
}
#[no_mangle]
pub extern "C" fn omp_set_lock(lock: *mut u64) {
    guard(|| {
        refuse_in_region("omp_set_lock");
        if let Some(w) = lock_word(lock) {
            *w = 1;
        }
    })
}
#[no_mangle]
pub extern "C" fn omp_unset_lock(lock: *mut u64) {
    guard(|| {
        if let Some(w) = lock_word(lock) {
            *w = 0;
        }
    })
}
#[no_mangle]
pub extern "C" fn omp_test_lock(lock: *mut u64) -> c_int {
    guard(|| {
        refuse_in_region("omp_test_lock");
        match lock_word(lock) {
            Some(w) if *w == 0 => {
                *w = 1;
                1
            }
            _ => 0,
        }
    })
}
#[no_mangle]
pub extern "C" fn omp_init_nest_lock(lock: *mut u64) {
    guard(|| omp_init_lock(lock))
}
#[no_mangle]
pub extern "C" fn omp_destroy_nest_lock(lock: *mut u64) {
    guard(|| omp_init_lock(lock))
}
#[no_mangle]
pub extern "C" fn omp_set_nest_lock(lock: *mut u64) {
    guard(|| {
        refuse_in_region("omp_set_nest_lock");
        if let Some(w) = lock_word(lock) {
            *w += 1;
        }
    })
}
#[no_mangle]
pub extern "C" fn omp_unset_nest_lock(lock: *mut u64) {
    guard(|| {
        if let Some(w) = lock_word(lock) {
            *w = w.saturating_sub(1);
        }
    })
}
#[no_mangle]
pub extern "C" fn omp_test_nest_lock(lock: *mut u64) -> c_int {
    guard(|| {
        refuse_in_region("omp_test_nest_lock");
        match lock_word(lock) {
            Some(w) => {
                *w += 1;
                *w as c_int
            }
            None => 0,
        }
    })
}
