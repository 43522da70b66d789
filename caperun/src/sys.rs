//! The few system calls caperun needs that std does not offer: becoming a subreaper (so that
//! ranks orphaned by a dead mpirun become our children and can be found and killed), sending
//! signals, catching SIGINT/SIGTERM/SIGHUP/SIGUSR1/SIGUSR2, reaping stray children.
//! All `unsafe` of the crate is here (and in capert's checkpoint_dir.rs, included below).

use std::sync::atomic::{AtomicI32, AtomicU32, Ordering};

/// The checkpoint directory rules are capert's (the same file, so both programs agree).
#[path = "../../capert/src/sys/checkpoint_dir.rs"]
#[allow(dead_code)] // what only capert needs
pub mod checkpoint_dir;

/// The last terminating signal caperun received (0: none).
static TERMINATE: AtomicI32 = AtomicI32::new(0);
/// Bit mask of SIGUSR1 (1) / SIGUSR2 (2) received and not yet forwarded.
static FORWARD: AtomicU32 = AtomicU32::new(0);

extern "C" fn on_signal(sig: libc::c_int) {
    // Only atomics: async-signal-safe.
    match sig {
        libc::SIGUSR1 => {
            FORWARD.fetch_or(1, Ordering::SeqCst);
        }
        libc::SIGUSR2 => {
            FORWARD.fetch_or(2, Ordering::SeqCst);
        }
        _ => TERMINATE.store(sig, Ordering::SeqCst),
    }
}

/// Makes orphaned descendants our children (Linux >= 3.4); false when not supported.
pub fn become_subreaper() -> bool {
    // SAFETY: prctl with PR_SET_CHILD_SUBREAPER takes an integer argument and touches no memory.
    unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0 }
}

/// Installs the handlers. Terminating signals are recorded (and forwarded to mpirun by the
/// caller) instead of killing caperun, so that the job is stopped cleanly.
pub fn install_signal_handlers() {
    for sig in [
        libc::SIGINT,
        libc::SIGTERM,
        libc::SIGHUP,
        libc::SIGUSR1,
        libc::SIGUSR2,
    ] {
        // SAFETY: a zeroed sigaction is valid; the handler only touches atomics; SA_RESTART
        // keeps blocking reads and waits going.
        unsafe {
            let mut sa: libc::sigaction = std::mem::zeroed();
            sa.sa_sigaction = on_signal as *const () as usize;
            sa.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut sa.sa_mask);
            libc::sigaction(sig, &sa, std::ptr::null_mut());
        }
    }
}

/// A terminating signal received since start, if any.
pub fn terminate_signal() -> Option<i32> {
    match TERMINATE.load(Ordering::SeqCst) {
        0 => None,
        s => Some(s),
    }
}

/// The user signals received since the last call, to forward.
pub fn take_forward_signals() -> Vec<i32> {
    let bits = FORWARD.swap(0, Ordering::SeqCst);
    let mut v = Vec::new();
    if bits & 1 != 0 {
        v.push(libc::SIGUSR1);
    }
    if bits & 2 != 0 {
        v.push(libc::SIGUSR2);
    }
    v
}

/// Sends `sig` to process `pid`; false if it does not exist any more.
pub fn send_signal(pid: u32, sig: i32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return false;
    };
    // SAFETY: kill takes plain integers. pid > 0 (from a child or /proc), never a group.
    unsafe { libc::kill(pid, sig) == 0 }
}

/// Reaps every exited child without blocking (strays reparented to us as subreaper).
pub fn reap_exited_children() {
    loop {
        let mut status = 0;
        // SAFETY: waitpid writes only the status integer we pass.
        let pid = unsafe { libc::waitpid(-1, &mut status, libc::WNOHANG) };
        if pid <= 0 {
            break;
        }
    }
}

/// Whether fd 0 is a terminal.
pub fn stdin_is_terminal() -> bool {
    use std::io::IsTerminal;
    std::io::stdin().is_terminal()
}

/// Our own process id.
pub fn own_pid() -> u32 {
    std::process::id()
}

/// Makes the child get SIGTERM when caperun dies, so that a killed caperun does not leave a
/// job running.
pub fn kill_child_with_parent(cmd: &mut std::process::Command) {
    use std::os::unix::process::CommandExt;
    // SAFETY: the closure runs between fork and exec and only calls prctl, which is
    // async-signal-safe and allocates nothing.
    unsafe {
        cmd.pre_exec(|| {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM, 0, 0, 0) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

/// A descriptor that becomes readable when process `pid` ends (any process we may signal,
/// not only our children); None when the kernel has no `pidfd_open` (before Linux 5.3) or
/// the process is gone.
pub fn exit_notifier(pid: u32) -> Option<std::os::fd::OwnedFd> {
    use std::os::fd::FromRawFd;
    let pid = libc::pid_t::try_from(pid).ok()?;
    // SAFETY: pidfd_open takes a pid and flags and returns a new descriptor or -1; it
    // touches no memory of ours.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
    let fd = i32::try_from(fd).ok().filter(|&fd| fd >= 0)?;
    // SAFETY: `fd` was just returned by the kernel and is owned by nobody else.
    Some(unsafe { std::os::fd::OwnedFd::from_raw_fd(fd) })
}

/// Sleeps until one of the processes behind `notifiers` ends, a signal arrives, or
/// `timeout` passed (a plain sleep when there is no notifier).
pub fn wait_for_exit(notifiers: &[std::os::fd::BorrowedFd<'_>], timeout: std::time::Duration) {
    use std::os::fd::AsRawFd;
    if notifiers.is_empty() {
        std::thread::sleep(timeout);
        return;
    }
    let mut fds: Vec<libc::pollfd> = notifiers
        .iter()
        .map(|fd| libc::pollfd {
            fd: fd.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        })
        .collect();
    let ms = libc::c_int::try_from(timeout.as_millis()).unwrap_or(libc::c_int::MAX);
    // SAFETY: `fds` is a valid array of `fds.len()` pollfd structures that poll may write.
    unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, ms) };
}
