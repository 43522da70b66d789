//! The merge's injections into tracked memory: the bytes and their twins, and the pages
//! unprotected before and protected again after, so that injecting takes no write fault and
//! the next region begin copies nothing twice.

use super::{kept, prediction, same_range, Backend, Phase, Tracker, PAGE_SIZE};

/// Below this many injected pages, [`Tracker::settle_injected`] leaves them to the next begin
/// scan: copying them then (the scan protects them in the same walk) costs less than the
/// protecting ioctl and its TLB flush now (measured with scripts/bench_region.sh: even at 64).
const FEW_INJECTED_PAGES: usize = 48;

impl Tracker {
    /// Injection of merged bytes from other ranks, after finish_region: writes `bytes` at `addr` in
    /// memory AND in the twin so that twin == memory stays true for those bytes.
    pub fn inject(&mut self, addr: usize, bytes: &[u8]) {
        let mut done = 0;
        while done < bytes.len() {
            let at = addr + done;
            let index = self.ranges.partition_point(|r| r.end() <= at);
            let Some(range) = self.ranges.get_mut(index).filter(|r| r.start() <= at) else {
                panic!("injected bytes at {at:#x} are not in tracked memory");
            };
            let count = (range.end() - at).min(bytes.len() - done);
            let chunk = &bytes[done..done + count];
            let offset = at - range.start();
            // runs carry only changed bytes: they apply to the page's previous version
            for page in ((at & !(PAGE_SIZE - 1))..at + count).step_by(PAGE_SIZE) {
                if range.is_invalid(page) {
                    crate::sys::invalid::validate(page);
                }
            }
            range.span.write(offset, chunk);
            let first = at & !(PAGE_SIZE - 1);
            if let Some(dirty) = self.dirty.as_mut() {
                dirty.extend((first..at + count).step_by(PAGE_SIZE));
            }
            if let Backend::Uffd { .. } = self.backend {
                let from = match self.injected.last() {
                    Some(&last) if last >= first => last + PAGE_SIZE,
                    _ => first,
                };
                // kept pages are writable and stay so
                let kept = &self.kept.runs;
                self.injected.extend(
                    (from..at + count)
                        .step_by(PAGE_SIZE)
                        .filter(|&p| !kept::holds(kept, p)),
                );
                if let Some(prediction) = self.prediction.as_mut() {
                    for page in (first..at + count).step_by(PAGE_SIZE) {
                        if prediction.injected.last() != Some(&page) {
                            prediction.injected.push(page);
                        }
                    }
                }
            }
            // mprotect: pages not marked written use memory as twin; marked ones (no commit yet)
            // keep a real twin that must follow.
            range.twin.bytes_mut(offset, count).copy_from_slice(chunk);
            done += count;
        }
    }

    /// A hint before the merge reads or injects lines `lines` (bit i: line i) of `page`: their
    /// memory and twin lines are fetched into the cache while the previous page is handled (the
    /// lines of a page another rank changed are cold here, and sparse: the hardware
    /// prefetcher, which follows streams, does not see them coming; nor does it cross into
    /// the next page of a diff).
    pub fn prefetch(&self, page: usize, lines: u64) {
        if let Some(range) = self.range_of(page) {
            let offset = page - range.start();
            crate::sys::simd::prefetch_lines(range.span.start() + offset, lines);
            crate::sys::simd::prefetch_lines(range.twin.base() + offset, lines);
        }
    }

    /// [`Tracker::protect_injected`] when many pages were injected; a few are left writable
    /// for the next begin scan to copy and protect (the twins are right either way).
    pub fn settle_injected(&mut self) {
        if self.injected.len() < FEW_INJECTED_PAGES {
            self.injected.clear();
            self.protected_since_scan = false;
        } else {
            self.protect_injected();
        }
    }

    /// After the runtime's injections, before any other write to tracked memory (user code,
    /// combiners): the injected pages, whose twins already hold what `inject` wrote, are
    /// write-protected again, so that the next `begin_region` does not copy them whole (uffd;
    /// nothing to do for mprotect). Pages contiguous with the current stack are left alone:
    /// runtime frames may have written them since the region end, and the scan must see that.
    pub fn protect_injected(&mut self) {
        self.protected_since_scan = false;
        let mut injected = std::mem::take(&mut self.injected);
        if let (Backend::Uffd { uffd, .. }, Phase::Idle) = (&self.backend, self.phase) {
            injected.sort_unstable();
            injected.dedup();
            let (stack_lo, stack_hi) = self.stack_span();
            let mut pages = injected
                .iter()
                .copied()
                .filter(|&p| p + PAGE_SIZE <= stack_lo || p >= stack_hi)
                .peekable();
            while let Some(from) = pages.next() {
                let mut to = from + PAGE_SIZE;
                while pages.next_if_eq(&to).is_some() {
                    to += PAGE_SIZE;
                }
                // On failure the page stays unprotected: the next scan copies it, as before.
                let _ = uffd.write_protect(from, to - from);
            }
        }
        injected.clear();
        self.injected = injected;
    }

    /// Before the merge's injections (between finish_region and `protect_injected`): the tracked
    /// pages the runs `(addr, len)` will write are unprotected in coalesced ioctls, so that
    /// `inject` takes no write fault there; `protect_injected` protects them again. Only when
    /// nothing but `inject` wrote tracked memory since end_region (its scan protected every
    /// written page): otherwise, and for pages contiguous with the stack, nothing is done.
    pub fn expect_injections(&mut self, runs: impl Iterator<Item = (usize, usize)>) {
        let Backend::Uffd { uffd, .. } = &self.backend else {
            return;
        };
        if !self.protected_since_scan || self.phase != Phase::Idle {
            return;
        }
        let (stack_lo, stack_hi) = self.stack_span();
        let first_new = self.injected.len();
        for (addr, len) in runs.filter(|&(_, len)| len > 0) {
            let mut page = addr & !(PAGE_SIZE - 1);
            let from = match self.injected.last() {
                Some(&last) if last >= page => last + PAGE_SIZE,
                _ => page,
            };
            page = from;
            while page < addr + len {
                let outside_stack = page + PAGE_SIZE <= stack_lo || page >= stack_hi;
                let kept = kept::holds(&self.kept.runs, page);
                if outside_stack && !kept && self.range_of(page).is_some() {
                    self.injected.push(page);
                }
                page += PAGE_SIZE;
            }
        }
        // Runs, joined across short gaps (pages nothing writes until protect_injected: safe to
        // unprotect and protect again), as the elision does: one ioctl per run.
        let mut runs = std::mem::take(&mut self.kept.spare);
        runs.clear();
        for &page in &self.injected[first_new..] {
            match runs.last_mut() {
                Some((from, to))
                    if page >= *to
                        && page <= *to + prediction::MAX_GAP_PAGES * PAGE_SIZE
                        && same_range(&self.ranges, *from, page) =>
                {
                    *to = page + PAGE_SIZE
                }
                _ => runs.push((page, page + PAGE_SIZE)),
            }
        }
        self.injected.truncate(first_new);
        // a gap must not reach into kept pages, which stay writable
        let mut pieces = std::mem::take(&mut self.kept.pieces);
        kept::subtract(&runs, &self.kept.runs, &mut pieces);
        for &(from, to) in &pieces {
            self.injected.extend((from..to).step_by(PAGE_SIZE));
            // On failure the pages stay protected: inject faults there, as before.
            let _ = uffd.unprotect(from, to - from);
        }
        self.kept.spare = runs;
        self.kept.pieces = pieces;
    }

    /// The tracked memory contiguous with the stack this code runs on ((0, 0): none).
    fn stack_span(&self) -> (usize, usize) {
        let marker = 0u8;
        let sp = std::hint::black_box(&marker) as *const u8 as usize;
        contiguous_span(&self.ranges, |r| (r.start(), r.end()), sp)
    }
}

/// The union of the ranges (sorted, disjoint; `bounds` gives each one's start and end) that
/// touch one another around the one holding `addr`; (0, 0) when none holds it.
fn contiguous_span<T>(
    ranges: &[T],
    bounds: impl Fn(&T) -> (usize, usize),
    addr: usize,
) -> (usize, usize) {
    let Some(index) = ranges.iter().position(|r| {
        let (s, e) = bounds(r);
        s <= addr && addr < e
    }) else {
        return (0, 0);
    };
    let (mut lo, mut hi) = (index, index);
    while lo > 0 && bounds(&ranges[lo - 1]).1 == bounds(&ranges[lo]).0 {
        lo -= 1;
    }
    while hi + 1 < ranges.len() && bounds(&ranges[hi]).1 == bounds(&ranges[hi + 1]).0 {
        hi += 1;
    }
    (bounds(&ranges[lo]).0, bounds(&ranges[hi]).1)
}

#[cfg(test)]
mod tests {
    use super::contiguous_span;

    #[test]
    fn the_stack_span_joins_adjacent_ranges_only() {
        // the stack is tracked in adjacent pieces as the lowest stack pointer goes down
        let ranges = [
            (0x1000, 0x3000),
            (0x8000, 0x9000),
            (0x9000, 0xc000),
            (0xd000, 0xe000),
        ];
        let span = |addr| contiguous_span(&ranges, |&r| r, addr);
        assert_eq!(span(0x8800), (0x8000, 0xc000));
        assert_eq!(span(0xbfff), (0x8000, 0xc000));
        assert_eq!(span(0x1000), (0x1000, 0x3000));
        assert_eq!(span(0xc000), (0, 0));
    }
}
