//! Files a program opens for writing in sequential code while several ranks run it
//! (`ffi/files.rs`): rank 0 alone opens and writes the file; every other rank gets a stream of
//! its own (`fopencookie`) that writes nowhere but keeps a position and a size, so that its
//! calls return what rank 0's return and no rank truncates or overwrites rank 0's file.
//! Inside a parallel region, what such a stream is given is kept instead (`take_captured`):
//! rank 0 appends it to its own stream at the merge point (`append`), in rank order, as it
//! does for standard output.

use std::ffi::{c_char, c_int, c_void, CStr};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::Mutex;

/// The stream functions of `fopencookie` (glibc's `cookie_io_functions_t`).
#[repr(C)]
struct CookieFunctions {
    read: Option<extern "C" fn(*mut c_void, *mut c_char, usize) -> isize>,
    write: Option<extern "C" fn(*mut c_void, *const c_char, usize) -> isize>,
    seek: Option<extern "C" fn(*mut c_void, *mut i64, c_int) -> c_int>,
    close: Option<extern "C" fn(*mut c_void) -> c_int>,
}

extern "C" {
    fn fopencookie(
        cookie: *mut c_void,
        mode: *const c_char,
        functions: CookieFunctions,
    ) -> *mut libc::FILE;
}

/// The state of a stream that writes nowhere.
struct Sink {
    id: u32,
    position: i64,
    size: i64,
    append: bool,
}

/// Writes inside a parallel region are kept (between `Io::enter_region` and `leave_region`).
static CAPTURING: AtomicBool = AtomicBool::new(false);
/// What the sinks were given inside the region, by stream number, in the order given.
static CAPTURED: Mutex<Vec<(u32, Vec<u8>)>> = Mutex::new(Vec::new());
/// The redirected streams of this rank: (`FILE *`, stream number). Rank 0's are its real
/// files; the other ranks' are sinks.
static STREAMS: Mutex<Vec<(usize, u32)>> = Mutex::new(Vec::new());
/// The number of the next redirected stream: every rank opens them in the same order
/// (sequential code), so a number names the same stream everywhere.
static NEXT: AtomicU32 = AtomicU32::new(0);

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The number of the next redirected stream (taken by every rank for every redirected open).
pub fn next_number() -> u32 {
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// Rank 0's real stream `file` is redirected stream `id`.
pub fn register(file: *mut libc::FILE, id: u32) {
    lock(&STREAMS).push((file as usize, id));
}

/// Forgets `file` (closed); its number if it was a redirected stream.
pub fn unregister(file: *mut libc::FILE) -> Option<u32> {
    let mut streams = lock(&STREAMS);
    let at = streams.iter().position(|&(f, _)| f == file as usize)?;
    Some(streams.swap_remove(at).1)
}

/// A stream that writes nowhere for redirected stream `id`, opened with `mode` (`w` or
/// `a`, no `+`), at position `size` when appending. Null when the C library refuses.
pub fn open_sink(id: u32, mode: &CStr, size: i64) -> *mut libc::FILE {
    let append = mode.to_bytes().first() == Some(&b'a');
    let sink = Box::new(Sink {
        id,
        position: if append { size } else { 0 },
        size: if append { size } else { 0 },
        append,
    });
    let cookie = Box::into_raw(sink) as *mut c_void;
    let functions = CookieFunctions {
        read: None,
        write: Some(sink_write),
        seek: Some(sink_seek),
        close: Some(sink_close),
    };
    // SAFETY: `mode` is NUL-terminated; `cookie` is a leaked `Sink` that only the three
    // functions reach, `sink_close` frees it.
    let file = unsafe { fopencookie(cookie, mode.as_ptr(), functions) };
    if file.is_null() {
        // SAFETY: the stream was not made, so the cookie is still ours alone.
        drop(unsafe { Box::from_raw(cookie as *mut Sink) });
        return file;
    }
    register(file, id);
    file
}

extern "C" fn sink_write(cookie: *mut c_void, buf: *const c_char, len: usize) -> isize {
    // SAFETY: the cookie of a stream `open_sink` made, alive until `sink_close`; the C library
    // calls a stream's functions under the stream's lock, one at a time.
    let sink = unsafe { &mut *(cookie as *mut Sink) };
    if CAPTURING.load(Ordering::Acquire) && len > 0 {
        // SAFETY: the C library hands `len` bytes at `buf`.
        let bytes = unsafe { std::slice::from_raw_parts(buf as *const u8, len) };
        let mut captured = lock(&CAPTURED);
        match captured.last_mut() {
            Some((id, kept)) if *id == sink.id => kept.extend_from_slice(bytes),
            _ => captured.push((sink.id, bytes.to_vec())),
        }
    }
    if sink.append {
        sink.position = sink.size;
    }
    sink.position = sink.position.saturating_add(len as i64);
    sink.size = sink.size.max(sink.position);
    len as isize
}

extern "C" fn sink_seek(cookie: *mut c_void, offset: *mut i64, whence: c_int) -> c_int {
    // SAFETY: as in `sink_write`; `offset` is the C library's in/out argument.
    let (sink, offset) = unsafe { (&mut *(cookie as *mut Sink), &mut *offset) };
    let base = match whence {
        libc::SEEK_SET => 0,
        libc::SEEK_CUR => sink.position,
        libc::SEEK_END => sink.size,
        _ => return -1,
    };
    let Some(position) = base.checked_add(*offset).filter(|&p| p >= 0) else {
        return -1;
    };
    sink.position = position;
    *offset = position;
    0
}

extern "C" fn sink_close(cookie: *mut c_void) -> c_int {
    // SAFETY: the stream is being closed: its cookie is used for the last time.
    drop(unsafe { Box::from_raw(cookie as *mut Sink) });
    0
}

/// Inside a parallel region the sinks keep what they are given (after the flush of what
/// sequential code wrote into their buffers).
pub fn set_capturing(on: bool) {
    CAPTURING.store(on, Ordering::Release);
}

/// What the sinks were given since the last call (C stdio flushed first by the caller).
pub fn take_captured() -> Vec<(u32, Vec<u8>)> {
    std::mem::take(&mut *lock(&CAPTURED))
}

/// Rank 0: appends another rank's bytes to its redirected stream `id` (nothing when closed).
pub fn append(id: u32, bytes: &[u8]) {
    let file = lock(&STREAMS)
        .iter()
        .find(|&&(_, i)| i == id)
        .map(|&(f, _)| f);
    if let Some(file) = file {
        // SAFETY: a stream rank 0 opened and has not closed (closing unregisters it first).
        unsafe {
            libc::fwrite(
                bytes.as_ptr() as *const c_void,
                1,
                bytes.len(),
                file as *mut libc::FILE,
            )
        };
    }
}
