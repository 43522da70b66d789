//! uffd: pages kept writable from one region to the next (see docs/tracker.md, "Pages kept
//! writable").
//!
//! A small set of pages that the rank writes, or the merge injects into, in region after region
//! stays writable between regions instead of being protected at every region end and
//! unprotected again at the next begin (or before the injection): on a VM each of those four
//! protection changes costs an ioctl and a TLB flush of every page. Such a page is instead
//! copied into its twin at the begin of every region whose scope holds it (whatever sequential
//! code wrote since is then in the before-image) and reported as written at its end, without a
//! scan: the diff finds what changed.
//!
//! Invariants: `kept` holds exactly the pages left writable on purpose (sorted, disjoint runs);
//! their twins are synced only at the begin of a region whose scope holds them, so no scan
//! covers them while they are kept (a scan would protect them, or report sequential writes as
//! the region's); a page that leaves the set is covered by the next scan of its scope again,
//! which copies it into its twin and protects it like any other written page. Only while no
//! dirty pages are recorded (fault tolerance needs every sequential write in the dirty list).

use super::prediction::MAX_GAP_PAGES;
use super::{same_range, Range, Tracker, PAGE_SIZE};
pub(super) use crate::runs::{holds, intersect, subtract, subtract_from, union};

/// The most pages kept writable in one region by default (`CAPE_KEEP_WRITABLE`).
pub use crate::config::KEEP_WRITABLE_PAGES as KEEP_MAX_PAGES;

/// Sorted, disjoint page runs `(from, to)`.
pub(super) type Runs = Vec<(usize, usize)>;

/// The pages of `runs`.
pub(super) fn page_count(runs: &[(usize, usize)]) -> usize {
    runs.iter().map(|&(from, to)| (to - from) / PAGE_SIZE).sum()
}

/// Appends the pages of `runs` to `pages[first..]` (both ascending, disjoint), keeping that
/// tail ascending; `scratch` is reused.
pub(super) fn merge_pages(
    pages: &mut Vec<usize>,
    first: usize,
    runs: &[(usize, usize)],
    scratch: &mut Vec<usize>,
) {
    if runs.is_empty() {
        return;
    }
    scratch.clear();
    scratch.extend_from_slice(&pages[first..]);
    pages.truncate(first);
    let mut scanned = scratch.iter().copied().peekable();
    for &(from, to) in runs {
        for page in (from..to).step_by(PAGE_SIZE) {
            while let Some(p) = scanned.next_if(|&p| p < page) {
                pages.push(p);
            }
            scanned.next_if_eq(&page);
            pages.push(page);
        }
    }
    pages.extend(scanned);
}

/// Twin := memory on the valid pages of `[a, b)` in `range`. A twin page whose marks say
/// something (all zero, last published) is compared first and left alone, marks and all,
/// when it still equals memory.
pub(super) fn sync_twins(range: &mut Range, a: usize, b: usize) {
    for page in (a..b).step_by(PAGE_SIZE) {
        if range.is_invalid(page) {
            continue;
        }
        let offset = page - range.start();
        let marked = range.twin.is_zero(offset) || range.twin.is_published(offset);
        let memory = range.span.bytes(offset, PAGE_SIZE);
        if marked && range.twin.bytes(offset, PAGE_SIZE) == memory {
            continue;
        }
        range
            .twin
            .bytes_mut(offset, PAGE_SIZE)
            .copy_from_slice(memory);
    }
}

/// Reusable lists of the uffd begin and end (no allocation per region once grown).
#[derive(Debug)]
pub(super) struct Kept {
    /// At most this many pages are kept writable in a region (0: none).
    pub(super) max_pages: usize,
    /// The pages left writable on purpose now.
    pub(super) runs: Runs,
    /// This region's pages to keep writable (in its scope).
    pub(super) keep: Runs,
    /// Kept pages that stay kept through this region's begin: synced by a copy, not scanned.
    pub(super) stay: Runs,
    /// Predicted pages (in the scope) writable only until the region's end scan.
    pub(super) unkept: Runs,
    pub(super) pieces: Runs,
    pub(super) spare: Runs,
    pub(super) pages: Vec<usize>,
}

impl Default for Kept {
    fn default() -> Kept {
        Kept {
            max_pages: KEEP_MAX_PAGES,
            runs: Runs::new(),
            keep: Runs::new(),
            stay: Runs::new(),
            unkept: Runs::new(),
            pieces: Runs::new(),
            spare: Runs::new(),
            pages: Vec::new(),
        }
    }
}

impl Tracker {
    /// At most `pages` pages are kept writable between regions from the next region on (uffd
    /// with write-fault elision; 0: none, every written page is protected at every region end).
    pub fn set_kept_pages_max(&mut self, pages: usize) {
        self.kept.max_pages = pages;
    }

    /// uffd, at region begin, before the scan: which predicted pages are kept writable past
    /// this region's end (`kept.keep`) and which only until its end scan (`kept.unkept`);
    /// `kept.stay` := the kept pages that stay kept.
    pub(super) fn plan_writable(&mut self) {
        let kept = &mut self.kept;
        kept.keep.clear();
        kept.unkept.clear();
        let ranges = &self.ranges;
        if let Some(prediction) = self.prediction.as_mut() {
            if self.dirty.is_none() && kept.max_pages > 0 {
                let plan = prediction.plan(|a, b| same_range(ranges, a, b), 1, true);
                intersect(plan, &self.scope, &mut kept.keep);
                // Pieces of the scope of a few pages (a small array, a scalar's page, an
                // array's first and last pages shared with its neighbours or the allocator's
                // headers) are kept too: copying and diffing them costs less than scanning
                // them, twice a region.
                subtract(&self.scope, &kept.keep, &mut kept.pieces);
                kept.spare.clear();
                for &(lo, hi) in &kept.pieces {
                    if hi - lo <= MAX_GAP_PAGES * PAGE_SIZE
                        && same_range(ranges, lo, hi - PAGE_SIZE)
                    {
                        kept.spare.push((lo, hi));
                    }
                }
                if !kept.spare.is_empty() {
                    prediction.widen(&kept.spare);
                    union(&kept.keep, &kept.spare, &mut kept.pieces);
                    std::mem::swap(&mut kept.keep, &mut kept.pieces);
                }
                if page_count(&kept.keep) > kept.max_pages {
                    kept.keep.clear();
                }
            }
            if kept.keep.is_empty() {
                let plan = prediction.plan(
                    |a, b| same_range(ranges, a, b),
                    super::MIN_ELIDED_RUN,
                    false,
                );
                intersect(plan, &self.scope, &mut kept.unkept);
            }
        }
        intersect(&kept.runs, &kept.keep, &mut kept.stay);
    }

    /// uffd, at region begin after the scan: the staying pages' twins are synced, the newly
    /// writable pages unprotected, and the kept set becomes the kept pages outside the scope
    /// plus `keep`.
    pub(super) fn arm_writable(&mut self) -> Result<(), std::io::Error> {
        let super::Backend::Uffd { uffd, .. } = &self.backend else {
            return Ok(());
        };
        let kept = &mut self.kept;
        for &(from, to) in &kept.stay {
            let mut page = from;
            while page < to {
                let index = self.ranges.partition_point(|r| r.end() <= page);
                let range = &mut self.ranges[index];
                let end = to.min(range.end());
                sync_twins(range, page, end);
                page = end;
            }
        }
        subtract(&kept.keep, &kept.stay, &mut kept.pieces);
        for &(from, to) in kept.pieces.iter().chain(&kept.unkept) {
            uffd.unprotect(from, to - from)?;
        }
        subtract(&kept.runs, &self.scope, &mut kept.spare);
        union(&kept.spare, &kept.keep, &mut kept.pieces);
        std::mem::swap(&mut kept.runs, &mut kept.pieces);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: usize = PAGE_SIZE;

    #[test]
    fn merged_pages_stay_ascending_and_unique() {
        let mut pages = vec![7, P, 3 * P, 6 * P];
        let mut scratch = Vec::new();
        merge_pages(&mut pages, 1, &[(0, P), (3 * P, 5 * P)], &mut scratch);
        assert_eq!(pages, [7, 0, P, 3 * P, 4 * P, 6 * P]);
    }
}
