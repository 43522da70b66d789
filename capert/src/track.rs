//! Page tracking: which pages of the shared ranges a rank wrote during a region, and their
//! before-images ("twins").
//!
//! Two backends (see docs/tracker.md):
//! - `Uffd`: userfaultfd `WP_ASYNC` + `PAGEMAP_SCAN`. Writes are recorded by the kernel without a
//!   signal; one ioctl reads the written pages and re-arms them. Twins are kept incrementally: at
//!   region begin only pages written since the last sync are copied. Kernel writes (`read(2)`, MPI
//!   receives) are recorded like user writes.
//!   Write-fault elision (both backends): a page written two regions ago is predicted to be
//!   written again (this
//!   covers pages written in every region and pages written in alternate regions, as by a
//!   two-array stencil) and is left writable during the region (no write fault in the user's
//!   loop); it is reported as written at the region end, and the caller's diff tells whether it
//!   changed (`unchanged`, or `commit`'s own comparison): a predicted page that did not change
//!   counts as not written. Predicting every page written in one of
//!   the last two regions diffed twice the pages of a two-array stencil, which cost more than
//!   the faults it saved. A small set of predicted pages (also pages injected into after the
//!   region before the last) is kept writable between regions (`kept`): copied into the twins
//!   at region begin and reported at region end, neither scanned nor protected.
//! - `Mprotect`: ranges are read-only during a region; the SIGSEGV handler copies the page into
//!   its twin and unprotects it. Outside regions everything is writable, so kernel writes work
//!   there; a kernel write into a not-yet-written tracked page *inside* a region fails with EFAULT.
//!   Twins are filled lazily by the handler; `twin()` of a page not written in the region is the
//!   page itself, which is its before-image because it was read-only all region long.
//!   Predicted pages (write-fault elision) are copied into their twins at region begin, marked
//!   written and left writable: a memcpy instead of a signal and an mprotect per page, and
//!   kernel writes into them work.

use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crate::sys::mprotect::{TrackedSpan, TwinMapping};
use crate::sys::signals::{self, PublishedRange};
use crate::sys::uffd::{PagemapScan, Uffd};

mod injection;
mod invalid;
mod kept;
mod kind;
mod pairs;
mod prediction;
mod probe;
mod uffd_scans;
pub use kept::KEEP_MAX_PAGES;
use kind::{err, protect_error};
pub use kind::{TrackError, TrackerKind};
pub use pairs::PagePair;
use prediction::Prediction;
use probe::{file_backed_parts, probe_uffd};

pub const PAGE_SIZE: usize = crate::sys::mprotect::PAGE_SIZE;

/// Only one tracker per process: the SIGSEGV handler's table is a static.
static TRACKER_ALIVE: AtomicBool = AtomicBool::new(false);

struct Range {
    span: TrackedSpan,
    twin: TwinMapping,
    /// mprotect only: one bit per page, set by the signal handler on the first write in a region.
    written: Box<[AtomicU64]>,
    /// One bit per page: the page is invalid (`track/invalid.rs`), cleared when it is installed.
    invalid: Box<[AtomicU64]>,
}

impl Range {
    fn start(&self) -> usize {
        self.span.start()
    }
    fn end(&self) -> usize {
        self.span.start() + self.span.len()
    }
    fn written_in_region(&self, page: usize) -> bool {
        let index = (page - self.start()) / PAGE_SIZE;
        self.written[index / 64].load(Ordering::Relaxed) & (1 << (index % 64)) != 0
    }
}

enum Backend {
    Uffd { uffd: Uffd, scan: PagemapScan },
    Mprotect,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Outside a region: memory writable, ranges may be added.
    Idle,
    /// Between begin_region and end_region.
    Running,
    /// Between end_region and finish_region.
    Ended,
}

/// Process-wide page tracker (only one may exist: the SIGSEGV handler finds it through a static).
pub struct Tracker {
    backend: Backend,
    /// Sorted by start, disjoint.
    ranges: Vec<Range>,
    phase: Phase,
    /// Pages that may have changed since the last `take_dirty` (when enabled, for the
    /// fault-tolerance fingerprint): reported by scans, written pages, injections, new ranges.
    dirty: Option<Vec<usize>>,
    /// A scan was limited to a write scope since the last `take_dirty`: `dirty` may miss
    /// pages written outside it.
    dirty_partial: bool,
    /// Write-fault elision (uffd only; None when off).
    prediction: Option<Prediction>,
    /// uffd: pages written by `inject` since the last `protect_injected`/`begin_region`.
    injected: Vec<usize>,
    /// uffd: every populated page outside the stack is write-protected since end_region's scan
    /// (nothing but `inject` wrote since): `expect_injections` may unprotect pages for a while.
    protected_since_scan: bool,
    /// uffd: the memory the scans look at (sorted, disjoint, page aligned), set per region
    /// from the compiler's write scope; everything by default. See [`Tracker::set_scope`].
    scope: Vec<(usize, usize)>,
    /// uffd: the pages kept writable between regions (`track/kept.rs`).
    kept: kept::Kept,
    /// uffd with invalid pages served: the tracked memory registered in missing mode, where
    /// pages are invalidated by dropping them (`track/invalid.rs`); None before.
    missing: Option<Vec<(usize, usize)>>,
}

/// How many of `ranges` (sorted, non-empty) from the first on are contiguous: one scan
/// covers them (the arena and the stack are tracked in adjacent pieces as they grow).
fn adjacent(ranges: &[Range]) -> usize {
    1 + ranges
        .windows(2)
        .take_while(|w| w[0].end() == w[1].start())
        .count()
}

/// uffd: predicted runs shorter than this stay protected: unprotecting a page and protecting
/// it again (two TLB flushes) costs more than the one write fault it spares.
const MIN_ELIDED_RUN: usize = 2;

/// The scope that covers all memory.
const EVERYTHING: (usize, usize) = (0, usize::MAX);

use crate::runs::clipped;

impl fmt::Debug for Tracker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tracker")
            .field("kind", &self.kind())
            .field("ranges", &self.ranges.len())
            .field("phase", &self.phase)
            .finish()
    }
}

impl Tracker {
    /// Must be called BEFORE MPI_Init (installs the SIGSEGV handler for the mprotect backend,
    /// chaining to any previous handler). `want`: None = best available (uffd if the kernel offers
    /// WP_ASYNC and PAGEMAP_SCAN and we may open a userfaultfd, else mprotect). Returns the tracker
    /// and a one-line reason for the choice (printed under CAPE_VERBOSE=1).
    pub fn new(want: Option<TrackerKind>) -> Result<(Tracker, String), TrackError> {
        if TRACKER_ALIVE.swap(true, Ordering::AcqRel) {
            return Err(err("a page tracker already exists in this process".into()));
        }
        let made = Self::choose(want);
        if made.is_err() {
            TRACKER_ALIVE.store(false, Ordering::Release);
        }
        made
    }

    fn choose(want: Option<TrackerKind>) -> Result<(Tracker, String), TrackError> {
        let uffd_failure = match want {
            Some(TrackerKind::Mprotect) => None,
            _ => match probe_uffd() {
                Ok((backend, how)) => {
                    let tracker = Tracker {
                        backend,
                        ranges: Vec::new(),
                        phase: Phase::Idle,
                        dirty: None,
                        dirty_partial: false,
                        prediction: Some(Prediction::default()),
                        injected: Vec::new(),
                        protected_since_scan: false,
                        scope: vec![EVERYTHING],
                        kept: kept::Kept::default(),
                        missing: None,
                    };
                    let why = format!(
                        "page tracker: uffd (userfaultfd WP_ASYNC + PAGEMAP_SCAN via {how})"
                    );
                    return Ok((tracker, why));
                }
                Err(reason) if want == Some(TrackerKind::Uffd) => {
                    return Err(err(format!(
                        "`CAPE_TRACKER=uffd` is not available: {reason}; use `CAPE_TRACKER=mprotect`"
                    )));
                }
                Err(reason) => Some(reason),
            },
        };
        signals::install().map_err(|e| {
            err(format!(
                "cannot install the SIGSEGV handler of the mprotect page tracker: {e}"
            ))
        })?;
        let tracker = Tracker {
            backend: Backend::Mprotect,
            ranges: Vec::new(),
            phase: Phase::Idle,
            dirty: None,
            dirty_partial: false,
            prediction: Some(Prediction::default()),
            injected: Vec::new(),
            protected_since_scan: false,
            scope: vec![EVERYTHING],
            kept: kept::Kept::default(),
            missing: None,
        };
        let why = match uffd_failure {
            None => "page tracker: mprotect (selected by `CAPE_TRACKER`)".to_string(),
            Some(reason) => format!("page tracker: mprotect (uffd unavailable: {reason})"),
        };
        Ok((tracker, why))
    }

    pub fn kind(&self) -> TrackerKind {
        match self.backend {
            Backend::Uffd { .. } => TrackerKind::Uffd,
            Backend::Mprotect => TrackerKind::Mprotect,
        }
    }

    /// Turns write-fault elision on or off (`CAPE_WP_ELISION`; on by default). Call outside a
    /// region.
    pub fn set_write_fault_elision(&mut self, on: bool) {
        if !on {
            self.prediction = None;
        } else if self.prediction.is_none() {
            self.prediction = Some(Prediction::default());
        }
    }

    /// Limits the uffd scans of the regions to come (begin and end, every epoch) to `scope`:
    /// sorted, disjoint, page-aligned byte ranges holding every page the program can write
    /// until the scope changes (the compiler's write scope of a region plus the stack); `None`:
    /// all tracked memory. Pages outside the scope written meanwhile keep their state (not
    /// protected, twin behind) until a scan covers them, which then finds them as usual.
    /// The mprotect backend protects everything regardless. Call outside a region.
    pub fn set_scope(&mut self, scope: Option<&[(usize, usize)]>) {
        self.scope.clear();
        match scope {
            Some(pieces) => {
                self.scope.extend_from_slice(pieces);
                // the fault-tolerance fingerprint, if one is computed next, starts afresh
                self.dirty_partial |= self.dirty.is_some();
            }
            None => self.scope.push(EVERYTHING),
        }
    }

    /// Is write-fault elision on?
    pub fn write_fault_elision(&self) -> bool {
        self.prediction.is_some()
    }

    /// Start tracking [start, start+len): page aligned, mapped read/write, and kept mapped while
    /// the tracker lives. The twin is initialised to the current content (untouched anonymous pages
    /// read as zero and need no copy). Ranges may be added at any time outside a region.
    pub fn add_range(&mut self, start: usize, len: usize) -> Result<(), TrackError> {
        if self.phase != Phase::Idle {
            return Err(err(
                "tracked ranges can only be added outside a parallel region".into(),
            ));
        }
        if len == 0 || !start.is_multiple_of(PAGE_SIZE) || !len.is_multiple_of(PAGE_SIZE) {
            return Err(err(format!(
                "tracked range {start:#x}+{len:#x} is not a non-empty page-aligned range"
            )));
        }
        let end = start
            .checked_add(len)
            .ok_or_else(|| err(format!("tracked range {start:#x}+{len:#x} overflows")))?;
        let index = self.ranges.partition_point(|r| r.end() <= start);
        if self.ranges.get(index).is_some_and(|r| r.start() < end) {
            return Err(err(format!(
                "tracked range {start:#x}..{end:#x} overlaps a tracked range"
            )));
        }
        let span = TrackedSpan::checked(start, len).map_err(|e| {
            err(format!(
                "cannot track {start:#x}..{end:#x}: not mapped read/write ({e})"
            ))
        })?;
        // uffd: huge pages keep the scans of untouched memory cheap (measured in docs/tracker.md);
        // mprotect: 4 KiB pages, so that unprotecting one page does not split a huge one.
        // EINVAL only when the kernel has no transparent huge pages at all: nothing to choose.
        let advice = match self.backend {
            Backend::Uffd { .. } => span.huge_pages(),
            Backend::Mprotect => span.no_huge_pages(),
        };
        if let Err(e) = advice {
            if e.raw_os_error() != Some(libc::EINVAL) {
                return Err(err(format!(
                    "cannot track {start:#x}..{end:#x}: madvise: {e}"
                )));
            }
        }
        let mut twin = TwinMapping::new(len).map_err(|e| {
            err(format!(
                "cannot map a {len}-byte twin for tracked memory: {e}"
            ))
        })?;
        if let (Backend::Uffd { .. }, Err(e)) = (&self.backend, twin.huge_pages()) {
            if e.raw_os_error() != Some(libc::EINVAL) {
                return Err(err(format!(
                    "cannot map a twin in huge pages: madvise: {e}"
                )));
            }
        }
        if let Backend::Uffd { .. } = self.backend {
            // the mprotect tracker's signal handler writes twins behind the marks' back
            twin.mark_zero_pages();
        }
        let pages = len / PAGE_SIZE;
        let invalid = (0..pages.div_ceil(64)).map(|_| AtomicU64::new(0)).collect();
        let written: Box<[AtomicU64]> = match self.backend {
            Backend::Mprotect => (0..pages.div_ceil(64)).map(|_| AtomicU64::new(0)).collect(),
            Backend::Uffd { .. } => Box::new([]),
        };
        match &mut self.backend {
            Backend::Uffd { uffd, scan } => {
                let uffd_err = |what: &str, e: std::io::Error| {
                    err(format!("cannot track {start:#x}..{end:#x} with userfaultfd: {what}: {e}; try `CAPE_TRACKER=mprotect`"))
                };
                uffd.register_wp(start, len)
                    .map_err(|e| uffd_err("register", e))?;
                // Only populated pages are write-protected: protecting holes would allocate page
                // tables there and rule out huge pages. A first write into a hole creates a page
                // that is not write-protected, so the next scan reports it anyway.
                // Protect first, copy second: a write in between is seen at the next sync.
                // File-backed parts (`.data`) read as file content, not zero, where no page is
                // mapped yet: protect and copy them whole.
                let mut populated = file_backed_parts(start, end);
                let copied = scan
                    .populated(start, end, |from, to| populated.push((from, to)))
                    .map_err(|e| uffd_err("PAGEMAP_SCAN", e))
                    .and_then(|()| {
                        for &(from, to) in &populated {
                            uffd.write_protect(from, to - from)
                                .map_err(|e| uffd_err("write-protect", e))?;
                            twin.bytes_mut(from - start, to - from)
                                .copy_from_slice(span.bytes(from - start, to - from));
                        }
                        Ok(())
                    });
                if let Err(e) = copied {
                    let _ = uffd.unregister(start, len);
                    return Err(e);
                }
            }
            Backend::Mprotect => {
                // Twins are filled by the signal handler at the first write of each region.
            }
        }
        self.ranges.insert(
            index,
            Range {
                span,
                twin,
                written,
                invalid,
            },
        );
        if let Some(dirty) = self.dirty.as_mut() {
            dirty.extend((start..end).step_by(PAGE_SIZE));
        }
        if let Err(e) = self.publish() {
            let range = self.ranges.remove(index);
            if let Backend::Uffd { uffd, .. } = &self.backend {
                let _ = uffd.unregister(range.start(), range.span.len());
            }
            self.publish().ok();
            return Err(e);
        }
        self.register_missing(start, end)
    }

    /// The ranges as a signal handler's table sees them, with the bitmap `bitmap` picks.
    fn table(&self, bitmap: impl Fn(&Range) -> &[AtomicU64]) -> Vec<PublishedRange<'_>> {
        self.ranges
            .iter()
            .map(|r| PublishedRange {
                start: r.start(),
                end: r.end(),
                twin: r.twin.base(),
                bitmap: bitmap(r),
            })
            .collect()
    }

    fn publish(&self) -> Result<(), TrackError> {
        self.publish_invalid()?;
        if !matches!(self.backend, Backend::Mprotect) {
            return Ok(());
        }
        signals::publish(&self.table(|r| &r.written)).map_err(|max| {
            err(format!(
                "too many tracked ranges for the mprotect page tracker (at most {max}); use `CAPE_TRACKER=uffd`"
            ))
        })
    }

    /// Region begin: bring twins up to date with writes made since the last sync (only those
    /// pages) and arm write detection on all tracked ranges.
    pub fn begin_region(&mut self) -> Result<(), TrackError> {
        if self.phase != Phase::Idle {
            return Err(err("begin_region called inside a parallel region".into()));
        }
        // not protected again by `protect_injected`: the scan finds them and copies them
        self.injected.clear();
        self.protected_since_scan = false;
        match &mut self.backend {
            Backend::Uffd { .. } => self.begin_uffd()?,
            Backend::Mprotect => {
                for range in &self.ranges {
                    for word in range.written.iter() {
                        word.store(0, Ordering::Relaxed);
                    }
                }
                // Predicted pages: before-image now (memory is writable outside regions, so
                // only now is it known) and marked written, as the signal handler would.
                let ranges = &self.ranges;
                let writable = match self.prediction.as_mut() {
                    Some(p) => p.plan(|a, b| same_range(ranges, a, b), 1, false),
                    None => &[],
                };
                {
                    for &(from, to) in writable {
                        for page in (from..to).step_by(PAGE_SIZE) {
                            let index = self.ranges.partition_point(|r| r.end() <= page);
                            let range = &mut self.ranges[index];
                            let offset = page - range.start();
                            if range.is_invalid(page) {
                                continue;
                            }
                            range
                                .twin
                                .bytes_mut(offset, PAGE_SIZE)
                                .copy_from_slice(range.span.bytes(offset, PAGE_SIZE));
                            let bit = offset / PAGE_SIZE;
                            range.written[bit / 64].fetch_or(1 << (bit % 64), Ordering::Relaxed);
                        }
                    }
                }
                signals::arm();
                let protected = self
                    .ranges
                    .iter()
                    .try_for_each(|r| r.span.set_writable(false));
                if let Err(e) = protected
                    .and_then(|()| {
                        writable.iter().try_for_each(|&(from, to)| {
                            crate::sys::mprotect::protect(from, to - from, true)
                        })
                    })
                    .and_then(|()| invalid::protect_runs(&self.ranges))
                {
                    for range in &self.ranges {
                        let _ = range.span.set_writable(true);
                    }
                    signals::disarm();
                    return Err(protect_error(e));
                }
            }
        }
        self.phase = Phase::Running;
        Ok(())
    }

    /// Region end: append to `written` the start addresses (sorted, ascending) of the pages written
    /// since begin_region. Twins still hold the before-image of those pages.
    pub fn end_region(&mut self, written: &mut Vec<usize>) -> Result<(), TrackError> {
        if self.phase != Phase::Running {
            return Err(err("end_region called outside a parallel region".into()));
        }
        self.phase = Phase::Ended;
        let first_new = written.len();
        let result = self.scan_written(written);
        // an invalid page was not written (a write would have installed it first); with
        // write-fault elision it may still be reported
        invalid::drop_invalid(&self.ranges, written, first_new);
        if let (Some(dirty), Ok(())) = (self.dirty.as_mut(), &result) {
            dirty.extend_from_slice(&written[first_new..]);
        }
        self.protected_since_scan = result.is_ok();
        if let (Some(prediction), Ok(())) = (self.prediction.as_mut(), &result) {
            prediction.reported.clear();
            prediction.reported.extend_from_slice(&written[first_new..]);
        }
        result
    }

    fn scan_written(&mut self, written: &mut Vec<usize>) -> Result<(), TrackError> {
        match &mut self.backend {
            Backend::Uffd { .. } => self.scan_written_uffd(written)?,
            Backend::Mprotect => {
                // Stay armed until finish_region: unwritten pages remain read-only, so a write
                // between end and finish would still be caught, but none is expected.
                if let Some(errno) = signals::failure() {
                    return Err(protect_error(std::io::Error::from_raw_os_error(errno)));
                }
                for range in &self.ranges {
                    for (w, word) in range.written.iter().enumerate() {
                        let mut bits = word.load(Ordering::Relaxed);
                        while bits != 0 {
                            let index = w * 64 + bits.trailing_zeros() as usize;
                            written.push(range.start() + index * PAGE_SIZE);
                            bits &= bits - 1;
                        }
                    }
                }
            }
        }
        Ok(())
    }

    fn range_of(&self, addr: usize) -> Option<&Range> {
        let index = self.ranges.partition_point(|r| r.end() <= addr);
        self.ranges.get(index).filter(|r| r.start() <= addr)
    }

    fn range_of_page(&self, page: usize) -> &Range {
        assert!(
            page.is_multiple_of(PAGE_SIZE),
            "page address {page:#x} is not page aligned"
        );
        match self.range_of(page) {
            Some(range) => range,
            None => panic!("page {page:#x} is not tracked"),
        }
    }

    /// The before-image of tracked page `page` (page-aligned address), PAGE_SIZE bytes.
    pub fn twin(&self, page: usize) -> &[u8] {
        let range = self.range_of_page(page);
        let offset = page - range.start();
        match self.backend {
            Backend::Mprotect if !range.written_in_region(page) => {
                range.span.bytes(offset, PAGE_SIZE)
            }
            _ => range.twin.bytes(offset, PAGE_SIZE),
        }
    }

    /// The current content of tracked page `page` (an invalid page is fetched first).
    pub fn memory(&self, page: usize) -> &[u8] {
        let range = self.range_of_page(page);
        if range.is_invalid(page) {
            // fetched now: the runtime never reads an invalid page
            crate::sys::invalid::validate(page);
        }
        range.span.bytes(page - range.start(), PAGE_SIZE)
    }

    /// The memory of written page `page` and its twin, for a diff that brings the twin up to
    /// date itself (then [`Tracker::commit_diffed`]).
    pub fn pair_mut(&mut self, page: usize) -> (&[u8], &mut [u8]) {
        let index = self.ranges.partition_point(|r| r.end() <= page);
        let Some(range) = self.ranges.get_mut(index).filter(|r| r.start() <= page) else {
            panic!("page {page:#x} is not tracked");
        };
        let offset = page - range.start();
        assert!(!range.is_invalid(page), "the runtime read an invalid page");
        let Range { span, twin, .. } = range;
        (
            span.bytes(offset, PAGE_SIZE),
            twin.bytes_mut(offset, PAGE_SIZE),
        )
    }

    /// Is written page `page` equal to its twin, told from memory alone? True when its twin is
    /// known to hold only zero bytes (`note_unchanged`) and memory does too: one page read
    /// instead of two for the pages a loop rewrites with the zeros they held (a grid that the
    /// computation has not reached yet). False means "compare".
    pub fn unchanged_zero(&self, page: usize) -> bool {
        let Some(range) = self.range_of(page) else {
            return false;
        };
        let offset = page - range.start();
        range.twin.is_zero(offset) && crate::diff::all_zero(range.span.bytes(offset, PAGE_SIZE))
    }

    /// After a compare found written page `page` equal to its twin: remembers whether the twin
    /// holds only zero bytes, for [`Tracker::unchanged_zero`] (the page is in the cache now).
    pub fn note_unchanged(&mut self, page: usize) {
        let index = self.ranges.partition_point(|r| r.end() <= page);
        let Some(range) = self.ranges.get_mut(index).filter(|r| r.start() <= page) else {
            return;
        };
        let offset = page - range.start();
        if crate::diff::all_zero(range.twin.bytes(offset, PAGE_SIZE)) {
            range.twin.set_zero(offset);
        }
    }

    /// Does the twin of `page` still hold the version this rank last published of it
    /// ([`Tracker::note_published`], nothing written into the twin since)? Then the lines
    /// a compare with memory finds are exactly those that changed since that version.
    pub fn twin_holds_published(&self, page: usize) -> bool {
        self.range_of(page)
            .is_some_and(|range| range.twin.is_published(page - range.start()))
    }

    /// After publishing `page` with its twin made equal to memory: remembers it for
    /// [`Tracker::twin_holds_published`] (uffd tracker only; the mprotect one keeps no marks).
    pub fn note_published(&mut self, page: usize) {
        let index = self.ranges.partition_point(|r| r.end() <= page);
        if let Some(range) = self.ranges.get_mut(index).filter(|r| r.start() <= page) {
            range.twin.set_published(page - range.start());
        }
    }

    /// After a diff through [`Tracker::pair_mut`] that left every twin of `written` equal to
    /// memory: only the bookkeeping of [`Tracker::commit`].
    pub fn commit_diffed(&mut self, written: &[usize]) {
        if let Backend::Mprotect = self.backend {
            self.clear_written_marks(written);
        }
    }

    fn clear_written_marks(&self, written: &[usize]) {
        // A page not marked written has memory as its twin: clearing the marks is the copy.
        for &page in written {
            let range = self.range_of_page(page);
            let index = (page - range.start()) / PAGE_SIZE;
            range.written[index / 64].fetch_and(!(1 << (index % 64)), Ordering::Relaxed);
        }
    }

    /// Pages reported by `end_region` whose diff found no change: predicted pages among them
    /// count as not written (see the module comment). Call before `finish_region`.
    pub fn unchanged(&mut self, pages: &[usize]) {
        if let Some(prediction) = self.prediction.as_mut() {
            prediction.unchanged.extend_from_slice(pages);
        }
    }

    /// After the diff: the twins of `written` become copies of current memory. A predicted page
    /// that equals its twin counts as unchanged.
    pub fn commit(&mut self, written: &[usize]) {
        match self.backend {
            Backend::Uffd { .. } => {
                for &page in written {
                    let index = self.ranges.partition_point(|r| r.end() <= page);
                    let Some(range) = self.ranges.get_mut(index).filter(|r| r.start() <= page)
                    else {
                        panic!("committed page {page:#x} is not tracked");
                    };
                    let offset = page - range.start();
                    let memory = range.span.bytes(offset, PAGE_SIZE);
                    let twin = range.twin.bytes_mut(offset, PAGE_SIZE);
                    match self.prediction.as_mut() {
                        Some(p) if p.left_writable(page) && *twin == *memory => {
                            p.unchanged.push(page)
                        }
                        _ => twin.copy_from_slice(memory),
                    }
                }
            }
            Backend::Mprotect => {
                if let Some(p) = self.prediction.as_mut() {
                    for &page in written {
                        let index = self.ranges.partition_point(|r| r.end() <= page);
                        let range = &self.ranges[index];
                        let offset = page - range.start();
                        let twin = range.twin.bytes(offset, PAGE_SIZE);
                        if p.left_writable(page) && twin == range.span.bytes(offset, PAGE_SIZE) {
                            p.unchanged.push(page);
                        }
                    }
                }
                self.clear_written_marks(written)
            }
        }
    }

    /// Disarm after end_region (mprotect: unprotect everything so sequential code and the kernel
    /// can write freely; uffd: nothing, WP_ASYNC keeps recording).
    pub fn finish_region(&mut self) {
        if self.phase == Phase::Idle {
            return;
        }
        self.phase = Phase::Idle;
        if let Some(prediction) = self.prediction.as_mut() {
            prediction.update();
        }
        if let Backend::Mprotect = self.backend {
            signals::disarm();
            for range in &self.ranges {
                if let Err(e) = range.span.set_writable(true) {
                    panic!("cannot unprotect tracked memory after a region: {e}");
                }
            }
            if let Err(e) = invalid::protect_runs(&self.ranges) {
                panic!("cannot protect invalid pages after a region: {e}");
            }
        }
    }

    /// Starts recording the pages that may change (see [`Tracker::take_dirty`]).
    pub fn record_dirty_pages(&mut self) {
        let dirty = self.dirty.get_or_insert_with(Vec::new);
        // sequential writes into kept pages were seen by no scan
        for &(from, to) in &self.kept.runs {
            dirty.extend((from..to).step_by(PAGE_SIZE));
        }
    }

    /// The pages that may have changed since the last call (unsorted, maybe repeated), or
    /// `None` when a scan limited to a write scope may have missed some since (snapshot mode
    /// scans a region's write scope only: no fingerprint needs every write there). With the
    /// mprotect backend writes outside regions are not seen: see [`Tracker::sees_all_writes`].
    pub fn take_dirty(&mut self) -> Option<Vec<usize>> {
        let dirty = self.dirty.as_mut().map(std::mem::take).unwrap_or_default();
        (!std::mem::take(&mut self.dirty_partial)).then_some(dirty)
    }

    /// True when `take_dirty` covers every write (uffd); false for mprotect, which only sees
    /// writes inside regions.
    pub fn sees_all_writes(&self) -> bool {
        matches!(self.backend, Backend::Uffd { .. })
    }

    /// Is `addr` inside a tracked range?
    pub fn contains(&self, addr: usize) -> bool {
        self.range_of(addr).is_some()
    }

    /// Total tracked bytes (for statistics).
    pub fn tracked_bytes(&self) -> usize {
        self.ranges.iter().map(|r| r.span.len()).sum()
    }
}

/// Do `a` and `b` lie in one tracked range?
fn same_range(ranges: &[Range], a: usize, b: usize) -> bool {
    let index = ranges.partition_point(|r| r.end() <= a);
    ranges
        .get(index)
        .is_some_and(|r| r.start() <= a && b < r.end())
}

impl Drop for Tracker {
    fn drop(&mut self) {
        crate::sys::invalid::clear();
        crate::sys::missing::clear();
        match &self.backend {
            Backend::Uffd { uffd, .. } => {
                for range in &self.ranges {
                    let _ = uffd.unregister(range.start(), range.span.len());
                }
            }
            Backend::Mprotect => {
                signals::clear();
                for range in &self.ranges {
                    let _ = range.span.set_writable(true);
                }
            }
        }
        TRACKER_ALIVE.store(false, Ordering::Release);
    }
}
