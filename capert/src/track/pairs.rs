//! The (memory, twin) pairs of many written pages at once, for a diff split over the rank's
//! threads: each page's twin is a `&mut` of its own, carved out of its range's twin mapping,
//! so that disjoint sets of pages can go to different threads without `unsafe`.
//! Also a variable's bytes at the start of the epoch, read from its page's twin.

use super::{clipped, Tracker, PAGE_SIZE};

/// One written page: its address, its memory and its twin.
pub type PagePair<'t> = (usize, &'t [u8], &'t mut [u8]);

impl Tracker {
    /// The bytes `[addr, addr + len)` held when the current epoch began (their page's twin);
    /// None unless they lie in one valid tracked page that the epoch's scans cover (outside
    /// a write scope a twin may be behind memory).
    pub fn epoch_start_bytes(&self, addr: usize, len: usize) -> Option<Vec<u8>> {
        let page = addr & !(PAGE_SIZE - 1);
        if len == 0 || addr + len > page + PAGE_SIZE {
            return None;
        }
        let range = self.range_of(addr)?;
        let whole = clipped(page, page + PAGE_SIZE, &self.scope).next();
        if range.is_invalid(page) || whole != Some((page, page + PAGE_SIZE)) {
            return None;
        }
        let offset = addr - page;
        Some(self.twin(page)[offset..offset + len].to_vec())
    }

    /// The pairs of `pages` in their order, as [`Tracker::pair_mut`] gives them one at a
    /// time; None unless `pages` is strictly ascending (no page handed out twice).
    ///
    /// # Panics
    /// If a page is not page aligned, not tracked or invalid (a caller bug, as `pair_mut`).
    pub fn pairs_mut(&mut self, pages: &[usize]) -> Option<Vec<PagePair<'_>>> {
        if !pages.windows(2).all(|w| w[0] < w[1]) {
            return None;
        }
        let mut out = Vec::with_capacity(pages.len());
        let mut rest = pages;
        for range in self.ranges.iter_mut() {
            let (start, end) = (range.start(), range.end());
            if let Some(&outside) = rest.first().filter(|&&p| p < start) {
                panic!("page {outside:#x} is not tracked");
            }
            let (mine, later) = rest.split_at(rest.partition_point(|&p| p < end));
            rest = later;
            if mine.is_empty() {
                continue;
            }
            for &page in mine {
                assert!(
                    page.is_multiple_of(PAGE_SIZE),
                    "page address {page:#x} is not page aligned"
                );
                assert!(!range.is_invalid(page), "the runtime read an invalid page");
            }
            let len = range.span.len();
            let memory = range.span.bytes(0, len);
            let mut twin = range.twin.bytes_mut(0, len);
            let mut at = start;
            for &page in mine {
                let (_, from_page) = std::mem::take(&mut twin).split_at_mut(page - at);
                let (page_twin, after) = from_page.split_at_mut(PAGE_SIZE);
                twin = after;
                at = page + PAGE_SIZE;
                let offset = page - start;
                out.push((page, &memory[offset..offset + PAGE_SIZE], page_twin));
            }
        }
        if let Some(&outside) = rest.first() {
            panic!("page {outside:#x} is not tracked");
        }
        Some(out)
    }
}
