//! The uffd tracker's scans at region begin and end, around the pages kept writable
//! (`kept.rs`): the scans cover the region's scope except those pages.

use super::{adjacent, clipped, err, invalid, kept, Backend, TrackError, Tracker, PAGE_SIZE};

impl Tracker {
    /// Region begin: twins synced with the writes made since the last sync (the scan copies
    /// the pages it finds written and protects them again; kept pages are copied instead),
    /// then the predicted pages made writable.
    pub(super) fn begin_uffd(&mut self) -> Result<(), TrackError> {
        self.plan_writable();
        let Backend::Uffd { scan, .. } = &mut self.backend else {
            return Err(err(
                "internal error: the uffd scan without the uffd tracker".into(),
            ));
        };
        let mut dirty = self.dirty.as_mut();
        let mut first = 0;
        while first < self.ranges.len() {
            let count = adjacent(&self.ranges[first..]);
            let group = &mut self.ranges[first..first + count];
            first += group.len();
            let (start, end) = (group[0].start(), group[group.len() - 1].end());
            // the kept pages that stay kept are synced by a copy instead
            scanned_pieces(
                start,
                end,
                &self.scope,
                &self.kept.stay,
                &mut self.kept.pieces,
            );
            for &(lo, hi) in &self.kept.pieces {
                scan.written(lo, hi, true, |from, to| {
                    for range in group.iter_mut() {
                        let (a, b) = (from.max(range.start()), to.min(range.end()));
                        if a < b {
                            invalid::sync_valid_twins(range, a, b);
                        }
                    }
                    if let Some(d) = dirty.as_mut() {
                        d.extend((from..to).step_by(PAGE_SIZE));
                    }
                })
                .map_err(|e| err(format!("PAGEMAP_SCAN failed at region begin: {e}")))?;
            }
        }
        // After the scan: predicted pages (in the scope) are synced (twin == memory)
        // and stay writable.
        self.arm_writable().map_err(|e| {
            err(format!(
                "cannot unprotect predicted pages at region begin: {e}"
            ))
        })?;
        Ok(())
    }

    /// Region end: appends the pages written since begin (ascending): the scan's, and the
    /// kept pages of the scope.
    pub(super) fn scan_written_uffd(&mut self, written: &mut Vec<usize>) -> Result<(), TrackError> {
        let Backend::Uffd { scan, .. } = &mut self.backend else {
            return Err(err(
                "internal error: the uffd scan without the uffd tracker".into(),
            ));
        };
        let first_new = written.len();
        let mut first = 0;
        while first < self.ranges.len() {
            let group = &self.ranges[first..first + adjacent(&self.ranges[first..])];
            first += group.len();
            let (start, end) = (group[0].start(), group[group.len() - 1].end());
            // kept pages are not scanned (that would protect them): all are reported
            scanned_pieces(
                start,
                end,
                &self.scope,
                &self.kept.runs,
                &mut self.kept.pieces,
            );
            for &(lo, hi) in &self.kept.pieces {
                scan.written(lo, hi, true, |from, to| {
                    written.extend((from..to).step_by(PAGE_SIZE));
                })
                .map_err(|e| err(format!("PAGEMAP_SCAN failed at region end: {e}")))?;
            }
        }
        let kept = &mut self.kept;
        kept::intersect(&kept.runs, &self.scope, &mut kept.spare);
        kept::merge_pages(written, first_new, &kept.spare, &mut kept.pages);
        Ok(())
    }
}

/// `out` := the pieces of `[start, end)` inside `scope` and outside `kept`: what a scan covers.
fn scanned_pieces(
    start: usize,
    end: usize,
    scope: &[(usize, usize)],
    kept: &[(usize, usize)],
    out: &mut Vec<(usize, usize)>,
) {
    out.clear();
    for (lo, hi) in clipped(start, end, scope) {
        kept::subtract_from(lo, hi, kept, out);
    }
}
