//! `single` (with `copyprivate`) and `master`/`masked`.

use super::barrier::__cape_barrier;
use super::guard;
use crate::region::{self, with_state};
use crate::runtime;
use std::ffi::{c_int, c_void};

/// `single`: 1 on the thread that runs the block (thread 0 of the team), 0 on the others.
#[no_mangle]
pub extern "C" fn __cape_single_begin() -> c_int {
    guard(|| {
        with_state(|s| {
            if let Err(e) = s.team.worksharing_begin("a `single` construct") {
                runtime::fatal(&e);
            }
            region::constructs::single_begin(s) as c_int
        })
    })
}

/// End of a `single` block: a barrier unless `nowait`.
#[no_mangle]
pub extern "C" fn __cape_single_end(nowait: c_int) {
    guard(|| with_state(region::constructs::single_end));
    if nowait == 0 {
        __cape_barrier();
    }
}

/// `master` / `masked filter(filter)`: 1 on the thread whose number is `filter` (the
/// thread runs the block, then calls `__cape_master_end`), 0 on the others. No barrier.
#[no_mangle]
pub extern "C" fn __cape_master_begin(filter: c_int) -> c_int {
    guard(|| {
        let runs = with_state(|s| region::constructs::master_begin(s, filter));
        if runs {
            region::threads::set_in_block(true);
        }
        runs as c_int
    })
}

/// End of a `master`/`masked` block, on the thread that ran it.
#[no_mangle]
pub extern "C" fn __cape_master_end() {
    guard(|| {
        region::threads::set_in_block(false);
        with_state(|s| region::constructs::master_end(s))
    })
}

/// `copyprivate`: every thread of the team calls it after the single block for each listed
/// variable; the `size` bytes at `addr` of the thread that ran the block are copied into every
/// thread's variable (a broadcast; private memory, not part of the merge).
#[no_mangle]
pub extern "C" fn __cape_copyprivate(addr: *mut c_void, size: usize) {
    guard(|| {
        if addr.is_null() {
            return;
        }
        // SAFETY: by the ABI contract `addr` is a live variable of `size` bytes.
        let var = unsafe { crate::sys::raw::ProgramBytes::new(addr as usize, size) };
        with_state(region::cooperative::refuse_copyprivate).unwrap_or_else(|e| runtime::fatal(&e));
        let done = region::threads::copyprivate(var, |var| {
            with_state(|s| region::constructs::copyprivate(s, var))
        });
        if done.is_none() {
            with_state(|s| region::constructs::copyprivate(s, var))
        }
    })
}
