//! The C library's calls that hand a program buffer to the kernel (`fwrite`, `fread`,
//! `write`, `read`, `pwrite`, `pread`, `writev`, `readv`, `pwritev`, `preadv`, `send`,
//! `recv`, `sendto`, `recvfrom`, `sendmsg`, `recvmsg`): with the demand-driven merge a page of that buffer may
//! be invalid, and the kernel does not fault on it as user code does (it fails with `EFAULT`,
//! or `fwrite` writes a short record). The compiler renames these calls in user code to the
//! functions here, which fetch the buffer's invalid pages first and then call the library.
//! The mprotect tracker's write-protected pages fail the same way when the kernel writes
//! them: the buffers of the reading calls (`fread`, `read`, `pread`, `readv`, `preadv`,
//! `recv`, `recvfrom`, `recvmsg`) are also made writable (and recorded as written) first.
//! Functions that read their buffer in user space first (`fputs`, `puts`, `printf`) need
//! nothing: that read fetches the pages; so do `fgets`, `getline`, `scanf` (the library
//! copies from its own buffer). Not wrapped: `sendmmsg`/`recvmmsg`, `mmap`ed file copies
//! and path names given a pointer into a page another rank homes (a program that calls MPI
//! itself is refused by the compiler).

use super::guard;
use crate::sys::invalid::validate_range;
use crate::sys::signals::prepare_kernel_write;
use libc::{c_int, c_void, size_t, FILE};

// The header stays free of <stdio.h> and <sys/types.h>: `FILE *` is passed as `void *`,
// `ssize_t` is `intptr_t` and `off_t` is `int64_t` (LP64 Linux, where they are the same).

/// A buffer the kernel (or the library, from the kernel) writes: valid, then writable.
fn validate_destination(addr: usize, len: usize) {
    validate_range(addr, len);
    prepare_kernel_write(addr, len);
}

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
        validate_destination(ptr as usize, size.saturating_mul(n));
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
        validate_destination(buf as usize, count);
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
        validate_destination(buf as usize, count);
        // SAFETY: the program's own call, arguments unchanged (C's contract for pread).
        unsafe { libc::pread(fd, buf, count, offset) }
    })
}

/// Most iovecs a call may pass (Linux's `IOV_MAX`: the kernel refuses more).
const IOV_MAX: usize = 1024;

/// Makes the `iovcnt` iovecs at `iov` and the buffers they name valid (the array first), the
/// buffers also writable when the kernel fills them (`into`).
fn validate_iovecs(iov: *const c_void, iovcnt: c_int, into: bool) {
    let n = usize::try_from(iovcnt).unwrap_or(0).min(IOV_MAX);
    if iov.is_null() || n == 0 {
        return;
    }
    validate_range(iov as usize, n * std::mem::size_of::<libc::iovec>());
    // SAFETY: the program's array of `iovcnt` iovecs (C's contract for readv/writev), whose
    // pages are valid now; only read.
    let iovs = unsafe { std::slice::from_raw_parts(iov as *const libc::iovec, n) };
    for v in iovs {
        if into {
            validate_destination(v.iov_base as usize, v.iov_len);
        } else {
            validate_range(v.iov_base as usize, v.iov_len);
        }
    }
}

/// `writev`, its buffers valid first (`iov` is a `const struct iovec *`).
#[no_mangle]
pub extern "C" fn __cape_writev(fd: c_int, iov: *const c_void, iovcnt: c_int) -> isize {
    guard(|| {
        validate_iovecs(iov, iovcnt, false);
        // SAFETY: the program's own call, arguments unchanged (C's contract for writev).
        unsafe { libc::writev(fd, iov as *const libc::iovec, iovcnt) }
    })
}

/// `readv`, its buffers valid first (`iov` is a `const struct iovec *`).
#[no_mangle]
pub extern "C" fn __cape_readv(fd: c_int, iov: *const c_void, iovcnt: c_int) -> isize {
    guard(|| {
        validate_iovecs(iov, iovcnt, true);
        // SAFETY: the program's own call, arguments unchanged (C's contract for readv).
        unsafe { libc::readv(fd, iov as *const libc::iovec, iovcnt) }
    })
}

/// `pwritev`, its buffers valid first.
#[no_mangle]
pub extern "C" fn __cape_pwritev(
    fd: c_int,
    iov: *const c_void,
    iovcnt: c_int,
    offset: i64,
) -> isize {
    guard(|| {
        validate_iovecs(iov, iovcnt, false);
        // SAFETY: the program's own call, arguments unchanged (C's contract for pwritev).
        unsafe { libc::pwritev(fd, iov as *const libc::iovec, iovcnt, offset) }
    })
}

/// `preadv`, its buffers valid first.
#[no_mangle]
pub extern "C" fn __cape_preadv(
    fd: c_int,
    iov: *const c_void,
    iovcnt: c_int,
    offset: i64,
) -> isize {
    guard(|| {
        validate_iovecs(iov, iovcnt, true);
        // SAFETY: the program's own call, arguments unchanged (C's contract for preadv).
        unsafe { libc::preadv(fd, iov as *const libc::iovec, iovcnt, offset) }
    })
}

/// `send`, its buffer valid first.
#[no_mangle]
pub extern "C" fn __cape_send(fd: c_int, buf: *const c_void, len: size_t, flags: c_int) -> isize {
    guard(|| {
        validate_range(buf as usize, len);
        // SAFETY: the program's own call, arguments unchanged (C's contract for send).
        unsafe { libc::send(fd, buf, len, flags) }
    })
}

/// `recv`, its buffer valid first.
#[no_mangle]
pub extern "C" fn __cape_recv(fd: c_int, buf: *mut c_void, len: size_t, flags: c_int) -> isize {
    guard(|| {
        validate_destination(buf as usize, len);
        // SAFETY: the program's own call, arguments unchanged (C's contract for recv).
        unsafe { libc::recv(fd, buf, len, flags) }
    })
}

/// `sendto`, its buffer and address valid first (`addr` is a `const struct sockaddr *`,
/// `addrlen` a `socklen_t`).
#[no_mangle]
pub extern "C" fn __cape_sendto(
    fd: c_int,
    buf: *const c_void,
    len: size_t,
    flags: c_int,
    addr: *const c_void,
    addrlen: u32,
) -> isize {
    guard(|| {
        validate_range(buf as usize, len);
        validate_range(addr as usize, addrlen as usize);
        // SAFETY: the program's own call, arguments unchanged (C's contract for sendto).
        unsafe { libc::sendto(fd, buf, len, flags, addr as *const libc::sockaddr, addrlen) }
    })
}

/// `recvfrom`, its buffer and address valid first (`addr` is a `struct sockaddr *`,
/// `addrlen` a `socklen_t *`).
#[no_mangle]
pub extern "C" fn __cape_recvfrom(
    fd: c_int,
    buf: *mut c_void,
    len: size_t,
    flags: c_int,
    addr: *mut c_void,
    addrlen: *mut u32,
) -> isize {
    guard(|| {
        validate_destination(buf as usize, len);
        validate_destination(addrlen as usize, std::mem::size_of::<u32>());
        if !addr.is_null() && !addrlen.is_null() {
            // SAFETY: the program's socklen_t, valid now (C's contract for recvfrom).
            validate_destination(addr as usize, unsafe { *addrlen } as usize);
        }
        // SAFETY: the program's own call, arguments unchanged (C's contract for recvfrom).
        unsafe { libc::recvfrom(fd, buf, len, flags, addr as *mut libc::sockaddr, addrlen) }
    })
}

/// Makes a `struct msghdr` and what it names valid: the header, the address, the iovec array
/// and its buffers, the control buffer; what the kernel fills also writable (`into`).
fn validate_msghdr(msg: *const c_void, into: bool) {
    if msg.is_null() {
        return;
    }
    let header = std::mem::size_of::<libc::msghdr>();
    if into {
        validate_destination(msg as usize, header);
    } else {
        validate_range(msg as usize, header);
    }
    // SAFETY: the program's message header (C's contract for sendmsg/recvmsg), whose pages are
    // valid now; only read.
    let m = unsafe { &*(msg as *const libc::msghdr) };
    let iovcnt = c_int::try_from(m.msg_iovlen).unwrap_or(c_int::MAX);
    validate_iovecs(m.msg_iov as *const c_void, iovcnt, into);
    if into {
        validate_destination(m.msg_name as usize, m.msg_namelen as usize);
        validate_destination(m.msg_control as usize, m.msg_controllen);
    } else {
        validate_range(m.msg_name as usize, m.msg_namelen as usize);
        validate_range(m.msg_control as usize, m.msg_controllen);
    }
}

/// `sendmsg`, its header and buffers valid first (`msg` is a `const struct msghdr *`).
#[no_mangle]
pub extern "C" fn __cape_sendmsg(fd: c_int, msg: *const c_void, flags: c_int) -> isize {
    guard(|| {
        validate_msghdr(msg, false);
        // SAFETY: the program's own call, arguments unchanged (C's contract for sendmsg).
        unsafe { libc::sendmsg(fd, msg as *const libc::msghdr, flags) }
    })
}

/// `recvmsg`, its header and buffers valid first (`msg` is a `struct msghdr *`).
#[no_mangle]
pub extern "C" fn __cape_recvmsg(fd: c_int, msg: *mut c_void, flags: c_int) -> isize {
    guard(|| {
        validate_msghdr(msg, true);
        // SAFETY: the program's own call, arguments unchanged (C's contract for recvmsg).
        unsafe { libc::recvmsg(fd, msg as *mut libc::msghdr, flags) }
    })
}
