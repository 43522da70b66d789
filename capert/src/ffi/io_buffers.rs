//! The C library's calls that hand a program buffer to the kernel (`fwrite`, `fread`,
//! `write`, `read`, `pwrite`, `pread`): with the demand-driven merge a page of that buffer may
//! be invalid, and the kernel does not fault on it as user code does (it fails with `EFAULT`,
//! or `fwrite` writes a short record). The compiler renames these calls in user code to the
//! functions here, which fetch the buffer's invalid pages first and then call the library.
//! Functions that read their buffer in user space first (`fputs`, `puts`, `printf`) need
//! nothing: that read fetches the pages.

use super::guard;
use crate::sys::invalid::validate_range;
use libc::{c_int, c_void, size_t, FILE};

// The header stays free of <stdio.h> and <sys/types.h>: `FILE *` is passed as `void *`,
// `ssize_t` is `intptr_t` and `off_t` is `int64_t` (LP64 Linux, where they are the same).

/// `fwrite`, its buffer valid first.
#[no_mangle]
pub extern "C" fn __cape_fwrite(
    ptr: *const c_void,
    size: size_t,
    n: size_t,
    f: *mut c_void,
) -> size_t {
    guard(|| {
        validate_range(ptr as usize, size.saturating_mul(n));
        // SAFETY: the program's own call, arguments unchanged (C's contract for fwrite).
        unsafe { libc::fwrite(ptr, size, n, f as *mut FILE) }
    })
}

/// `fread`, its buffer valid first (the kernel or the library writes it).
#[no_mangle]
pub extern "C" fn __cape_fread(
    ptr: *mut c_void,
    size: size_t,
    n: size_t,
    f: *mut c_void,
) -> size_t {
    guard(|| {
        validate_range(ptr as usize, size.saturating_mul(n));
        // SAFETY: the program's own call, arguments unchanged (C's contract for fread).
        unsafe { libc::fread(ptr, size, n, f as *mut FILE) }
    })
}

/// `write`, its buffer valid first.
#[no_mangle]
pub extern "C" fn __cape_write(fd: c_int, buf: *const c_void, count: size_t) -> isize {
    guard(|| {
        validate_range(buf as usize, count);
        // SAFETY: the program's own call, arguments unchanged (C's contract for write).
        unsafe { libc::write(fd, buf, count) }
    })
}

/// `read`, its buffer valid first. Generated code makes stdin identical on every rank before
/// (`__cape_stdin_sync`), as for the library's `read`.
#[no_mangle]
pub extern "C" fn __cape_read(fd: c_int, buf: *mut c_void, count: size_t) -> isize {
    guard(|| {
        validate_range(buf as usize, count);
        // SAFETY: the program's own call, arguments unchanged (C's contract for read).
        unsafe { libc::read(fd, buf, count) }
    })
}

/// `pwrite`, its buffer valid first.
#[no_mangle]
pub extern "C" fn __cape_pwrite(
    fd: c_int,
    buf: *const c_void,
    count: size_t,
    offset: i64,
) -> isize {
    guard(|| {
        validate_range(buf as usize, count);
        // SAFETY: the program's own call, arguments unchanged (C's contract for pwrite).
        unsafe { libc::pwrite(fd, buf, count, offset) }
    })
}

/// `pread`, its buffer valid first.
#[no_mangle]
pub extern "C" fn __cape_pread(fd: c_int, buf: *mut c_void, count: size_t, offset: i64) -> isize {
    guard(|| {
        validate_range(buf as usize, count);
        // SAFETY: the program's own call, arguments unchanged (C's contract for pread).
        unsafe { libc::pread(fd, buf, count, offset) }
    })
}
