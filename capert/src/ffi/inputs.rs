//! The program's inputs: stdin made identical on every rank, environment reads recorded
//! for the checkpoint log.

use super::guard;
use crate::region::with_state;
use crate::runtime;
use std::ffi::c_char;

/// Makes stdin identical on every rank: at the first call rank 0 reads all of it and every
/// rank's fd 0 becomes a copy. Called by generated code before the first stdin use;
/// cheap after the first call.
#[no_mangle]
pub extern "C" fn __cape_stdin_sync() {
    guard(|| {
        let result = with_state(|s| {
            let rt = s.rt.as_mut()?;
            let comm = rt.comm.as_ref();
            Some(rt.io.stdin_sync(comm, rt.ft.is_some()))
        });
        if let Some(Err(e)) = result {
            runtime::fatal(&e);
        }
    })
}

/// `getenv` of the program: the C library's, and sequential code's reads are recorded so that
/// a restart from a checkpoint log with another environment is refused (`ft::inputs`).
#[no_mangle]
pub extern "C" fn __cape_getenv(name: *const c_char) -> *mut c_char {
    guard(|| {
        if name.is_null() {
            return std::ptr::null_mut();
        }
        // SAFETY: `name` is the program's NUL-terminated string (C's contract for getenv).
        let value = unsafe { libc::getenv(name) };
        if !crate::arena::in_active_region() {
            // SAFETY: as above; `value` is null or a NUL-terminated string of the environment.
            let (n, v) = unsafe {
                (
                    std::ffi::CStr::from_ptr(name).to_bytes(),
                    (!value.is_null()).then(|| std::ffi::CStr::from_ptr(value).to_bytes()),
                )
            };
            crate::ft::inputs::note_env_read(n, v);
        }
        value
    })
}

/// Called at start-up (from a constructor) by every file that reads stdin: stdin is then made
/// the same on every rank at the latest when the first parallel region starts, because a read
/// inside `single` or `master` runs on one rank only and could not be the collective it needs.
#[no_mangle]
pub extern "C" fn __cape_stdin_reader() {
    guard(|| {
        crate::io::note_stdin_reader();
    })
}
