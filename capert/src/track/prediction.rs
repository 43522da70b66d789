//! Write-fault elision of the uffd tracker: which pages stay writable during the next region
//! (see the module comment of `track`).

use super::PAGE_SIZE;

/// The pages the uffd tracker leaves writable during a region (see the module comment).
#[derive(Debug, Default)]
pub(super) struct Prediction {
    /// Pages written in one of the last two regions, ascending, each with its history: bit 0
    /// written in the last region, bit 1 written in the one before (predicted).
    pages: Vec<(usize, u8)>,
    /// The pages the last end_region reported, ascending.
    pub(super) reported: Vec<usize>,
    /// Reported pages the caller found unchanged, in any order.
    pub(super) unchanged: Vec<usize>,
    /// uffd: pages the merge injected since the last `update`, in any order, maybe repeated.
    pub(super) injected: Vec<usize>,
    /// The previous `pages`, kept for its allocation.
    spare: Vec<(usize, u8)>,
    /// The runs left writable in the current region (`plan`, `widen`): predicted pages, and
    /// the pages of short gaps between them.
    writable: Vec<(usize, usize)>,
    /// The previous `writable`, kept for its allocation.
    spare_writable: Vec<(usize, usize)>,
}

/// Gaps of up to this many pages between predicted pages are left writable too: one ioctl (or
/// mprotect) fewer costs more than diffing a few pages for nothing.
pub(super) const MAX_GAP_PAGES: usize = 4;

const CHANGED_LAST: u8 = 1;
const PREDICTED: u8 = 2;
/// Injected after the region before the last one (the merge injects after `update`): like
/// `PREDICTED`, this covers pages other ranks write in every region and in alternate ones.
const INJECTED_BEFORE: u8 = 4;

impl Prediction {
    /// Was `page` left writable in the current region?
    pub(super) fn left_writable(&self, page: usize) -> bool {
        let index = self.writable.partition_point(|&(_, to)| to <= page);
        self.writable
            .get(index)
            .is_some_and(|&(from, _)| from <= page)
    }

    /// At region begin: the runs to leave writable, joining runs of predicted pages across gaps
    /// of up to `MAX_GAP_PAGES` when `same_range(from, last)` says both ends lie in one range.
    /// Only runs of at least `min_pages` pages are kept (the others stay protected and take a
    /// fault if written). `injected`: pages predicted to be injected count as predicted too.
    pub(super) fn plan(
        &mut self,
        same_range: impl Fn(usize, usize) -> bool,
        min_pages: usize,
        injected: bool,
    ) -> &[(usize, usize)] {
        self.writable.clear();
        let wanted = if injected {
            PREDICTED | INJECTED_BEFORE
        } else {
            PREDICTED
        };
        let predicted = self.pages.iter().filter(|&&(_, h)| h & wanted != 0);
        for &(page, _) in predicted {
            match self.writable.last_mut() {
                Some((from, to))
                    if page <= *to + MAX_GAP_PAGES * PAGE_SIZE && same_range(*from, page) =>
                {
                    *to = page + PAGE_SIZE
                }
                _ => self.writable.push((page, page + PAGE_SIZE)),
            }
        }
        self.writable
            .retain(|&(from, to)| to - from >= min_pages * PAGE_SIZE);
        &self.writable
    }

    /// After `plan`: `extra` (sorted, disjoint runs) is left writable as well.
    pub(super) fn widen(&mut self, extra: &[(usize, usize)]) {
        let mut joined = std::mem::take(&mut self.spare_writable);
        crate::runs::union(&self.writable, extra, &mut joined);
        self.spare_writable = std::mem::replace(&mut self.writable, joined);
    }

    /// After a region: every history shifts by one region. A reported page that was protected
    /// was written (it faulted), even with the values it had (jacobi writes 0.0 over 0.0 in
    /// most of its grid for many sweeps); one left writable was written unless the caller
    /// called it unchanged.
    /// Pages injected since the last update (`injected`) get `INJECTED_BEFORE` instead.
    pub(super) fn update(&mut self) {
        self.unchanged.sort_unstable();
        self.injected.sort_unstable();
        self.injected.dedup();
        let mut next = std::mem::take(&mut self.spare);
        next.clear();
        let written =
            |page: usize| !self.left_writable(page) || self.unchanged.binary_search(&page).is_err();
        // every page of the three ascending lists, once, ascending, with its new history
        let mut old = self.pages.iter().copied().peekable();
        let mut reported = self.reported.iter().copied().peekable();
        let mut injected = self.injected.iter().copied().peekable();
        loop {
            let page = [
                old.peek().map(|&(p, _)| p),
                reported.peek().copied(),
                injected.peek().copied(),
            ]
            .into_iter()
            .flatten()
            .min();
            let Some(page) = page else { break };
            let history = old.next_if(|&(p, _)| p == page).map_or(0, |(_, h)| h);
            let now = reported.next_if_eq(&page).is_some_and(written);
            let injected_now = injected.next_if_eq(&page).is_some();
            let history = (history & CHANGED_LAST) << 1
                | u8::from(now)
                | if injected_now { INJECTED_BEFORE } else { 0 };
            if history != 0 {
                next.push((page, history));
            }
        }
        self.spare = std::mem::replace(&mut self.pages, next);
        self.reported.clear();
        self.unchanged.clear();
        self.injected.clear();
        self.writable.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: usize = 0x10000;
    const B: usize = A + PAGE_SIZE;
    const C: usize = A + 2 * PAGE_SIZE;

    /// One region: the caller's reports, then the plan of the next one (all one range).
    fn region(p: &mut Prediction, reported: &[usize], unchanged: &[usize]) -> Vec<(usize, usize)> {
        p.reported.extend_from_slice(reported);
        p.unchanged.extend_from_slice(unchanged);
        p.update();
        p.plan(|_, _| true, 1, true).to_vec()
    }

    #[test]
    fn pages_written_two_regions_ago_are_predicted() {
        let mut p = Prediction::default();
        assert_eq!(region(&mut p, &[A, B], &[]), []);
        assert_eq!(region(&mut p, &[C], &[]), [(A, C)]);
        assert_eq!(region(&mut p, &[A, B], &[]), [(C, C + PAGE_SIZE)]);
        assert_eq!(region(&mut p, &[C], &[]), [(A, C)]);
    }

    #[test]
    fn predicted_pages_that_did_not_change_are_dropped() {
        let mut p = Prediction::default();
        region(&mut p, &[A], &[]);
        region(&mut p, &[A], &[]);
        assert!(p.left_writable(A));
        // reported because predicted, unchanged: not written
        assert_eq!(region(&mut p, &[A], &[A]), [(A, B)]);
        assert_eq!(region(&mut p, &[A], &[A]), []);
        assert!(!p.left_writable(A) && p.pages.is_empty());
    }

    #[test]
    fn a_protected_page_that_faulted_was_written_even_unchanged() {
        let mut p = Prediction::default();
        region(&mut p, &[B], &[B]);
        region(&mut p, &[], &[]);
        assert!(p.left_writable(B));
    }

    #[test]
    fn short_gaps_are_left_writable_and_count_as_unprotected() {
        let mut p = Prediction::default();
        let far = C + (MAX_GAP_PAGES + 2) * PAGE_SIZE;
        region(&mut p, &[A, C, far], &[]);
        assert_eq!(
            region(&mut p, &[], &[]),
            [(A, C + PAGE_SIZE), (far, far + PAGE_SIZE)]
        );
        // B was left writable but not written: unchanged, so not predicted later
        region(&mut p, &[A, B, C, far], &[B]);
        region(&mut p, &[], &[]);
        assert!(p.pages.iter().all(|&(page, _)| page != B));
        // ends in different ranges are not joined
        region(&mut p, &[A, C], &[]);
        region(&mut p, &[], &[]);
        assert_eq!(p.plan(|_, _| false, 1, true), [(A, B), (C, C + PAGE_SIZE)]);
    }

    #[test]
    fn pages_injected_after_the_region_before_are_predicted() {
        let mut p = Prediction::default();
        // injected after a region, so recorded before the next region's update
        p.injected.extend_from_slice(&[B, A, B]);
        assert_eq!(region(&mut p, &[], &[]), [(A, C)]);
        assert_eq!(p.plan(|_, _| true, 1, false), []);
        assert_eq!(p.plan(|_, _| true, 1, true), [(A, C)]);
        // reported because left writable, unchanged, not injected again: no longer predicted
        assert_eq!(region(&mut p, &[A, B], &[A, B]), []);
        assert!(p.pages.is_empty());
    }

    #[test]
    fn short_runs_can_be_left_out() {
        let mut p = Prediction::default();
        let far = C + (MAX_GAP_PAGES + 2) * PAGE_SIZE;
        region(&mut p, &[A, B, far], &[]);
        region(&mut p, &[], &[]);
        assert_eq!(p.plan(|_, _| true, 2, true), [(A, C)]);
        assert!(p.left_writable(A) && !p.left_writable(far));
    }
}
