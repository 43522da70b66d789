//! The fingerprint of shared memory (user globals + the used arena; not the stack): the
//! wrapping sum over pages of XXH64(page's valid bytes, seeded with their address). Additive,
//! so a page that changed costs one rehash: the table keeps each page's hash, and only pages
//! the tracker reports as written since the last fingerprint are rehashed (uffd). The mprotect
//! tracker does not see writes outside regions, so it rehashes everything each time.

use crate::tickpt::xxh64;
use crate::track::PAGE_SIZE;
use std::collections::HashMap;

#[derive(Debug, Default)]
pub struct Fingerprint {
    pages: HashMap<usize, u64>,
    sum: u64,
    /// Valid ranges used for the last computation.
    valid: Vec<(usize, usize)>,
    initialised: bool,
}

/// Hash of the bytes of `page` inside `valid` (sorted), None when there are none.
fn page_hash<'m>(
    page: usize,
    valid: &[(usize, usize)],
    memory: &impl Fn(usize) -> Option<&'m [u8]>,
) -> Option<u64> {
    let end = page + PAGE_SIZE;
    let mut h: Option<u64> = None;
    let first = valid.partition_point(|&(_, e)| e <= page);
    for &(s, e) in &valid[first..] {
        if s >= end {
            break;
        }
        let (lo, hi) = (s.max(page), e.min(end));
        if lo >= hi {
            continue;
        }
        let bytes = memory(page)?;
        let piece = &bytes[lo - page..hi - page];
        h = Some(xxh64(piece, h.unwrap_or(0) ^ lo as u64));
    }
    h
}

fn pages_of(ranges: &[(usize, usize)], out: &mut Vec<usize>) {
    for &(s, e) in ranges {
        let mut p = s & !(PAGE_SIZE - 1);
        while p < e {
            out.push(p);
            p += PAGE_SIZE;
        }
    }
}

impl Fingerprint {
    /// The fingerprint now. `valid`: the byte ranges that count (sorted, disjoint);
    /// `dirty`: pages that may have changed since the last call; `full`: rehash everything;
    /// `memory(page)`: the page's current bytes (None: unreadable, counted as absent).
    pub fn update<'m>(
        &mut self,
        valid: &[(usize, usize)],
        dirty: &[usize],
        full: bool,
        memory: impl Fn(usize) -> Option<&'m [u8]>,
    ) -> u64 {
        let mut todo = Vec::new();
        if full || !self.initialised {
            self.pages.clear();
            self.sum = 0;
            pages_of(valid, &mut todo);
        } else {
            todo.extend_from_slice(dirty);
            if valid != self.valid.as_slice() {
                // Pages whose valid part may have changed: those of both range sets' ends.
                for &(s, e) in self.valid.iter().chain(valid) {
                    todo.push(s & !(PAGE_SIZE - 1));
                    todo.push(e.saturating_sub(1) & !(PAGE_SIZE - 1));
                }
                // Pages that entered or left the valid set.
                let mut old = Vec::new();
                pages_of(&self.valid, &mut old);
                let mut new = Vec::new();
                pages_of(valid, &mut new);
                old.sort_unstable();
                new.sort_unstable();
                todo.extend(new.iter().filter(|p| old.binary_search(p).is_err()));
                todo.extend(old.iter().filter(|p| new.binary_search(p).is_err()));
            }
        }
        todo.sort_unstable();
        todo.dedup();
        for page in todo {
            if let Some(old) = self.pages.remove(&page) {
                self.sum = self.sum.wrapping_sub(old);
            }
            if let Some(h) = page_hash(page, valid, &memory) {
                self.pages.insert(page, h);
                self.sum = self.sum.wrapping_add(h);
            }
        }
        self.valid = valid.to_vec();
        self.initialised = true;
        self.sum
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn incremental_equals_full() {
        let base = 0x10000usize;
        let mut mem = vec![0u8; 8 * PAGE_SIZE];
        for (i, b) in mem.iter_mut().enumerate() {
            *b = (i * 7 % 251) as u8;
        }
        let page = |m: &Vec<u8>, p: usize| m[p - base..p - base + PAGE_SIZE].to_vec();
        let valid1 = vec![
            (base + 100, base + 3 * PAGE_SIZE + 5),
            (base + 5 * PAGE_SIZE, base + 6 * PAGE_SIZE),
        ];
        let mut inc = Fingerprint::default();
        let snap: Vec<Vec<u8>> = (0..8).map(|i| page(&mem, base + i * PAGE_SIZE)).collect();
        let first = inc.update(&valid1, &[], false, |p| {
            Some(&snap[(p - base) / PAGE_SIZE][..])
        });
        // Change a byte on page 1 and grow the second range into page 6.
        mem[PAGE_SIZE + 9] ^= 0xff;
        let valid2 = vec![
            (base + 100, base + 3 * PAGE_SIZE + 5),
            (base + 5 * PAGE_SIZE, base + 6 * PAGE_SIZE + 40),
        ];
        let snap: Vec<Vec<u8>> = (0..8).map(|i| page(&mem, base + i * PAGE_SIZE)).collect();
        let read = |p: usize| Some(&snap[(p - base) / PAGE_SIZE][..]);
        let second = inc.update(&valid2, &[base + PAGE_SIZE], false, read);
        let full = Fingerprint::default().update(&valid2, &[], false, read);
        assert_eq!(second, full);
        assert_ne!(first, second);
        // A change outside the valid ranges does not count.
        mem[4 * PAGE_SIZE + 1] ^= 1;
        let snap: Vec<Vec<u8>> = (0..8).map(|i| page(&mem, base + i * PAGE_SIZE)).collect();
        let read = |p: usize| Some(&snap[(p - base) / PAGE_SIZE][..]);
        assert_eq!(
            inc.update(&valid2, &[base + 4 * PAGE_SIZE], false, read),
            full
        );
    }
}
