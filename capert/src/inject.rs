//! The merged changes of the other ranks written into this rank's memory.

use crate::track::PAGE_SIZE;
use cape_format::changeset::{ChangeSet, LINE};

/// Where injected bytes go: the program's tracked memory (the twins follow), or a simulated
/// memory in tests and benchmarks.
pub trait Target {
    /// Writes bytes another rank changed (merged).
    fn inject(&mut self, addr: usize, bytes: &[u8]);
    /// Reads memory (the unchanged bytes around injected ones).
    fn read(&self, addr: usize, out: &mut [u8]);
    /// A hint: lines `lines` (bit i: line i) of `page` are injected next.
    fn prefetch(&self, _page: usize, _lines: u64) {}
}

/// Writes the changes of the other ranks into memory; returns the bytes changed. Stretches of
/// lines that changed entirely are copied straight from the message, one write each; each
/// stretch of partly changed lines is read once, completed with the changed bytes and written
/// back once.
pub fn inject_others<M: Target>(mem: &mut M, me: u32, merged: &ChangeSet<'_>) -> u64 {
    let mut injected = 0;
    let mut records = merged.records().filter(|r| r.rank != me).peekable();
    if records.peek().is_none() {
        // nothing from the others (a region that wrote nothing): no page-sized stage to clear
        return 0;
    }
    let mut stage = [0u8; PAGE_SIZE];
    while let Some(record) = records.next() {
        if let Some(next) = records.peek() {
            mem.prefetch(next.page as usize, next.lines);
        }
        let page = record.page as usize;
        let partial = record.lines & !record.full;
        for (first, next) in stretches(partial) {
            mem.read(page + first * LINE, &mut stage[first * LINE..next * LINE]);
        }
        // the open stretch of full lines: first line, next line, offset of its bytes
        let mut full: Option<(usize, usize, usize)> = None;
        for line in record.lines() {
            injected += line.data.len() as u64;
            if line.mask == u64::MAX {
                full = match full {
                    Some((first, next, offset)) if next == line.index => {
                        Some((first, next + 1, offset))
                    }
                    other => {
                        write_full(mem, page, record.raw, other);
                        Some((line.index, line.index + 1, line.offset))
                    }
                };
                continue;
            }
            let bytes = &mut stage[line.index * LINE..(line.index + 1) * LINE];
            let mut bits = line.mask;
            for &b in line.data {
                bytes[bits.trailing_zeros() as usize] = b;
                bits &= bits - 1;
            }
        }
        write_full(mem, page, record.raw, full);
        for (first, next) in stretches(partial) {
            mem.inject(page + first * LINE, &stage[first * LINE..next * LINE]);
        }
    }
    injected
}

/// Writes lines `first..next` of `page`, all changed entirely, from the record's bytes at
/// `offset`.
fn write_full<M: Target>(
    mem: &mut M,
    page: usize,
    raw: &[u8],
    full: Option<(usize, usize, usize)>,
) {
    if let Some((first, next, offset)) = full {
        mem.inject(
            page + first * LINE,
            &raw[offset..offset + (next - first) * LINE],
        );
    }
}

/// The maximal stretches `first..next` of set bits of `bits`, ascending.
fn stretches(mut bits: u64) -> impl Iterator<Item = (usize, usize)> {
    std::iter::from_fn(move || {
        if bits == 0 {
            return None;
        }
        let first = bits.trailing_zeros() as usize;
        let len = (bits >> first).trailing_ones() as usize;
        let next = first + len;
        bits &= u64::MAX.checked_shl(next as u32).unwrap_or(0);
        Some((first, next))
    })
}

#[cfg(test)]
mod tests {
    use super::stretches;

    #[test]
    fn stretches_of_bits() {
        let all: Vec<_> = stretches(u64::MAX).collect();
        assert_eq!(all, vec![(0, 64)]);
        let some: Vec<_> = stretches(0b1110_0110 | 1 << 63).collect();
        assert_eq!(some, vec![(1, 3), (5, 8), (63, 64)]);
        assert_eq!(stretches(0).count(), 0);
    }
}
