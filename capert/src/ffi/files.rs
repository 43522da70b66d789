//! `fopen` and `fclose` of the program (the compiler renames them in user code). A file that
//! sequential code opens for writing only (`w`, `a`, `x` modes without `+`) while several ranks
//! run is written by rank 0 alone: the other ranks get a stream that writes nowhere
//! (sys/streams.rs), so that no rank truncates or overwrites what rank 0 wrote, and what they
//! write to it inside a parallel region reaches rank 0 at the merge point (as printed output
//! does). Such an `fopen` and its `fclose` in sequential code are collective: every rank
//! returns rank 0's result, and no rank goes on before rank 0 closed the file (a rank that
//! reads it back then reads all of it). Other modes, and opens inside regions, are the C
//! library's (each thread of a region is a rank: its file is its own).
//!
//! `remove`, `unlink`, `rename`, `truncate`, `mkdir` and `rmdir` in sequential code while
//! several ranks run are collective too: every rank reaches the call before rank 0 makes it
//! (a rank still about to open or read the file finds it), once, and every rank returns rank
//! 0's result and errno (a second rank's `remove` would fail, its `mkdir` find the directory).

use super::guard;
use crate::region::with_state;
use crate::sys::signals::{errno, set_errno};
use crate::sys::streams;
use libc::{c_char, c_int, c_void, FILE};
use std::ffi::CStr;

/// Whether `mode` only writes: `w` or `a` first, no `+` (`b`, `x`, `e`, `m`, `c` allowed).
fn writes_only(mode: &CStr) -> bool {
    let m = mode.to_bytes();
    matches!(m.first(), Some(b'w' | b'a')) && !m.contains(&b'+')
}

/// The world communicator's size and this rank, when files are redirected now: several
/// ranks, rank 0's output only (not `CAPE_OUTPUT=all`), sequential code.
fn redirecting() -> Option<usize> {
    if crate::arena::in_active_region() {
        return None;
    }
    with_state(|s| {
        let rt = s.rt.as_ref()?;
        (rt.size > 1 && rt.io.files_by_rank0()).then_some(rt.rank)
    })
}

/// Rank 0's 16-byte answer on every rank: (result or errno, a size).
fn share(mine: (i64, i64)) -> (i64, i64) {
    let mut msg = Vec::with_capacity(16);
    msg.extend_from_slice(&mine.0.to_le_bytes());
    msg.extend_from_slice(&mine.1.to_le_bytes());
    with_state(|s| {
        if let Some(comm) = s.rt.as_ref().and_then(|rt| rt.comm.as_ref()) {
            comm.broadcast_from_root(&mut msg);
        }
    });
    let word = |at: usize| {
        msg.get(at..at + 8)
            .and_then(|b| b.try_into().ok())
            .map_or(0, i64::from_le_bytes)
    };
    (word(0), word(8))
}

/// `fopen`: a file that sequential code opens for writing only (`w`/`a`, no `+`) while several
/// ranks run is opened by rank 0 alone; the other ranks get a stream that writes nowhere, with
/// rank 0's result (collective).
#[no_mangle]
pub extern "C" fn __cape_fopen(path: *const c_char, mode: *const c_char) -> *mut c_void {
    guard(|| {
        // SAFETY: the program's own call, arguments unchanged (C's contract for fopen).
        let plain = || unsafe { libc::fopen(path, mode) } as *mut c_void;
        if path.is_null() || mode.is_null() {
            return plain();
        }
        // SAFETY: `mode` is the program's NUL-terminated string (C's contract for fopen).
        let mode_text = unsafe { CStr::from_ptr(mode) };
        if !writes_only(mode_text) {
            return plain();
        }
        let Some(rank) = redirecting() else {
            return plain();
        };
        let id = streams::next_number();
        if rank == 0 {
            let file = plain() as *mut FILE;
            let answer = if file.is_null() {
                (-i64::from(errno().max(1)), 0)
            } else {
                streams::register(file, id);
                (0, file_size(file))
            };
            let _ = share(answer);
            if file.is_null() {
                set_errno(i32::try_from(-answer.0).unwrap_or(libc::EIO));
            }
            return file as *mut c_void;
        }
        let (result, size) = share((0, 0));
        if result < 0 {
            set_errno(i32::try_from(-result).unwrap_or(libc::EIO));
            return std::ptr::null_mut();
        }
        streams::open_sink(id, mode_text, size) as *mut c_void
    })
}

/// The size of the file open as `file` (0 when unknown): where an appending stream starts.
fn file_size(file: *mut FILE) -> i64 {
    // SAFETY: a stream fopen just returned; fstat only writes the zeroed buffer.
    unsafe {
        let mut st: libc::stat = std::mem::zeroed();
        if libc::fstat(libc::fileno(file), &mut st) == 0 {
            st.st_size
        } else {
            0
        }
    }
}

/// `fclose`: for a redirected stream in sequential code, every rank returns rank 0's result
/// once rank 0's close is complete.
#[no_mangle]
pub extern "C" fn __cape_fclose(f: *mut c_void) -> c_int {
    guard(|| {
        let file = f as *mut FILE;
        let redirected = !file.is_null() && streams::unregister(file).is_some();
        // SAFETY: the program's own call, argument unchanged (C's contract for fclose).
        let rc = unsafe { libc::fclose(file) };
        if !redirected {
            return rc;
        }
        let Some(rank) = redirecting() else {
            return rc;
        };
        let mine = if rc == 0 {
            0
        } else {
            -i64::from(errno().max(1))
        };
        let (result, _) = share((if rank == 0 { mine } else { 0 }, 0));
        if result < 0 {
            set_errno(i32::try_from(-result).unwrap_or(libc::EIO));
            return libc::EOF;
        }
        0
    })
}

/// A call that changes the file system by name, in sequential code while several ranks run:
/// made once, by rank 0, after every rank reached it; every rank returns rank 0's result and
/// errno. Elsewhere (one rank, inside a region) `call` as it is.
fn once_on_rank_0(call: impl FnOnce() -> c_int) -> c_int {
    if crate::arena::in_active_region() {
        return call();
    }
    let rank = with_state(|s| s.rt.as_ref().filter(|rt| rt.size > 1).map(|rt| rt.rank));
    let Some(rank) = rank else {
        return call();
    };
    // the runtime's own calls leave errno as the program's call would have
    let before = errno();
    with_state(|s| {
        if let Some(comm) = s.rt.as_ref().and_then(|rt| rt.comm.as_ref()) {
            comm.barrier();
        }
    });
    set_errno(before);
    let mine = if rank == 0 {
        let rc = call();
        (i64::from(rc), if rc < 0 { i64::from(errno()) } else { 0 })
    } else {
        (0, 0)
    };
    let (rc, code) = share(mine);
    set_errno(if rc < 0 {
        i32::try_from(code).unwrap_or(libc::EIO)
    } else {
        before
    });
    c_int::try_from(rc).unwrap_or(-1)
}

/// `remove`: in sequential code while several ranks run, made once, by rank 0, after every
/// rank reached it; every rank returns rank 0's result and errno.
#[no_mangle]
pub extern "C" fn __cape_remove(path: *const c_char) -> c_int {
    guard(|| {
        once_on_rank_0(|| {
            // SAFETY: the program's own call, arguments unchanged (C's contract for it).
            unsafe { libc::remove(path) }
        })
    })
}

/// `unlink`: once, on rank 0, after every rank reached it.
#[no_mangle]
pub extern "C" fn __cape_unlink(path: *const c_char) -> c_int {
    guard(|| {
        once_on_rank_0(|| {
            // SAFETY: the program's own call, arguments unchanged (C's contract for it).
            unsafe { libc::unlink(path) }
        })
    })
}

/// `rename`: once, on rank 0, after every rank reached it.
#[no_mangle]
pub extern "C" fn __cape_rename(from: *const c_char, to: *const c_char) -> c_int {
    guard(|| {
        once_on_rank_0(|| {
            // SAFETY: the program's own call, arguments unchanged (C's contract for it).
            unsafe { libc::rename(from, to) }
        })
    })
}

/// `truncate` (`length`: an `off_t`, 64 bits on the supported targets): once, on rank 0, after every rank reached it.
#[no_mangle]
pub extern "C" fn __cape_truncate(path: *const c_char, length: i64) -> c_int {
    guard(|| {
        once_on_rank_0(|| {
            // SAFETY: the program's own call, arguments unchanged (C's contract for it).
            unsafe { libc::truncate(path, length as libc::off_t) }
        })
    })
}

/// `mkdir` (`mode`: a `mode_t`): once, on rank 0, after every rank reached it.
#[no_mangle]
pub extern "C" fn __cape_mkdir(path: *const c_char, mode: u32) -> c_int {
    guard(|| {
        once_on_rank_0(|| {
            // SAFETY: the program's own call, arguments unchanged (C's contract for it).
            unsafe { libc::mkdir(path, mode as libc::mode_t) }
        })
    })
}

/// `rmdir`: once, on rank 0, after every rank reached it.
#[no_mangle]
pub extern "C" fn __cape_rmdir(path: *const c_char) -> c_int {
    guard(|| {
        once_on_rank_0(|| {
            // SAFETY: the program's own call, arguments unchanged (C's contract for it).
            unsafe { libc::rmdir(path) }
        })
    })
}
