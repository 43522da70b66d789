//! The table of homes: for every eligible page, its home and which of the home's two buffers
//! holds the newest version, packed in one atomic word per page. Indexed by the page's place
//! in the eligible memory (no hashing, no lock): the merge point updates it once per published
//! page and the fetch thread reads it per fetch, so a `HashMap` behind a mutex cost a lock and
//! a SipHash per page on both sides (3 % of a Jacobi sweep, docs/lazy-merge-measurements.md).
//! Chunks of the table are allocated at their first write: the arena's reservation is tens of
//! GiB, of which a program touches a little. The same index serves [`PageTable`], a plain
//! per-page table of the runtime's thread.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;

use crate::track::PAGE_SIZE;

/// No home: every rank holds the page (never published, or merged eagerly since).
pub const NO_HOME: u32 = u32::MAX;

/// Pages per chunk of the table (16 KiB of entries).
const CHUNK: usize = 4096;

/// Bit of an entry holding the buffer; the low bits hold home + 1 (0: no home), so that an
/// untouched (zero) entry reads as no home, buffer 0.
const BUFFER_BIT: u32 = 1 << 31;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageState {
    pub home: u32,
    /// The home's buffer (0 or 1) holding the newest version.
    pub buffer: u8,
}

impl PageState {
    fn pack(self) -> u32 {
        let home = if self.home == NO_HOME {
            0
        } else {
            self.home + 1
        };
        home | if self.buffer == 1 { BUFFER_BIT } else { 0 }
    }

    fn unpack(word: u32) -> PageState {
        let home = word & !BUFFER_BIT;
        PageState {
            home: if home == 0 { NO_HOME } else { home - 1 },
            buffer: u8::from(word & BUFFER_BIT != 0),
        }
    }
}

/// The place of each eligible page in a per-page table: spans of eligible memory (start,
/// len; page aligned, ascending) and the index of each one's first page.
#[derive(Debug, Clone)]
pub struct PageIndex {
    spans: Vec<(usize, usize, usize)>,
    pages: usize,
}

impl PageIndex {
    pub fn new(spans: &[(usize, usize)]) -> PageIndex {
        let mut sorted = spans.to_vec();
        sorted.sort_unstable();
        let mut pages = 0;
        let spans: Vec<_> = sorted
            .into_iter()
            .map(|(start, len)| {
                let first = pages;
                pages += len / PAGE_SIZE;
                (start, len, first)
            })
            .collect();
        PageIndex { spans, pages }
    }

    /// The table index of `page` (None: not an eligible page).
    pub fn of(&self, page: usize) -> Option<usize> {
        let at = self.spans.partition_point(|&(s, l, _)| s + l <= page);
        let &(start, _, first) = self.spans.get(at).filter(|&&(s, _, _)| s <= page)?;
        Some(first + (page - start) / PAGE_SIZE)
    }

    /// Chunks of `CHUNK` entries that cover every eligible page.
    fn chunks(&self) -> usize {
        self.pages.div_ceil(CHUNK)
    }
}

/// The homes of the eligible pages, one atomic word per page.
pub struct Homes {
    index: PageIndex,
    chunks: Box<[OnceLock<Box<[AtomicU32]>>]>,
}

impl Homes {
    pub fn new(spans: &[(usize, usize)]) -> Homes {
        let index = PageIndex::new(spans);
        let chunks = (0..index.chunks()).map(|_| OnceLock::new()).collect();
        Homes { index, chunks }
    }

    fn index(&self, page: usize) -> Option<usize> {
        self.index.of(page)
    }

    /// The state of `page` (no home when it was never published or is not eligible).
    pub fn get(&self, page: usize) -> PageState {
        let word = self
            .index(page)
            .and_then(|i| self.chunks[i / CHUNK].get().map(|c| &c[i % CHUNK]))
            .map_or(0, |entry| entry.load(Ordering::Acquire));
        PageState::unpack(word)
    }

    /// Updates the state of `page` (an eligible page; others are ignored) with `change`.
    pub fn update(&self, page: usize, change: impl FnOnce(&mut PageState)) {
        let Some(i) = self.index(page) else {
            return;
        };
        let chunk =
            self.chunks[i / CHUNK].get_or_init(|| (0..CHUNK).map(|_| AtomicU32::new(0)).collect());
        let entry = &chunk[i % CHUNK];
        let mut state = PageState::unpack(entry.load(Ordering::Relaxed));
        change(&mut state);
        entry.store(state.pack(), Ordering::Release);
    }
}

/// A value per eligible page for the runtime's thread alone (no atomics), `T::default()`
/// where none was set; chunks allocated at their first write, like the table of homes.
pub struct PageTable<T> {
    index: PageIndex,
    chunks: Vec<Option<Box<[T]>>>,
}

impl<T: Copy + Default> PageTable<T> {
    pub fn new(spans: &[(usize, usize)]) -> PageTable<T> {
        let index = PageIndex::new(spans);
        let chunks = (0..index.chunks()).map(|_| None).collect();
        PageTable { index, chunks }
    }

    /// The value of `page` (the default for a page never set or not eligible).
    pub fn get(&self, page: usize) -> T {
        self.index
            .of(page)
            .and_then(|i| self.chunks[i / CHUNK].as_ref().map(|c| c[i % CHUNK]))
            .unwrap_or_default()
    }

    /// Sets the value of `page` (an eligible page; others are ignored).
    pub fn set(&mut self, page: usize, value: T) {
        if let Some(i) = self.index.of(page) {
            let chunk = self.chunks[i / CHUNK]
                .get_or_insert_with(|| vec![T::default(); CHUNK].into_boxed_slice());
            chunk[i % CHUNK] = value;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: usize = PAGE_SIZE;

    #[test]
    fn untouched_pages_have_no_home() {
        let homes = Homes::new(&[(100 * P, 10 * P)]);
        let none = PageState {
            home: NO_HOME,
            buffer: 0,
        };
        assert_eq!(homes.get(100 * P), none);
        assert_eq!(homes.get(0), none, "not eligible");
    }

    #[test]
    fn states_round_trip_per_page() {
        let homes = Homes::new(&[(1 << 30, (CHUNK + 5) * P), (4 * P, 2 * P)]);
        let far = (1 << 30) + (CHUNK + 2) * P;
        homes.update(far, |s| {
            s.home = 7;
            s.buffer ^= 1;
        });
        homes.update(5 * P, |s| s.home = 0);
        homes.update(0, |s| s.home = 3);
        assert_eq!(homes.get(far), PageState { home: 7, buffer: 1 });
        assert_eq!(homes.get(5 * P), PageState { home: 0, buffer: 0 });
        assert_eq!(homes.get(4 * P).home, NO_HOME);
        homes.update(far, |s| s.home = NO_HOME);
        assert_eq!(
            homes.get(far),
            PageState {
                home: NO_HOME,
                buffer: 1
            },
            "the buffer outlives the home"
        );
        assert_eq!(homes.get(0).home, NO_HOME, "not eligible: ignored");
    }

    #[test]
    fn a_page_table_holds_a_value_per_eligible_page() {
        let mut table: PageTable<(u64, bool)> =
            PageTable::new(&[(1 << 30, (CHUNK + 5) * P), (4 * P, 2 * P)]);
        let far = (1 << 30) + (CHUNK + 2) * P;
        assert_eq!(table.get(far), (0, false), "never set");
        table.set(far, (7, true));
        table.set(5 * P, (1, false));
        table.set(0, (3, true));
        assert_eq!(table.get(far), (7, true));
        assert_eq!(table.get(far - P), (0, false));
        assert_eq!(table.get(5 * P), (1, false));
        assert_eq!(table.get(0), (0, false), "not eligible: ignored");
    }
}
