//! SIGSEGV handler of the mprotect tracker and of invalid pages (`invalid.rs`), and SIGBUS
//! handler of invalid pages dropped in missing mode (`missing.rs`).
//!
//! The handler is async-signal-safe: it only reads a fixed static table of tracked ranges
//! (published by the tracker while no region runs), sets a bit in a preallocated bitmap, copies the
//! page into its preallocated twin and unprotects it. No allocation, no locks, no panics. Faults it
//! does not own go to the previous handler (Open MPI, Rust's stack-overflow handler, ...) or, if
//! there was none, to the default action.

use std::cell::UnsafeCell;
use std::mem::MaybeUninit;
use std::sync::atomic::{
    AtomicBool, AtomicI32, AtomicPtr, AtomicU64, AtomicU8, AtomicUsize, Ordering,
};
use std::sync::Once;

use super::mprotect::PAGE_SIZE;

/// Capacity of the handler's range table (the arena grows in few, large steps).
pub const MAX_RANGES: usize = 1024;

/// One tracked range as a signal handler sees it.
pub struct RangeSlot {
    start: AtomicUsize,
    end: AtomicUsize,
    twin: AtomicUsize,
    bitmap: AtomicPtr<AtomicU64>,
}

impl RangeSlot {
    pub fn start(&self) -> usize {
        self.start.load(Ordering::Relaxed)
    }

    /// The start of the range's twin (same layout as the range).
    pub fn twin(&self) -> usize {
        self.twin.load(Ordering::Relaxed)
    }

    /// The word of the bitmap holding `page`'s bit, and the bit.
    pub fn bit(&self, page: usize) -> (&AtomicU64, u64) {
        let index = (page - self.start()) / PAGE_SIZE;
        let bitmap = self.bitmap.load(Ordering::Relaxed);
        // SAFETY: the bitmap has one bit per page of the slot's range and outlives the
        // publication (the publisher's contract).
        let word = unsafe { &*bitmap.add(index / 64) };
        (word, 1u64 << (index % 64))
    }
}

#[allow(clippy::declare_interior_mutable_const)]
const EMPTY_SLOT: RangeSlot = RangeSlot {
    start: AtomicUsize::new(0),
    end: AtomicUsize::new(0),
    twin: AtomicUsize::new(0),
    bitmap: AtomicPtr::new(std::ptr::null_mut()),
};

/// A fixed table of ranges that a signal handler can search: no allocation, no lock.
pub struct RangeTable {
    slots: [RangeSlot; MAX_RANGES],
    count: AtomicUsize,
}

impl RangeTable {
    pub const fn new() -> RangeTable {
        RangeTable {
            slots: [EMPTY_SLOT; MAX_RANGES],
            count: AtomicUsize::new(0),
        }
    }

    /// Replaces the table; `ranges` sorted by start, each bitmap living until the next
    /// `publish` or `clear`. Err(capacity) when there are too many.
    pub fn publish(&self, ranges: &[PublishedRange<'_>]) -> Result<(), usize> {
        if ranges.len() > MAX_RANGES {
            return Err(MAX_RANGES);
        }
        self.count.store(0, Ordering::Release);
        for (slot, range) in self.slots.iter().zip(ranges) {
            slot.start.store(range.start, Ordering::Relaxed);
            slot.end.store(range.end, Ordering::Relaxed);
            slot.twin.store(range.twin, Ordering::Relaxed);
            slot.bitmap
                .store(range.bitmap.as_ptr() as *mut AtomicU64, Ordering::Relaxed);
        }
        self.count.store(ranges.len(), Ordering::Release);
        Ok(())
    }

    /// Empties the table (before the bitmaps it points to are freed).
    pub fn clear(&self) {
        self.count.store(0, Ordering::Release);
    }

    pub fn is_empty(&self) -> bool {
        self.count.load(Ordering::Acquire) == 0
    }

    /// The slot of the range holding `addr`.
    pub fn find(&self, addr: usize) -> Option<&RangeSlot> {
        let count = self.count.load(Ordering::Acquire).min(MAX_RANGES);
        let slots = &self.slots[..count];
        let index = slots.partition_point(|s| s.end.load(Ordering::Relaxed) <= addr);
        slots
            .get(index)
            .filter(|s| s.start.load(Ordering::Relaxed) <= addr)
    }
}

impl Default for RangeTable {
    fn default() -> Self {
        RangeTable::new()
    }
}

/// The tracked ranges with their written-page bitmaps.
static TRACKED: RangeTable = RangeTable::new();
static ARMED: AtomicBool = AtomicBool::new(false);
/// errno of the first failed per-page unprotect of the current region (0: none).
static FAILED_ERRNO: AtomicI32 = AtomicI32::new(0);

struct PreviousAction(UnsafeCell<MaybeUninit<libc::sigaction>>);
// SAFETY: written once inside `INSTALL` before our handler is installed, read-only afterwards.
unsafe impl Sync for PreviousAction {}
static PREVIOUS: PreviousAction = PreviousAction(UnsafeCell::new(MaybeUninit::uninit()));
static INSTALL: Once = Once::new();
static INSTALL_ERRNO: AtomicI32 = AtomicI32::new(0);
static PREVIOUS_SIGBUS: PreviousAction = PreviousAction(UnsafeCell::new(MaybeUninit::uninit()));
static INSTALL_SIGBUS: Once = Once::new();
static INSTALL_SIGBUS_ERRNO: AtomicI32 = AtomicI32::new(0);

/// A range handed to `publish`: the bitmap has one bit per page and lives until `clear`.
pub struct PublishedRange<'a> {
    pub start: usize,
    pub end: usize,
    pub twin: usize,
    pub bitmap: &'a [AtomicU64],
}

/// Installs the handler once per process (later calls report the first result). The previous
/// action is kept for chaining; it is never restored, so that handlers installed later (Open MPI)
/// that chain to ours keep working.
pub fn install() -> std::io::Result<()> {
    install_handler(
        libc::SIGSEGV,
        on_sigsegv,
        &INSTALL,
        &PREVIOUS,
        &INSTALL_ERRNO,
    )
}

/// Installs the SIGBUS handler of missing-mode invalid pages once per process, as `install`.
pub fn install_sigbus() -> std::io::Result<()> {
    install_handler(
        libc::SIGBUS,
        on_sigbus,
        &INSTALL_SIGBUS,
        &PREVIOUS_SIGBUS,
        &INSTALL_SIGBUS_ERRNO,
    )
}

type Handler = extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void);

fn install_handler(
    signal: libc::c_int,
    handler: Handler,
    once: &Once,
    previous: &'static PreviousAction,
    failed: &AtomicI32,
) -> std::io::Result<()> {
    once.call_once(|| {
        let previous = previous.0.get() as *mut libc::sigaction;
        // SAFETY: reads the current action into our static (inside the Once, before
        // installation, so the handler cannot observe it half-written).
        let rc = unsafe { libc::sigaction(signal, std::ptr::null(), previous) };
        if rc != 0 {
            failed.store(errno(), Ordering::Relaxed);
            return;
        }
        // SAFETY: a zeroed sigaction is a valid "no flags, empty mask" starting point; the handler
        // has the SA_SIGINFO signature.
        let rc = unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = handler as *const () as usize;
            action.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(signal, &action, std::ptr::null_mut())
        };
        if rc != 0 {
            failed.store(errno(), Ordering::Relaxed);
        }
    });
    match failed.load(Ordering::Relaxed) {
        0 => Ok(()),
        e => Err(std::io::Error::from_raw_os_error(e)),
    }
}

/// Replaces the handler's range table. Call only while disarmed; `ranges` sorted by start.
pub fn publish(ranges: &[PublishedRange<'_>]) -> Result<(), usize> {
    TRACKED.publish(ranges)
}

/// Empties the table (before the bitmaps it points to are freed).
pub fn clear() {
    ARMED.store(false, Ordering::SeqCst);
    TRACKED.clear();
}

/// From now on, write faults in published ranges are recorded.
pub fn arm() {
    FAILED_ERRNO.store(0, Ordering::Relaxed);
    ARMED.store(true, Ordering::SeqCst);
}

pub fn disarm() {
    ARMED.store(false, Ordering::SeqCst);
}

/// Is a region armed (write faults in published ranges recorded)?
pub fn armed() -> bool {
    ARMED.load(Ordering::SeqCst)
}

/// Makes the pages of `[addr, addr + len)` that lie in tracked ranges writable before the
/// kernel writes them (`read`, `pread`, `recv` ...): the kernel does not fault on a
/// write-protected page as user code does, it fails with `EFAULT`. Each such page takes one
/// store-like access here, which faults (and is recorded) only where the page is protected.
/// `addr .. addr + len` must be memory the program hands the kernel to write.
pub fn prepare_kernel_write(addr: usize, len: usize) {
    if len == 0 || addr == 0 || !ARMED.load(Ordering::Acquire) {
        return;
    }
    let end = addr.saturating_add(len);
    let mut p = addr;
    while p < end {
        if TRACKED.find(p).is_some() {
            // SAFETY: `p` lies in the buffer the program gives the kernel to write (the
            // caller's contract), so it is mapped and the program may write it. A
            // compare-exchange of the byte with its own value changes nothing, even beside
            // another thread's store, but is a write access: on a protected page it faults
            // into `on_sigsegv`, which records and unprotects the page.
            let byte = unsafe { &*(p as *const AtomicU8) };
            let value = byte.load(Ordering::Relaxed);
            let _ = byte.compare_exchange(value, value, Ordering::Relaxed, Ordering::Relaxed);
        }
        p = (p & !(PAGE_SIZE - 1)) + PAGE_SIZE;
    }
}

/// errno of a per-page unprotect that failed during the region, if any.
pub fn failure() -> Option<i32> {
    match FAILED_ERRNO.load(Ordering::Acquire) {
        0 => None,
        e => Some(e),
    }
}

/// This thread's `errno`.
pub(crate) fn errno() -> i32 {
    // SAFETY: __errno_location returns this thread's errno slot; always valid.
    unsafe { *libc::__errno_location() }
}

/// Sets this thread's `errno`.
pub(crate) fn set_errno(value: i32) {
    // SAFETY: as in `errno`.
    unsafe { *libc::__errno_location() = value };
}

/// Records the first write to `addr`'s page: before-image into the twin, then unprotect.
fn record_write(slot: &RangeSlot, addr: usize) {
    let start = slot.start();
    let page = addr & !(PAGE_SIZE - 1);
    let (word, bit) = slot.bit(page);
    if word.fetch_or(bit, Ordering::Relaxed) & bit == 0 {
        let twin = slot.twin() + (page - start);
        // SAFETY: the page is mapped read-only (that is why we fault), the twin page belongs to
        // the same slot and nothing else writes it during a region; regions do not overlap.
        unsafe { std::ptr::copy_nonoverlapping(page as *const u8, twin as *mut u8, PAGE_SIZE) };
    }
    // SAFETY: unprotects one page of a tracked range.
    let rc = unsafe {
        libc::mprotect(
            page as *mut libc::c_void,
            PAGE_SIZE,
            libc::PROT_READ | libc::PROT_WRITE,
        )
    };
    if rc == 0 {
        return;
    }
    // Usually ENOMEM: splitting the mapping would exceed vm.max_map_count. Give up tracking this
    // range (end_region reports the error) so that the program can still reach end_region.
    let _ = FAILED_ERRNO.compare_exchange(0, errno(), Ordering::AcqRel, Ordering::Relaxed);
    let end = slot.end.load(Ordering::Relaxed);
    // SAFETY: unprotects the whole tracked range (merging its mappings again).
    let rc = unsafe {
        libc::mprotect(
            start as *mut libc::c_void,
            end - start,
            libc::PROT_READ | libc::PROT_WRITE,
        )
    };
    if rc != 0 {
        const MSG: &[u8] = b"capert: error: cannot unprotect a tracked page (too many mappings: \
raise `vm.max_map_count` or use `CAPE_TRACKER=uffd`)\n";
        // SAFETY: write(2) and _exit(2) are async-signal-safe; the buffer is static.
        unsafe {
            libc::write(2, MSG.as_ptr() as *const libc::c_void, MSG.len());
            libc::_exit(1);
        }
    }
}

extern "C" fn on_sigsegv(
    signal: libc::c_int,
    info: *mut libc::siginfo_t,
    context: *mut libc::c_void,
) {
    let saved_errno = errno();
    // SAFETY: the kernel passes a valid siginfo for an SA_SIGINFO handler.
    let addr = unsafe { (*info).si_addr() } as usize;
    // an invalid page of the demand-driven merge: fetched, then the access is retried
    if super::invalid::serve(addr) {
        set_errno(saved_errno);
        return;
    }
    if ARMED.load(Ordering::Acquire) {
        if let Some(slot) = TRACKED.find(addr) {
            record_write(slot, addr);
            set_errno(saved_errno);
            return;
        }
    }
    set_errno(saved_errno);
    chain(&PREVIOUS, signal, info, context);
}

extern "C" fn on_sigbus(
    signal: libc::c_int,
    info: *mut libc::siginfo_t,
    context: *mut libc::c_void,
) {
    let saved_errno = errno();
    // SAFETY: the kernel passes a valid siginfo for an SA_SIGINFO handler.
    let addr = unsafe { (*info).si_addr() } as usize;
    // a dropped invalid page: fetched (installed by UFFDIO_COPY), then the access is retried
    let retry = super::invalid::serve(addr) || super::missing::fill_hole(addr);
    set_errno(saved_errno);
    if !retry {
        chain(&PREVIOUS_SIGBUS, signal, info, context);
    }
}

fn chain(
    previous: &PreviousAction,
    signal: libc::c_int,
    info: *mut libc::siginfo_t,
    context: *mut libc::c_void,
) {
    // SAFETY: the previous action was fully written before this handler was installed.
    let previous = unsafe { (*previous.0.get()).assume_init_ref() };
    let target = previous.sa_sigaction;
    if target == libc::SIG_DFL || target == libc::SIG_IGN {
        // Restore the default action and return: the faulting instruction runs again and the
        // kernel kills the process with SIGSEGV, as without us.
        // SAFETY: sigaction is async-signal-safe; a zeroed action is SIG_DFL with no flags.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = libc::SIG_DFL;
            libc::sigaction(signal, &action, std::ptr::null_mut());
        }
    } else if previous.sa_flags & libc::SA_SIGINFO != 0 {
        // SAFETY: the previous action declared SA_SIGINFO, so `target` has this signature.
        let handler: extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void) =
            unsafe { std::mem::transmute(target) };
        handler(signal, info, context);
    } else {
        // SAFETY: without SA_SIGINFO, `target` is a plain `void (*)(int)` handler.
        let handler: extern "C" fn(libc::c_int) = unsafe { std::mem::transmute(target) };
        handler(signal);
    }
}
