//! Invalid pages without `mprotect` (docs/lazy-merge-measurements.md, "Invalidation by userfaultfd"), as
//! QEMU's post-copy does it: anonymous tracked memory is registered with the tracker's
//! userfaultfd in missing mode besides write protection; an invalid page is dropped
//! (`MADV_DONTNEED`, one call per run of pages), so its next access by user code is a missing
//! fault, which raises SIGBUS (`UFFD_FEATURE_SIGBUS`; handler in `signals.rs`), and the fetch
//! thread installs the fetched bytes with `UFFDIO_COPY`: the page appears filled and
//! write-protected in one step. No protection change, so no mapping is split.
//!
//! Before a span is registered its holes are filled with the zero page
//! (`MADV_POPULATE_READ`): afterwards the only missing pages are the dropped (invalid) ones,
//! so the kernel's own accesses to valid memory (system calls, which do not raise SIGBUS but
//! fail with `EFAULT`) work as before. A missing fault on a valid page (none is expected) is
//! resolved with the zero page, which is what an untouched anonymous page reads as.

use std::io;
use std::sync::atomic::{AtomicI32, AtomicUsize, Ordering};

use super::signals::MAX_RANGES;

/// `MADV_POPULATE_READ` (Linux 5.14), absent from older libc crates.
const MADV_POPULATE_READ: libc::c_int = 22;

/// The spans registered in missing mode, sorted, as `[start, end)` pairs: a fixed table a
/// signal handler can search.
struct Spans {
    bounds: [AtomicUsize; 2 * MAX_RANGES],
    count: AtomicUsize,
}

#[allow(clippy::declare_interior_mutable_const)]
const ZERO: AtomicUsize = AtomicUsize::new(0);
static SPANS: Spans = Spans {
    bounds: [ZERO; 2 * MAX_RANGES],
    count: AtomicUsize::new(0),
};
/// The userfaultfd the spans are registered with (-1: none).
static FD: AtomicI32 = AtomicI32::new(-1);

/// Replaces the table (sorted, disjoint spans registered with `fd`); Err(capacity) when
/// there are too many. Call while no page of a span is invalid, or with the same spans.
pub fn publish(fd: i32, spans: &[(usize, usize)]) -> Result<(), usize> {
    if spans.len() > MAX_RANGES {
        return Err(MAX_RANGES);
    }
    SPANS.count.store(0, Ordering::Release);
    for (i, &(start, end)) in spans.iter().enumerate() {
        SPANS.bounds[2 * i].store(start, Ordering::Relaxed);
        SPANS.bounds[2 * i + 1].store(end, Ordering::Relaxed);
    }
    FD.store(fd, Ordering::Relaxed);
    SPANS.count.store(spans.len(), Ordering::Release);
    Ok(())
}

/// Empties the table (before the descriptor is closed).
pub fn clear() {
    SPANS.count.store(0, Ordering::Release);
}

/// Does `addr` lie in a span registered in missing mode? Async-signal-safe.
pub fn covers(addr: usize) -> bool {
    let count = SPANS.count.load(Ordering::Acquire).min(MAX_RANGES);
    let (mut lo, mut hi) = (0, count);
    while lo < hi {
        let mid = (lo + hi) / 2;
        if SPANS.bounds[2 * mid + 1].load(Ordering::Relaxed) <= addr {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    lo < count && SPANS.bounds[2 * lo].load(Ordering::Relaxed) <= addr
}

/// Maps the zero page into every hole of `[start, start + len)` (page aligned); populated
/// pages keep their bytes.
pub fn populate(start: usize, len: usize) -> io::Result<()> {
    // SAFETY: only faults pages in (reads); contents do not change.
    let rc = unsafe { libc::madvise(start as *mut libc::c_void, len, MADV_POPULATE_READ) };
    if rc == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// Drops the pages of `[start, start + len)` (page aligned, inside a span): their next
/// access is a missing fault. Their bytes are lost; the caller holds them invalid.
pub fn drop_pages(start: usize, len: usize) -> io::Result<()> {
    // SAFETY: discards anonymous pages of tracked memory that the caller has marked invalid
    // (their newest bytes are on another rank; an access faults and fetches them).
    let rc = unsafe { libc::madvise(start as *mut libc::c_void, len, libc::MADV_DONTNEED) };
    if rc == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// Installs `bytes` as the dropped page at `page` (write-protected with `wp`).
pub fn install(page: usize, bytes: &[u8], wp: bool) -> io::Result<()> {
    super::uffd::copy_fd(FD.load(Ordering::Relaxed), page, bytes, wp)
}

/// From the SIGBUS handler, for a page that is not invalid: maps the zero page if `addr`'s
/// page in a span is missing; true if the access can be retried. Async-signal-safe.
pub fn fill_hole(addr: usize) -> bool {
    if !covers(addr) {
        return false;
    }
    let page = addr & !(super::mprotect::PAGE_SIZE - 1);
    match super::uffd::zeropage_fd(FD.load(Ordering::Relaxed), page, super::mprotect::PAGE_SIZE) {
        Ok(()) => true,
        // another thread filled it meanwhile
        Err(e) => e.raw_os_error() == Some(libc::EEXIST),
    }
}
