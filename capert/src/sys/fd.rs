//! File-descriptor plumbing for io.rs: output redirection and the stdin memfd.

use std::io;

/// Flushes every C stdio output stream (`fflush(NULL)`), so that buffered output goes to
/// the descriptor it was written for before fds are switched.
pub fn flush_c_stdio() {
    // SAFETY: fflush(NULL) is always valid; it only flushes libc's own buffers.
    unsafe { libc::fflush(std::ptr::null_mut()) };
}

/// Is `fd` an open descriptor?
pub fn is_open(fd: i32) -> bool {
    // SAFETY: F_GETFD on any integer is harmless; it only queries.
    unsafe { libc::fcntl(fd, libc::F_GETFD) != -1 }
}

/// Is `fd` a terminal?
pub fn is_terminal(fd: i32) -> bool {
    // SAFETY: isatty only queries.
    unsafe { libc::isatty(fd) == 1 }
}

/// `dup(fd)` with close-on-exec, so children of the program do not inherit our copies.
pub fn dup_cloexec(fd: i32) -> io::Result<i32> {
    // SAFETY: F_DUPFD_CLOEXEC creates a new descriptor; no memory is involved.
    let r = unsafe { libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, 10) };
    if r < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(r)
    }
}

/// `dup2(src, dst)`, retried on EINTR.
pub fn dup2(src: i32, dst: i32) -> io::Result<()> {
    loop {
        // SAFETY: dup2 only manipulates the descriptor table.
        let r = unsafe { libc::dup2(src, dst) };
        if r >= 0 {
            return Ok(());
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

/// Opens `/dev/null` for writing, close-on-exec.
pub fn open_dev_null() -> io::Result<i32> {
    // SAFETY: the path is a NUL-terminated literal.
    let r = unsafe { libc::open(c"/dev/null".as_ptr(), libc::O_RDWR | libc::O_CLOEXEC) };
    if r < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(r)
    }
}

/// Writes all of `bytes` to `fd`, ignoring errors (used for diagnostics only).
pub fn write_all(fd: i32, mut bytes: &[u8]) {
    while !bytes.is_empty() {
        // SAFETY: the pointer and length come from a valid slice.
        let r = unsafe { libc::write(fd, bytes.as_ptr().cast(), bytes.len()) };
        if r < 0 {
            if io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return;
        }
        if r == 0 {
            return;
        }
        bytes = &bytes[r as usize..];
    }
}

/// Reads `fd` to end of file.
pub fn read_to_end(fd: i32) -> io::Result<Vec<u8>> {
    let mut out = Vec::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        // SAFETY: the buffer is a valid, writable slice of the given length.
        let r = unsafe { libc::read(fd, buf.as_mut_ptr().cast(), buf.len()) };
        if r < 0 {
            let e = io::Error::last_os_error();
            if e.kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return Err(e);
        }
        if r == 0 {
            return Ok(out);
        }
        out.extend_from_slice(&buf[..r as usize]);
    }
}

/// A memfd holding `bytes`, positioned at offset 0.
pub fn memfd_with(bytes: &[u8]) -> io::Result<i32> {
    // SAFETY: the name is a NUL-terminated literal.
    let fd = unsafe { libc::memfd_create(c"capert-stdin".as_ptr(), libc::MFD_CLOEXEC) };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    let mut rest = bytes;
    while !rest.is_empty() {
        // SAFETY: pointer and length come from a valid slice.
        let r = unsafe { libc::write(fd, rest.as_ptr().cast(), rest.len()) };
        if r < 0 {
            let e = io::Error::last_os_error();
            if e.kind() == io::ErrorKind::Interrupted {
                continue;
            }
            close(fd);
            return Err(e);
        }
        rest = &rest[r as usize..];
    }
    // SAFETY: lseek on our own descriptor.
    if unsafe { libc::lseek(fd, 0, libc::SEEK_SET) } != 0 {
        let e = io::Error::last_os_error();
        close(fd);
        return Err(e);
    }
    Ok(fd)
}

/// Everything written to the memfd `fd` so far; leaves it empty, at offset 0.
pub fn take_all(fd: i32) -> Vec<u8> {
    // SAFETY: lseek on our own descriptor.
    let len = unsafe { libc::lseek(fd, 0, libc::SEEK_END) };
    if len <= 0 {
        return Vec::new();
    }
    let mut out = vec![0u8; len as usize];
    let mut done = 0usize;
    while done < out.len() {
        // SAFETY: the destination is the unfilled tail of `out`, of the length given.
        let r = unsafe {
            libc::pread(
                fd,
                out[done..].as_mut_ptr().cast(),
                out.len() - done,
                done as libc::off_t,
            )
        };
        if r <= 0 {
            if r < 0 && io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
                continue;
            }
            break;
        }
        done += r as usize;
    }
    out.truncate(done);
    // SAFETY: truncating and rewinding our own descriptor.
    unsafe {
        libc::ftruncate(fd, 0);
        libc::lseek(fd, 0, libc::SEEK_SET);
    }
    out
}

/// Closes `fd`, ignoring errors.
pub fn close(fd: i32) {
    // SAFETY: closing a descriptor we own.
    unsafe { libc::close(fd) };
}

/// A pipe `(read end, write end)`, both close-on-exec; the read end non-blocking.
pub fn pipe_cloexec() -> io::Result<(i32, i32)> {
    let mut fds = [-1i32; 2];
    // SAFETY: pipe2 writes two descriptors into the 2-element array.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: F_GETFL/F_SETFL on our own fresh descriptor.
    unsafe {
        let flags = libc::fcntl(fds[0], libc::F_GETFL);
        libc::fcntl(fds[0], libc::F_SETFL, flags | libc::O_NONBLOCK);
    }
    Ok((fds[0], fds[1]))
}

/// Waits up to `timeout_ms` until one of `fds` is readable (or hung up).
pub fn poll_readable(fds: &[i32], timeout_ms: i32) {
    let mut polls: Vec<libc::pollfd> = fds
        .iter()
        .map(|&fd| libc::pollfd {
            fd,
            events: libc::POLLIN,
            revents: 0,
        })
        .collect();
    // SAFETY: the pointer and count describe the vector above.
    unsafe { libc::poll(polls.as_mut_ptr(), polls.len() as libc::nfds_t, timeout_ms) };
}

/// Bytes waiting in pipe `fd` (`FIONREAD`); 0 on error.
pub fn bytes_available(fd: i32) -> usize {
    let mut n: libc::c_int = 0;
    // SAFETY: FIONREAD writes one int.
    let r = unsafe { libc::ioctl(fd, libc::FIONREAD, &mut n) };
    if r < 0 {
        0
    } else {
        n.max(0) as usize
    }
}

/// One `read` of at most `buf.len()` bytes; Ok(0) also when nothing is available now.
pub fn read_some(fd: i32, buf: &mut [u8]) -> usize {
    loop {
        // SAFETY: the buffer is a valid, writable slice of the given length.
        let r = unsafe { libc::read(fd, buf.as_mut_ptr().cast(), buf.len()) };
        if r >= 0 {
            return r as usize;
        }
        if io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
            return 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memfd_round_trip() {
        let fd = memfd_with(b"hello\n42\n").unwrap();
        assert_eq!(read_to_end(fd).unwrap(), b"hello\n42\n");
        close(fd);
    }
}
