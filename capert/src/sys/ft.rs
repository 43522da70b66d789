//! Fault-tolerance plumbing that needs the kernel: the SIGUSR1 checkpoint request and the
//! exit hook that learns the status passed to `exit()`.

use std::ffi::{c_int, c_void};
use std::sync::atomic::{AtomicBool, Ordering};

/// Set by the SIGUSR1 handler: checkpoint at the next join.
static SIGNAL_REQUEST: AtomicBool = AtomicBool::new(false);

extern "C" fn on_sigusr1(_: c_int) {
    // Async-signal-safe: one atomic store.
    SIGNAL_REQUEST.store(true, Ordering::Relaxed);
}

/// Installs the SIGUSR1 handler (mpirun forwards SIGUSR1 to every rank).
pub fn install_sigusr1() -> std::io::Result<()> {
    // SAFETY: a zeroed sigaction is a valid starting point; the handler only stores an atomic.
    unsafe {
        let mut sa: libc::sigaction = std::mem::zeroed();
        sa.sa_sigaction = on_sigusr1 as *const () as usize;
        sa.sa_flags = libc::SA_RESTART;
        libc::sigemptyset(&mut sa.sa_mask);
        if libc::sigaction(libc::SIGUSR1, &sa, std::ptr::null_mut()) != 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Takes (and clears) a pending SIGUSR1 request.
pub fn take_signal_request() -> bool {
    SIGNAL_REQUEST.swap(false, Ordering::Relaxed)
}

extern "C" {
    /// glibc: like `atexit`, with the status given to `exit()`.
    fn on_exit(f: extern "C" fn(c_int, *mut c_void), arg: *mut c_void) -> c_int;
}

/// Registers `f(status)` to run at `exit()`.
pub fn register_exit_hook(f: extern "C" fn(c_int, *mut c_void)) -> bool {
    // SAFETY: registers a function with static lifetime and a null argument.
    unsafe { on_exit(f, std::ptr::null_mut()) == 0 }
}

/// The effective user id (owner check of the checkpoint key).
pub fn effective_uid() -> u32 {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() }
}

/// SIGKILL to this process (the test hook that crashes rank 0 in the middle of a compaction).
pub fn kill_self() -> ! {
    // SAFETY: raise has no memory preconditions; SIGKILL cannot be caught, so it does not
    // return.
    unsafe { libc::raise(libc::SIGKILL) };
    std::process::abort()
}

/// Whether a SIGUSR1 request is pending (not cleared).
pub fn signal_requested() -> bool {
    SIGNAL_REQUEST.load(Ordering::Relaxed)
}
