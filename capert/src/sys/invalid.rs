//! Invalid pages of the demand-driven merge (docs/lazy-merge.md): a page whose newest bytes
//! are on another rank is dropped where its memory is registered in missing mode
//! (`missing.rs`: the access raises SIGBUS) and `PROT_NONE` elsewhere (SIGSEGV); the first
//! access faults, and the fault is served by
//! the *fetch thread*: it asks the page's source for the bytes, installs them into memory and
//! twin, gives the page the protection the tracker expects, and wakes the faulting thread.
//!
//! The SIGSEGV and SIGBUS handlers (`signals.rs`) call [`serve`] first. What it does there is
//! async-signal-safe: a lookup in a fixed static table, atomics and `futex` calls. Whatever
//! is not (MPI, allocation) runs on the fetch thread, which sleeps on a futex until a fault
//! hands it a page (the QEMU post-copy structure, with SIGSEGV in place of the userfaultfd
//! message). Only one fault is served at a time; the faulting thread sleeps meanwhile.
//!
//! The runtime hands over many pages at once the same way ([`validate_pages`]: the pages the
//! eager merge injects into, an I/O buffer): a *batch*, which the fetch thread gets from the
//! pages' homes `BATCH` pages at a time (the source makes one passive-target epoch per home
//! of them) and installs page by page, with no fault per page; the readahead of a sequential
//! reader's fault goes in one such call too. The fetch thread is the only thread that gets
//! pages for installation, and only while the thread that asked sleeps here: a batch needs
//! no rule of its own about who may use MPI (module comment of `mpi_pages.rs`), and a fault
//! of another thread waits for the batch on the hand-off's lock as for another fault.

use std::io;
use std::os::fd::RawFd;
use std::sync::atomic::{AtomicI32, AtomicPtr, AtomicU32, AtomicU64, AtomicUsize, Ordering};

use super::mprotect::PAGE_SIZE;
use super::signals::{PublishedRange, RangeTable};

/// The tracked ranges with their invalid-page bitmaps (one bit per page: the page is invalid).
static INVALID: RangeTable = RangeTable::new();

/// How an installed page is protected afterwards: the tracker's state for a page whose twin
/// equals memory.
const AFTER_WRITABLE: u32 = 0;
const AFTER_READ_ONLY: u32 = 1;
const AFTER_UFFD_WP: u32 = 2;
static AFTER: AtomicU32 = AtomicU32::new(AFTER_WRITABLE);
static UFFD_FD: AtomicI32 = AtomicI32::new(-1);

/// The hand-off between a faulting thread and the fetch thread.
/// It lives on the heap, not in a static: the handler writes it, and the runtime's statics
/// may share a page with the user's globals, which the mprotect tracker keeps read-only in a
/// region (a write fault inside the handler would kill the process).
#[derive(Default)]
struct Handoff {
    lock: AtomicU32,
    /// The faulting page (`batch_len` 0), or 0 (a batch).
    request: AtomicUsize,
    /// A batch: the address and length of the caller's list of pages, which it keeps alive
    /// and unchanged until `served` reaches its ticket.
    batch: AtomicPtr<usize>,
    batch_len: AtomicUsize,
    requests: AtomicU32,
    served: AtomicU32,
    /// Counters for `CAPE_STATS`: faults served, nanoseconds the faulting threads waited.
    faults: AtomicU64,
    waited_ns: AtomicU64,
    /// Pages installed ahead of a fault (`Readahead`).
    ahead: AtomicU64,
    /// Pages installed by batches (`validate_pages`).
    batched: AtomicU64,
}
/// Set once by `start_server` (leaked, never freed); the handler only reads the pointer.
static HANDOFF: AtomicPtr<Handoff> = AtomicPtr::new(std::ptr::null_mut());
static SERVER_TID: AtomicI32 = AtomicI32::new(0);

fn handoff() -> Option<&'static Handoff> {
    // SAFETY: the pointer is null or a leaked Box that is never freed.
    unsafe { HANDOFF.load(Ordering::Acquire).as_ref() }
}

/// Does the fetch thread run? Without it no page is ever invalidated.
pub fn serving() -> bool {
    handoff().is_some()
}

/// The tracker backend, which decides how an installed page is protected.
#[derive(Debug, Clone, Copy)]
pub enum Installed {
    /// mprotect tracker: read-only while a region is armed, writable outside.
    Mprotect,
    /// uffd tracker: writable and write-protected through this userfaultfd.
    Uffd(RawFd),
}

/// Replaces the table: each range's bitmap has a bit per page, set while the page is invalid.
/// Call only while no page is invalid (or with the same bitmaps).
pub fn publish(ranges: &[PublishedRange<'_>], installed: Installed) -> Result<(), usize> {
    open_self_mem();
    match installed {
        Installed::Mprotect => AFTER.store(AFTER_READ_ONLY, Ordering::Relaxed),
        Installed::Uffd(fd) => {
            UFFD_FD.store(fd, Ordering::Relaxed);
            AFTER.store(AFTER_UFFD_WP, Ordering::Relaxed);
        }
    }
    INVALID.publish(ranges)
}

/// Empties the table (before the bitmaps it points to are freed).
pub fn clear() {
    INVALID.clear();
}

/// Makes `[start, start + len)` (page aligned, inside tracked memory) inaccessible.
pub fn make_inaccessible(start: usize, len: usize) -> io::Result<()> {
    // SAFETY: changes protections only, of tracked application memory that the caller has
    // marked invalid (a fault on it is served by `serve`).
    let rc = unsafe { libc::mprotect(start as *mut libc::c_void, len, libc::PROT_NONE) };
    if rc == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// Is `addr`'s page marked invalid in the published table?
pub fn is_invalid(addr: usize) -> bool {
    INVALID.find(addr).is_some_and(|slot| {
        let (word, bit) = slot.bit(addr & !(PAGE_SIZE - 1));
        word.load(Ordering::Acquire) & bit != 0
    })
}

fn gettid() -> i32 {
    // SAFETY: gettid has no arguments and cannot fail.
    unsafe { libc::syscall(libc::SYS_gettid) as i32 }
}

fn now_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime is async-signal-safe and writes the timespec we own.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

fn die(message: &[u8]) -> ! {
    // SAFETY: write(2) and _exit(2) are async-signal-safe; the buffer is static.
    unsafe {
        libc::write(2, message.as_ptr() as *const libc::c_void, message.len());
        libc::_exit(1)
    }
}

/// Called first by the SIGSEGV and SIGBUS handlers: if `addr` lies in an invalid page, has the fetch
/// thread install it, waits, and returns true (the access is retried).
pub fn serve(addr: usize) -> bool {
    let page = addr & !(PAGE_SIZE - 1);
    if !is_invalid(page) {
        return false;
    }
    let h = server();
    let start = now_ns();
    lock(h);
    // another thread may have had it installed meanwhile
    if is_invalid(page) {
        h.request.store(page, Ordering::Relaxed);
        h.batch_len.store(0, Ordering::Relaxed);
        hand_over(h);
        h.faults.fetch_add(1, Ordering::Relaxed);
    }
    unlock(h, start);
    true
}

/// The hand-off, from a thread that may ask the fetch thread (async-signal-safe).
fn server() -> &'static Handoff {
    let Some(h) = handoff() else {
        die(b"capert: error: an invalid page was accessed and no fetch thread serves it (internal error; `CAPE_MERGE=eager` avoids it)\n");
    };
    if SERVER_TID.load(Ordering::Acquire) == gettid() {
        die(b"capert: error: the fetch thread touched an invalid page (internal error; `CAPE_MERGE=eager` avoids it)\n");
    }
    h
}

/// Takes the hand-off's lock: one request at a time.
fn lock(h: &Handoff) {
    while h
        .lock
        .compare_exchange(0, 1, Ordering::Acquire, Ordering::Relaxed)
        .is_err()
    {
        super::futex::wait(&h.lock, 1);
    }
}

fn unlock(h: &Handoff, start: u64) {
    h.lock.store(0, Ordering::Release);
    super::futex::wake_all(&h.lock);
    h.waited_ns.fetch_add(now_ns() - start, Ordering::Relaxed);
}

/// Under the lock, with the request in place: wakes the fetch thread and sleeps until it
/// served the request.
fn hand_over(h: &Handoff) {
    let ticket = h.requests.fetch_add(1, Ordering::AcqRel).wrapping_add(1);
    super::futex::wake_all(&h.requests);
    loop {
        let served = h.served.load(Ordering::Acquire);
        if served == ticket {
            break;
        }
        super::futex::wait(&h.served, served);
    }
}

/// Has the fetch thread install `addr`'s page if it is invalid (the runtime, before it reads
/// or writes a page itself); returns at once for a valid page.
pub fn validate(addr: usize) {
    serve(addr);
}

/// Has the fetch thread install the invalid pages among `pages` (page addresses, ascending
/// for the fewest gets) as a batch, and waits: one source call per `BATCH` of them, no fault
/// per page. Returns at once when none is invalid. Not for a signal handler (it allocates).
pub fn validate_pages(pages: impl IntoIterator<Item = usize>) {
    if INVALID.is_empty() {
        return;
    }
    let mut invalid: Vec<usize> = Vec::new();
    for page in pages {
        let page = page & !(PAGE_SIZE - 1);
        if invalid.last() != Some(&page) && is_invalid(page) {
            invalid.push(page);
        }
    }
    if invalid.is_empty() {
        return;
    }
    let h = server();
    let start = now_ns();
    lock(h);
    h.request.store(0, Ordering::Relaxed);
    h.batch.store(invalid.as_mut_ptr(), Ordering::Relaxed);
    h.batch_len.store(invalid.len(), Ordering::Relaxed);
    // `invalid` lives and stays unchanged until the fetch thread served the request
    hand_over(h);
    h.batch_len.store(0, Ordering::Relaxed);
    h.batch.store(std::ptr::null_mut(), Ordering::Relaxed);
    unlock(h, start);
}

/// [`validate_pages`] for every page of `[addr, addr + len)` (a buffer the kernel will read
/// or write, which does not fault as user code does; the shared memory of a region that
/// runs several threads per rank).
pub fn validate_range(addr: usize, len: usize) {
    if len == 0 || INVALID.is_empty() {
        return;
    }
    let end = addr.saturating_add(len);
    validate_pages(((addr & !(PAGE_SIZE - 1))..end).step_by(PAGE_SIZE));
}

/// Where the fetch thread gets pages' bytes: `(page addresses, buffer of PAGE_SIZE bytes per
/// page, in the same order)`. One call holds at most `BATCH` pages, whatever their homes.
pub type Source = Box<dyn FnMut(&[usize], &mut [u8]) -> Result<(), String> + Send>;

/// Most pages of one source call (1 MiB of buffer on the fetch thread).
pub const BATCH: usize = 256;

/// Starts the fetch thread (once per process); it serves faults until the process ends.
pub fn start_server(mut source: Source) -> io::Result<()> {
    if handoff().is_some() {
        return Err(io::Error::other("the fetch thread is already running"));
    }
    let h: &'static Handoff = Box::leak(Box::default());
    let (ready_tx, ready_rx) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .name("capert-fetch".into())
        .spawn(move || {
            let mut buf = vec![0u8; BATCH * PAGE_SIZE];
            let mut pages: Vec<usize> = Vec::with_capacity(BATCH);
            let mut readahead = Readahead::default();
            let mut seen = h.requests.load(Ordering::Acquire);
            SERVER_TID.store(gettid(), Ordering::Release);
            let _ = ready_tx.send(());
            loop {
                let now = h.requests.load(Ordering::Acquire);
                if now == seen {
                    super::futex::wait(&h.requests, seen);
                    continue;
                }
                seen = now;
                let batch_len = h.batch_len.load(Ordering::Relaxed);
                if batch_len == 0 {
                    // a fault: the page, and the invalid pages of its readahead, in one call
                    let page = h.request.load(Ordering::Relaxed);
                    let ahead = readahead.ahead(page);
                    pages.clear();
                    pages.push(page);
                    pages.extend(
                        (1..=ahead)
                            .map(|k| page + k * PAGE_SIZE)
                            .filter(|&next| is_invalid(next)),
                    );
                    fetch_and_install(&mut source, &pages, &mut buf);
                    h.ahead.fetch_add(pages.len() as u64 - 1, Ordering::Relaxed);
                } else {
                    // SAFETY: the requester keeps its list alive and unchanged until `served`
                    // reaches its ticket (`validate_pages`), which happens below.
                    let batch = unsafe {
                        std::slice::from_raw_parts(h.batch.load(Ordering::Relaxed), batch_len)
                    };
                    for chunk in batch.chunks(BATCH) {
                        pages.clear();
                        // the requester saw them invalid; nothing installs pages but this
                        // thread, so they still are (checked anyway: a page installed twice
                        // would lose what was written since)
                        pages.extend(chunk.iter().copied().filter(|&p| is_invalid(p)));
                        fetch_and_install(&mut source, &pages, &mut buf);
                        h.batched.fetch_add(pages.len() as u64, Ordering::Relaxed);
                    }
                }
                h.served.store(now, Ordering::Release);
                super::futex::wake_all(&h.served);
            }
        })?;
    ready_rx
        .recv()
        .map_err(|_| io::Error::other("the fetch thread did not start"))?;
    HANDOFF.store((h as *const Handoff).cast_mut(), Ordering::Release);
    Ok(())
}

/// The fetch thread: one source call for `pages` (at most `BATCH`), then each installed.
/// A failure ends the process: the thread waiting for the pages can never continue.
fn fetch_and_install(source: &mut Source, pages: &[usize], buf: &mut [u8]) {
    if pages.is_empty() {
        return;
    }
    let bytes = &mut buf[..pages.len() * PAGE_SIZE];
    let done = source(pages, bytes).and_then(|()| {
        pages
            .iter()
            .zip(bytes.chunks_exact(PAGE_SIZE))
            .try_for_each(|(&page, bytes)| {
                install(page, bytes).map_err(|e| format!("the page at {page:#x}: {e}"))
            })
    });
    if let Err(e) = done {
        eprintln!(
            "capert: error: cannot fetch {} page(s) from {:#x}: {e}",
            pages.len(),
            pages[0]
        );
        // SAFETY: _exit ends the process without running destructors that could wait for
        // the thread that asked, which can never continue.
        unsafe { libc::_exit(1) };
    }
}

/// Most pages installed ahead of one fault.
const MAX_AHEAD: usize = 64;

/// Like the kernel's readahead: a fault a little past the pages scanned for the last one
/// (valid pages between invalid ones are common: a stencil changes a few pages per row), for
/// the second time in a row or more, also installs the invalid pages among the next ones,
/// twice as many each time (2, 4, ... `MAX_AHEAD`), so a sequential reader (a checksum over
/// another rank's block, a copy) pays one fault per window instead of one per page, while a
/// reader of a few pages (a stencil's halo row) gets at most as many pages again as it read.
#[derive(Debug, Default)]
struct Readahead {
    last_fault: usize,
    /// The page after the last one scanned.
    next: usize,
    /// Sequential faults in a row.
    sequential: u32,
}

/// A fault at most this many pages past the scanned ones still counts as sequential.
const SEQUENTIAL_GAP: usize = 8;

impl Readahead {
    /// How many pages after the faulting `page` to scan, installing the invalid ones.
    fn ahead(&mut self, page: usize) -> usize {
        let near = page > self.last_fault && page <= self.next + SEQUENTIAL_GAP * PAGE_SIZE;
        self.sequential = if near { self.sequential + 1 } else { 0 };
        self.last_fault = page;
        let ahead = match self.sequential {
            0 | 1 => 0,
            s => (1usize << (s - 1).min(6)).min(MAX_AHEAD),
        };
        self.next = page + (ahead + 1) * PAGE_SIZE;
        ahead
    }
}

/// `/proc/self/mem`, opened by `publish`: writes through it reach a `PROT_NONE` page (the
/// kernel's forced access, as a debugger's), so a page is filled before it is opened. -1
/// where it cannot be opened.
static SELF_MEM: AtomicI32 = AtomicI32::new(-1);

fn open_self_mem() {
    if SELF_MEM.load(Ordering::Relaxed) >= 0 {
        return;
    }
    // SAFETY: a NUL-terminated path; the descriptor is kept for the life of the process.
    let fd = unsafe { libc::open(c"/proc/self/mem".as_ptr(), libc::O_RDWR | libc::O_CLOEXEC) };
    SELF_MEM.store(fd, Ordering::Relaxed);
}

/// Writes the page's bytes while it is still inaccessible; false where the kernel refuses
/// forced writes (`proc_mem.force_override=never`, or no `/proc`).
fn fill_closed(page: usize, bytes: &[u8]) -> bool {
    let fd = SELF_MEM.load(Ordering::Relaxed);
    if fd < 0 {
        return false;
    }
    // SAFETY: writes PAGE_SIZE bytes of `bytes` at the page's address in this process, which
    // no other thread can access until it is opened below.
    let n = unsafe {
        libc::pwrite(
            fd,
            bytes.as_ptr() as *const libc::c_void,
            PAGE_SIZE,
            page as libc::off_t,
        )
    };
    n == PAGE_SIZE as isize
}

fn protect(page: usize, prot: libc::c_int) -> Result<(), String> {
    // SAFETY: changes the protection of one page of tracked memory whose bytes are in place.
    if unsafe { libc::mprotect(page as *mut libc::c_void, PAGE_SIZE, prot) } != 0 {
        return Err(format!("mprotect: {}", io::Error::last_os_error()));
    }
    Ok(())
}

/// Writes `bytes` into the invalid page at `page` and its twin, marks it valid and protects
/// it as the tracker expects of a page whose twin equals memory. The bytes are in place
/// (through `/proc/self/mem`) and the uffd write protection is set before the page becomes
/// accessible, so another thread of the rank never reads stale bytes nor writes untracked.
/// Where forced writes are refused, the page is opened first and filled (the old order,
/// which needs the rank's other threads to stay off the page).
pub fn install(page: usize, bytes: &[u8]) -> Result<(), String> {
    let slot = INVALID.find(page).ok_or("the page is not tracked")?;
    if bytes.len() != PAGE_SIZE {
        return Err(format!("{} bytes for one page", bytes.len()));
    }
    let twin = slot.twin() + (page - slot.start());
    // SAFETY: the twin page belongs to the same slot and only the tracker (which does not run
    // while a fault is served) writes it otherwise.
    unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), twin as *mut u8, PAGE_SIZE) };
    let after = AFTER.load(Ordering::Relaxed);
    let (word, bit) = slot.bit(page);
    if super::missing::covers(page) {
        // dropped, not `PROT_NONE`: the page appears filled and write-protected at once
        super::missing::install(page, bytes, after == AFTER_UFFD_WP)
            .map_err(|e| format!("UFFDIO_COPY: {e}"))?;
        word.fetch_and(!bit, Ordering::AcqRel);
        return Ok(());
    }
    let rw = libc::PROT_READ | libc::PROT_WRITE;
    let filled = fill_closed(page, bytes);
    if !filled {
        protect(page, rw)?;
        // SAFETY: the page is now writable; the faulting thread sleeps until we are done.
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), page as *mut u8, PAGE_SIZE) };
    }
    if after == AFTER_UFFD_WP {
        // kept by mprotect: the page opens write-protected
        super::uffd::write_protect_fd(UFFD_FD.load(Ordering::Relaxed), page, PAGE_SIZE)
            .map_err(|e| format!("UFFDIO_WRITEPROTECT: {e}"))?;
    }
    if after == AFTER_READ_ONLY && super::signals::armed() {
        // read-only is how the armed mprotect tracker keeps pages it has not seen written
        protect(page, libc::PROT_READ)?;
    } else if filled {
        protect(page, rw)?;
    }
    // valid once accessible: a thread that faulted on it meanwhile finds it valid and retries
    word.fetch_and(!bit, Ordering::AcqRel);
    Ok(())
}

/// Pages fetched (at a fault, installed ahead of one, or in a batch) and the time the
/// threads that asked waited for them (nanoseconds), since start.
pub fn counters() -> (u64, u64) {
    handoff().map_or((0, 0), |h| {
        (
            h.faults.load(Ordering::Relaxed)
                + h.ahead.load(Ordering::Relaxed)
                + h.batched.load(Ordering::Relaxed),
            h.waited_ns.load(Ordering::Relaxed),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pages scanned for each fault of `faults` (page numbers).
    fn scanned(faults: &[usize]) -> Vec<Vec<usize>> {
        let mut r = Readahead::default();
        faults
            .iter()
            .map(|&f| (f..=f + r.ahead(f * PAGE_SIZE)).collect())
            .collect()
    }

    #[test]
    fn readahead_grows_on_sequential_faults_only() {
        // a halo row of five invalid pages: three faults, nothing past the row
        assert_eq!(
            scanned(&[10, 11, 12]),
            [vec![10], vec![11], vec![12, 13, 14]]
        );
        // a long sequential read: the window doubles up to MAX_AHEAD
        let long = scanned(&[100, 101, 102, 105, 110, 119, 136, 169, 234, 299]);
        let sizes: Vec<usize> = long.iter().map(Vec::len).collect();
        assert_eq!(sizes, [1, 1, 3, 5, 9, 17, 33, 65, 65, 65]);
        // every fourth page invalid (valid ones between): still sequential
        let sparse = scanned(&[200, 204, 208, 212]);
        assert_eq!(sparse[3].len(), 5);
        // scattered or backward faults: one page each
        assert!(scanned(&[5, 50, 7, 70, 9]).iter().all(|p| p.len() == 1));
        assert!(scanned(&[30, 29, 28, 27]).iter().all(|p| p.len() == 1));
    }

    /// `install`'s fill of a page that is still inaccessible: the bytes are there when it
    /// opens, and it stayed closed meanwhile.
    #[test]
    fn a_closed_page_is_filled_before_it_opens() {
        // SAFETY: a private anonymous page of this test, unmapped at the end.
        let page = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                PAGE_SIZE,
                libc::PROT_NONE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        assert_ne!(page, libc::MAP_FAILED);
        open_self_mem();
        let bytes: Vec<u8> = (0..PAGE_SIZE).map(|i| (i * 7 + 3) as u8).collect();
        if !fill_closed(page as usize, &bytes) {
            eprintln!("forced writes to /proc/self/mem are refused here: install opens first");
        } else {
            let maps = std::fs::read_to_string("/proc/self/maps").unwrap();
            let holds = |l: &&str| {
                let range = l.split(' ').next().unwrap_or("");
                let (lo, hi) = range.split_once('-').unwrap_or(("0", "0"));
                let at = |h: &str| usize::from_str_radix(h, 16).unwrap_or(0);
                (at(lo)..at(hi)).contains(&(page as usize))
            };
            let line = maps.lines().find(holds).unwrap();
            assert!(line.contains(" ---p "), "the page opened: {line}");
            protect(page as usize, libc::PROT_READ).unwrap();
            // SAFETY: the page is readable now and PAGE_SIZE long.
            let seen = unsafe { std::slice::from_raw_parts(page as *const u8, PAGE_SIZE) };
            assert_eq!(seen, &bytes[..]);
        }
        // SAFETY: the page mapped above.
        unsafe { libc::munmap(page, PAGE_SIZE) };
    }
}
