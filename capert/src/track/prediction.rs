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
    /// The previous `pages`, kept for its allocation.
    spare: Vec<(usize, u8)>,
}

const CHANGED_LAST: u8 = 1;
const PREDICTED: u8 = 2;

impl Prediction {
    pub(super) fn predicted(&self, page: usize) -> bool {
        self.pages
            .binary_search_by_key(&page, |&(p, _)| p)
            .is_ok_and(|i| self.pages[i].1 & PREDICTED != 0)
    }

    /// After a region: every history shifts by one region. A reported page that was protected
    /// was written (it faulted), even with the values it had (jacobi writes 0.0 over 0.0 in
    /// most of its grid for many sweeps); a predicted one was written unless the caller called
    /// it unchanged.
    pub(super) fn update(&mut self) {
        self.unchanged.sort_unstable();
        let mut next = std::mem::take(&mut self.spare);
        next.clear();
        let mut reported = self.reported.iter().copied().peekable();
        let changed = |page: usize| self.unchanged.binary_search(&page).is_err();
        let mut push = |page: usize, history: u8| {
            if history != 0 {
                next.push((page, history));
            }
        };
        for &(page, history) in &self.pages {
            while let Some(r) = reported.next_if(|&r| r < page) {
                push(r, CHANGED_LAST);
            }
            let now = reported
                .next_if_eq(&page)
                .is_some_and(|p| history & PREDICTED == 0 || changed(p));
            push(page, (history & CHANGED_LAST) << 1 | u8::from(now));
        }
        for r in reported {
            push(r, CHANGED_LAST);
        }
        self.spare = std::mem::replace(&mut self.pages, next);
        self.reported.clear();
        self.unchanged.clear();
    }

    /// The predicted pages as maximal runs [from, to).
    pub(super) fn runs(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        let mut pages = self
            .pages
            .iter()
            .filter(|&&(_, history)| history & PREDICTED != 0)
            .map(|&(p, _)| p)
            .peekable();
        std::iter::from_fn(move || {
            let from = pages.next()?;
            let mut to = from + PAGE_SIZE;
            while pages.next_if_eq(&to).is_some() {
                to += PAGE_SIZE;
            }
            Some((from, to))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: usize = 0x10000;
    const B: usize = A + PAGE_SIZE;
    const C: usize = A + 2 * PAGE_SIZE;

    fn region(p: &mut Prediction, reported: &[usize], unchanged: &[usize]) -> Vec<(usize, usize)> {
        p.reported.extend_from_slice(reported);
        p.unchanged.extend_from_slice(unchanged);
        p.update();
        p.runs().collect()
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
        assert!(p.predicted(A));
        // reported because predicted, unchanged: not written
        assert_eq!(region(&mut p, &[A], &[A]), [(A, B)]);
        assert_eq!(region(&mut p, &[A], &[A]), []);
        assert!(!p.predicted(A) && p.pages.is_empty());
    }

    #[test]
    fn a_protected_page_that_faulted_was_written_even_unchanged() {
        let mut p = Prediction::default();
        region(&mut p, &[B], &[B]);
        region(&mut p, &[], &[]);
        assert!(p.predicted(B));
    }
}
