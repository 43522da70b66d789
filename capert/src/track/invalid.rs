//! Invalid pages of the demand-driven merge (docs/lazy-merge.md): pages whose newest bytes
//! are on another rank, until a fault fetches them (`sys/invalid.rs` serves it). With the
//! uffd tracker, anonymous tracked memory is registered in missing mode once invalid pages
//! are served, and an invalid page there is dropped (`sys/missing.rs`: no protection
//! change, no split mapping); elsewhere (the mprotect tracker, file-backed `.data`, kernels
//! without `UFFD_FEATURE_SIGBUS`) it is `PROT_NONE`.
//!
//! Invariants kept here: an invalid page is never read by the tracker (twin syncs and the
//! predicted pages' copies skip it, `memory` and `inject` fetch it first (`fetch_invalid`
//! fetches many at once before the merge reads them), `pair_mut`, used
//! only on written pages, refuses it) and never reported written (a dropped page has no
//! page-table entry, which the scan does not report; a `PROT_NONE` one is write-protected
//! first); a `PROT_NONE` one stays so whatever protection the tracker gives its range; its twin
//! and memory both become the fetched bytes when it is installed, after which it is
//! protected like any page whose twin equals memory.

use std::sync::atomic::Ordering;

use super::{err, file_backed_parts, Backend, Range, TrackError, Tracker, PAGE_SIZE};
use crate::sys::invalid::{self as raw, Installed};
use crate::sys::{missing, signals};

impl Range {
    pub(super) fn is_invalid(&self, page: usize) -> bool {
        let index = (page - self.start()) / PAGE_SIZE;
        self.invalid[index / 64].load(Ordering::Acquire) & (1 << (index % 64)) != 0
    }

    /// The runs of invalid pages, ascending.
    fn invalid_runs(&self) -> Vec<(usize, usize)> {
        let mut runs: Vec<(usize, usize)> = Vec::new();
        for (w, word) in self.invalid.iter().enumerate() {
            let mut bits = word.load(Ordering::Acquire);
            while bits != 0 {
                let page = self.start() + (w * 64 + bits.trailing_zeros() as usize) * PAGE_SIZE;
                match runs.last_mut() {
                    Some(run) if run.1 == page => run.1 += PAGE_SIZE,
                    _ => runs.push((page, page + PAGE_SIZE)),
                }
                bits &= bits - 1;
            }
        }
        runs
    }
}

/// `PROT_NONE` again on every invalid run (after the tracker changed whole ranges).
pub(super) fn protect_runs(ranges: &[Range]) -> std::io::Result<()> {
    for range in ranges {
        for (from, to) in range.invalid_runs() {
            raw::make_inaccessible(from, to - from)?;
        }
    }
    Ok(())
}

/// Drops the invalid pages from `written[first..]`.
pub(super) fn drop_invalid(ranges: &[Range], written: &mut Vec<usize>, first: usize) {
    let mut at = first;
    for i in first..written.len() {
        let page = written[i];
        let index = ranges.partition_point(|r| r.end() <= page);
        if !ranges.get(index).is_some_and(|r| r.is_invalid(page)) {
            written[at] = page;
            at += 1;
        }
    }
    written.truncate(at);
}

/// Twin := memory on `[a, b)` of `range`, page by page around invalid pages.
pub(super) fn sync_valid_twins(range: &mut Range, a: usize, b: usize) {
    let mut from = a;
    while from < b {
        let mut to = from;
        while to < b && !range.is_invalid(to) {
            to += PAGE_SIZE;
        }
        if to > from {
            let at = from - range.start();
            range
                .twin
                .bytes_mut(at, to - from)
                .copy_from_slice(range.span.bytes(at, to - from));
        }
        from = to + PAGE_SIZE;
    }
}

impl Tracker {
    /// Publishes the ranges for the fault path (`sys/invalid.rs`); every `add_range` does.
    pub(super) fn publish_invalid(&self) -> Result<(), TrackError> {
        let installed = match &self.backend {
            Backend::Uffd { uffd, .. } => Installed::Uffd(uffd.raw_fd()),
            Backend::Mprotect => Installed::Mprotect,
        };
        raw::publish(&self.table(|r| &r.invalid), installed).map_err(|max| {
            err(format!(
                "too many tracked ranges for invalid pages (at most {max}); use `CAPE_MERGE=eager`"
            ))
        })
    }

    /// Lets pages be invalidated: installs the SIGSEGV handler that serves their faults
    /// (the mprotect tracker has it already), starts the fetch thread on `source` and turns
    /// missing faults on where they can be (`enable_missing_faults`).
    pub fn serve_invalid_pages(&mut self, source: raw::Source) -> Result<(), TrackError> {
        signals::install().map_err(|e| err(format!("cannot install the SIGSEGV handler: {e}")))?;
        raw::start_server(source)
            .map_err(|e| err(format!("cannot start the fetch thread: {e}")))?;
        self.enable_missing_faults().map(drop)
    }

    /// With the uffd tracker where the kernel raises SIGBUS for missing faults: the tracked
    /// memory, and memory tracked later, is registered in missing mode as well, so that
    /// invalid pages are dropped instead of made `PROT_NONE`. True if so. The fetch thread
    /// (`serve_invalid_pages`, once per process) installs the dropped pages.
    pub fn enable_missing_faults(&mut self) -> Result<bool, TrackError> {
        if self.missing.is_some() {
            return Ok(true);
        }
        if !matches!(&self.backend, Backend::Uffd { uffd, .. } if uffd.has_missing_faults())
            || signals::install_sigbus().is_err()
            || self.invalid_pages() > 0
        {
            return Ok(false);
        }
        self.missing = Some(Vec::new());
        let spans: Vec<(usize, usize)> = self.ranges.iter().map(|r| (r.start(), r.end())).collect();
        for (start, end) in spans {
            self.register_missing(start, end)?;
        }
        Ok(true)
    }

    /// Registers the anonymous parts of tracked `[start, end)` in missing mode, once missing
    /// faults are on (`serve_invalid_pages`). A part that cannot be keeps `PROT_NONE`
    /// invalidation: file-backed parts (`MADV_DONTNEED` would bring back the file's bytes),
    /// parts whose holes cannot be populated first.
    pub(super) fn register_missing(&mut self, start: usize, end: usize) -> Result<(), TrackError> {
        let (Backend::Uffd { uffd, .. }, Some(spans)) = (&self.backend, self.missing.as_mut())
        else {
            return Ok(());
        };
        let mut from = start;
        let mut parts = Vec::new();
        for (file_start, file_end) in file_backed_parts(start, end) {
            if file_start > from {
                parts.push((from, file_start));
            }
            from = from.max(file_end);
        }
        if from < end {
            parts.push((from, end));
        }
        for (from, to) in parts {
            if missing::populate(from, to - from).is_err() {
                continue;
            }
            match uffd.register_missing_wp(from, to - from) {
                Ok(true) => spans.push((from, to)),
                Ok(false) => uffd.register_wp(from, to - from).map_err(|e| {
                    err(format!(
                        "cannot register tracked memory with userfaultfd: {e}"
                    ))
                })?,
                // a refused registration changes nothing: write protection only, as before
                Err(_) => {}
            }
        }
        spans.sort_unstable();
        missing::publish(uffd.raw_fd(), spans).map_err(|max| {
            err(format!(
                "too many tracked ranges for invalid pages (at most {max}); use `CAPE_MERGE=eager`"
            ))
        })
    }

    /// The parts of `[from, to)` inside missing-mode spans (true) and outside (false).
    fn split_by_missing(&self, from: usize, to: usize) -> Vec<(usize, usize, bool)> {
        let spans = self.missing.as_deref().unwrap_or(&[]);
        let mut parts = Vec::new();
        let mut at = from;
        for &(s, e) in &spans[spans.partition_point(|&(_, e)| e <= from)..] {
            if s >= to {
                break;
            }
            if s > at {
                parts.push((at, s, false));
            }
            let end = e.min(to);
            parts.push((at.max(s), end, true));
            at = end;
        }
        if at < to {
            parts.push((at, to, false));
        }
        parts
    }

    /// Makes the pages of `[start, start + len)` (page aligned, tracked) invalid: their next
    /// access, by the program or the kernel, fetches them. Call outside a region, with every
    /// one of them committed (twin equals memory).
    pub fn invalidate(&mut self, start: usize, len: usize) -> Result<(), TrackError> {
        if self.phase != super::Phase::Idle {
            return Err(err("pages can only be invalidated outside a region".into()));
        }
        let end = start + len;
        let mut from = start;
        while from < end {
            let at = self.ranges.partition_point(|r| r.end() <= from);
            let range = self
                .ranges
                .get_mut(at)
                .filter(|r| r.start() <= from)
                .ok_or_else(|| err(format!("invalidated page {from:#x} is not tracked")))?;
            let to = end.min(range.end());
            for page in (from..to).step_by(PAGE_SIZE) {
                let index = (page - range.start()) / PAGE_SIZE;
                range.invalid[index / 64].fetch_or(1 << (index % 64), Ordering::AcqRel);
                // the fetch thread installs its twin through a raw pointer
                range.twin.clear_marks(page - range.start());
            }
            for (a, b, dropped) in self.split_by_missing(from, to) {
                if dropped {
                    missing::drop_pages(a, b - a)
                        .map_err(|e| err(format!("cannot drop invalid pages: {e}")))?;
                    continue;
                }
                if let Backend::Uffd { uffd, .. } = &self.backend {
                    // not reported written by the next scan, whose copy would read it
                    uffd.write_protect(a, b - a)
                        .map_err(|e| err(format!("cannot write-protect invalid pages: {e}")))?;
                }
                raw::make_inaccessible(a, b - a)
                    .map_err(|e| err(format!("cannot make pages inaccessible: {e}")))?;
            }
            from = to;
        }
        Ok(())
    }

    /// Fetches the invalid pages among `pages` (addresses inside pages, ascending for the
    /// fewest gets; untracked ones are skipped) as one batch (`sys/invalid.rs`
    /// `validate_pages`: one passive-target epoch per home for up to `BATCH` pages, no fault
    /// per page), before the runtime reads or injects into many of them. Returns the number
    /// of pages fetched. Costs nothing where no fetch thread runs (no page can be invalid
    /// then: the eager merge alone), and otherwise a bit test per page it is given, never a
    /// walk over all tracked memory (it runs at every eager merge point).
    pub fn fetch_invalid(&self, pages: impl IntoIterator<Item = usize>) -> usize {
        if !raw::serving() {
            return 0;
        }
        let mut invalid: Vec<usize> = Vec::new();
        // pages mostly come in address order: the range of the last one is tried first
        let mut at = 0;
        for page in pages {
            let page = page & !(PAGE_SIZE - 1);
            let holds = |r: &Range| r.start() <= page && page < r.end();
            if !self.ranges.get(at).is_some_and(holds) {
                at = self.ranges.partition_point(|r| r.end() <= page);
            }
            let Some(range) = self.ranges.get(at).filter(|r| holds(r)) else {
                continue;
            };
            if range.is_invalid(page) && invalid.last() != Some(&page) {
                invalid.push(page);
            }
        }
        invalid.sort_unstable();
        invalid.dedup();
        raw::validate_pages(invalid.iter().copied());
        invalid.len()
    }

    /// Is tracked page `page` invalid?
    pub fn is_invalid(&self, page: usize) -> bool {
        self.range_of(page).is_some_and(|r| r.is_invalid(page))
    }

    /// The number of invalid pages.
    pub fn invalid_pages(&self) -> usize {
        self.ranges
            .iter()
            .flat_map(|r| r.invalid.iter())
            .map(|w| w.load(Ordering::Acquire).count_ones() as usize)
            .sum()
    }
}
