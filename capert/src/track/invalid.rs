//! Invalid pages of the demand-driven merge (docs/lazy-merge.md): pages whose newest bytes
//! are on another rank, `PROT_NONE` until a fault fetches them (`sys/invalid.rs` serves it).
//!
//! Invariants kept here: an invalid page is never read by the tracker (twin syncs and the
//! predicted pages' copies skip it, `memory` and `inject` fetch it first, `pair_mut`, used
//! only on written pages, refuses it) and never reported written; it stays `PROT_NONE` whatever protection the tracker gives its range; its twin
//! and memory both become the fetched bytes when it is installed, after which it is
//! protected like any page whose twin equals memory.

use std::sync::atomic::Ordering;

use super::{err, Backend, Range, TrackError, Tracker, PAGE_SIZE};
use crate::sys::invalid::{self as raw, Installed};
use crate::sys::signals;

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
    /// (the mprotect tracker has it already) and starts the fetch thread on `source`.
    pub fn serve_invalid_pages(&mut self, source: raw::Source) -> Result<(), TrackError> {
        signals::install().map_err(|e| err(format!("cannot install the SIGSEGV handler: {e}")))?;
        raw::start_server(source).map_err(|e| err(format!("cannot start the fetch thread: {e}")))
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
            let range = self
                .range_of(from)
                .ok_or_else(|| err(format!("invalidated page {from:#x} is not tracked")))?;
            let to = end.min(range.end());
            for page in (from..to).step_by(PAGE_SIZE) {
                let index = (page - range.start()) / PAGE_SIZE;
                range.invalid[index / 64].fetch_or(1 << (index % 64), Ordering::AcqRel);
            }
            if let Backend::Uffd { uffd, .. } = &self.backend {
                // not reported written by the next scan, whose copy would read it
                uffd.write_protect(from, to - from)
                    .map_err(|e| err(format!("cannot write-protect invalid pages: {e}")))?;
            }
            raw::make_inaccessible(from, to - from)
                .map_err(|e| err(format!("cannot make pages inaccessible: {e}")))?;
            from = to;
        }
        Ok(())
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
