//! The table of homes: for every eligible page, its home and which of the home's two buffers
//! holds the newest version, packed in one atomic word per page. Indexed by the page's place
//! in the eligible memory (no hashing, no lock): the merge point updates it once per published
//! page and the fetch thread reads it per fetch, so a `HashMap` behind a mutex cost a lock and
//! a SipHash per page on both sides (3 % of a Jacobi sweep, docs/lazy-merge-measurements.md).
//! Chunks of the table are allocated at their first write: the arena's reservation is tens of
//! GiB, of which a program touches a little.

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

/// Spans of eligible memory (start, len; page aligned, ascending) and the index of each
/// one's first page in the table.
pub struct Homes {
    spans: Vec<(usize, usize, usize)>,
    chunks: Box<[OnceLock<Box<[AtomicU32]>>]>,
}

impl Homes {
    pub fn new(spans: &[(usize, usize)]) -> Homes {
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
        let chunks = (0..pages.div_ceil(CHUNK))
            .map(|_| OnceLock::new())
            .collect();
        Homes { spans, chunks }
    }

    /// The table index of `page` (None: not an eligible page).
    fn index(&self, page: usize) -> Option<usize> {
        let at = self.spans.partition_point(|&(s, l, _)| s + l <= page);
        let &(start, _, first) = self.spans.get(at).filter(|&&(s, _, _)| s <= page)?;
        Some(first + (page - start) / PAGE_SIZE)
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
}
