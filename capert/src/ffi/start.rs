//! `__cape_start`: start-up, the user's `main` on the user stack, shutdown (also from the
//! exit hook).

use super::guard;
use crate::region::{self, with_state};
use crate::runtime;
use crate::sys::raw::ProgramBytes;
use std::ffi::{c_char, c_int, c_void};

extern "C" fn exit_hook(status: c_int, _: *mut c_void) {
    guard(|| shut_down(status));
}

/// Shutdown with the runtime state, or without it when `exit()` was called while the state
/// was in use (then only an abort of the job or nothing is possible).
pub(super) fn shut_down(status: c_int) -> c_int {
    region::try_with_state(|s| runtime::shut_down(s.rt.as_mut(), status))
        .unwrap_or_else(|| runtime::shut_down(None, status))
}

/// `argv[0..argc]` as bytes.
fn command_line(argc: c_int, argv: *mut *mut c_char) -> Vec<Vec<u8>> {
    if argv.is_null() {
        return Vec::new();
    }
    (0..argc.max(0) as usize)
        .filter_map(|i| {
            // SAFETY: `argv` has `argc` entries, each a NUL-terminated string or null (C main).
            let p = unsafe { *argv.add(i) };
            // SAFETY: as above.
            (!p.is_null()).then(|| unsafe { std::ffi::CStr::from_ptr(p) }.to_bytes().to_vec())
        })
        .collect()
}

/// Starts the CAPE runtime and runs the program.
///
/// Initialises MPI, maps the application heap and the user stack at their fixed addresses,
/// runs `user_main(argc, argv, envp)` on that stack, then shuts MPI down. `argv` is rank 0's
/// command line copied to the top of that stack (the same on every rank, and shared memory:
/// writes to its strings in a parallel region are merged); `envp` is this rank's. Returns rank 0's
/// exit status (the generated `main` returns it). A call to `exit()` in the program also
/// shuts down cleanly. Configuration errors print one `capert: error:` line and exit with 1.
#[no_mangle]
pub extern "C" fn __cape_start(
    argc: c_int,
    argv: *mut *mut c_char,
    envp: *mut *mut c_char,
    user_main: Option<extern "C" fn(c_int, *mut *mut c_char, *mut *mut c_char) -> c_int>,
) -> c_int {
    guard(|| {
        let Some(user_main) = user_main else {
            runtime::fatal("`__cape_start` called without a main function");
        };
        // SAFETY: mpirun starts this same executable on every rank, and the driver links it
        // without PIE (so its functions and globals have the same addresses everywhere).
        let same_program = unsafe { crate::sys::raw::SameProgram::assume() };
        let own = command_line(argc, argv);
        let (rt, top) = runtime::start_up(&own, same_program);
        with_state(|s| s.rt = Some(rt));
        let line = with_state(|s| match s.rt.as_mut() {
            Some(rt) => crate::region::lock::reserve_heap(rt)
                .and_then(|()| runtime::command_line(rt, &own, top)),
            None => Err("no runtime after start-up".to_string()),
        })
        .unwrap_or_else(|e| runtime::fatal(&e));
        // SAFETY: the block lies in the user stack mapping below `top` (`runtime::command_line`
        // checked that it leaves room below), which nothing has used yet.
        unsafe { ProgramBytes::new(line.argv, line.bytes.len()) }.write(&line.bytes);
        // the block holds `argc + 1` pointers (ARG_MAX bounds them), so `argc` fits
        let argc = c_int::try_from(line.argc).unwrap_or(c_int::MAX);
        // Failure only loses the hook.
        let hooked = crate::sys::ft::register_exit_hook(exit_hook);
        // SAFETY: `main_top` is 16-byte aligned, in the freshly mapped user stack below the
        // command line and above at least half of the stack (`CAPE_STACK_SIZE`); `user_main`
        // is C code (no unwinding); `argv` is the block written above: `argc` string pointers
        // and a null, as C's `main` expects.
        let status = unsafe {
            crate::sys::stack::call_main_on_stack(
                line.main_top(),
                user_main,
                argc,
                line.argv as *mut *mut c_char,
                envp,
            )
        };
        if hooked {
            // as `exit()` in the program: its `atexit` handlers run first (what they print is
            // flushed with the rest), then the hook shuts down with every rank; a shutdown
            // before them would let the launcher end the job while rank 0 still prints
            std::process::exit(status);
        }
        shut_down(status)
    })
}
