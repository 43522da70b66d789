//! The application heap: a deterministic allocator ([`crate::sys::heap::Heap`]) in a
//! fixed-address mapping, so that the same sequence of calls gives the same addresses on every
//! rank. Only the claimed part of the arena is tracked; it is added to the tracker as it grows.

use crate::sys::heap::{Heap, HeapError};
use crate::sys::mem;
use std::collections::BTreeMap;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicBool, Ordering};

/// True while this rank is inside an active (tracked, multi-rank) region or a logged one.
/// Heap calls then go to libc: ranks run different iterations, so the arena allocator state
/// must not change (and a logged region's arena must stay as the log rebuilds it).
static IN_ACTIVE_REGION: AtomicBool = AtomicBool::new(false);

pub fn in_active_region() -> bool {
    IN_ACTIVE_REGION.load(Ordering::Relaxed)
}

/// Set by the region protocol around the user's code of a region.
pub fn set_in_active_region(on: bool) {
    IN_ACTIVE_REGION.store(on, Ordering::Relaxed);
}

/// Blocks at least this large are remembered with their extent (for write scopes); smaller
/// ones are known only to lie somewhere outside the remembered ones.
pub const LARGE_BLOCK: usize = 64 << 10;

pub struct Arena {
    heap: Heap,
    /// End of the part already handed to the tracker.
    tracked_end: usize,
    /// Live blocks of at least `LARGE_BLOCK` bytes: start -> end. Every entry is a live block
    /// with its exact extent; a block may be missing (then it lies outside all entries).
    large: BTreeMap<usize, usize>,
    /// The end of the highest block ever handed out: the program never held memory above it.
    high_water: usize,
    /// Times the allocator changed where this rank did not see it (`forget_all_blocks`):
    /// checkpoint compaction stops at the first (ft/mod.rs).
    unseen_changes: u64,
}

impl Arena {
    /// Maps `[base, base+size)` at its fixed address.
    pub fn map(base: u64, size: u64) -> Result<Arena, String> {
        let (base, size) = (base as usize, size as usize);
        mem::map_fixed(base, size, "application heap arena", "CAPE_ARENA_BASE")?;
        Ok(Arena {
            heap: Heap::new(base, size),
            tracked_end: base,
            large: BTreeMap::new(),
            high_water: base,
            unseen_changes: 0,
        })
    }

    /// Transparent huge pages for the whole arena (the uffd tracker's scans walk one entry per
    /// huge page of memory not written since; the mprotect tracker needs 4 KiB pages).
    pub fn allow_huge_pages(&self) {
        mem::allow_huge_pages(self.heap.base(), self.heap.limit() - self.heap.base());
    }

    pub fn contains(&self, addr: usize) -> bool {
        self.heap.contains(addr)
    }

    /// `[base, limit)`: every address the arena may ever hand out.
    pub fn bounds(&self) -> (usize, usize) {
        (self.heap.base(), self.heap.limit())
    }

    pub fn base(&self) -> usize {
        self.heap.base()
    }

    /// `[base, end)`: the part of the arena that may hold application data.
    pub fn used_range(&self) -> (usize, usize) {
        (self.heap.base(), self.heap.claimed_end())
    }

    /// The end of the arena's mapping.
    pub fn limit(&self) -> usize {
        self.heap.limit()
    }

    /// The part claimed but not yet handed to the tracker: `[start, end)`.
    pub fn untracked(&self) -> Option<(usize, usize)> {
        let end = self.heap.claimed_end();
        (end > self.tracked_end).then_some((self.tracked_end, end))
    }

    /// The part claimed since the last call, to be added to the tracker: `(start, len)`.
    pub fn take_untracked(&mut self) -> Option<(usize, usize)> {
        let (start, end) = self.untracked()?;
        self.tracked_end = end;
        Some((start, end - start))
    }

    /// The bytes of a claimed part of the arena.
    pub fn bytes(&self, start: usize, end: usize) -> &[u8] {
        self.heap.claimed_bytes(start, end)
    }

    /// Reads bytes at `start` in the arena, claimed or not (panics outside it).
    pub fn read(&self, start: usize, out: &mut [u8]) {
        self.heap.read_in_arena(start, out);
    }

    /// Writes merged `bytes` at `start` in the arena (panics outside it).
    pub fn write(&mut self, start: usize, bytes: &[u8]) {
        self.heap.write_in_arena(start, bytes);
    }

    pub fn alloc(&mut self, size: usize, align: usize) -> Result<NonNull<u8>, String> {
        let block = self
            .heap
            .alloc(size, align)
            .map_err(|e| self.describe(e, size))?;
        self.note_block(block.as_ptr() as usize, size);
        Ok(block)
    }

    /// A block of `size` bytes now lives at `start` (allocated or moved by realloc).
    pub fn note_block(&mut self, start: usize, size: usize) {
        self.high_water = self.high_water.max(start + size);
        if size >= LARGE_BLOCK {
            self.large.insert(start, start + size);
        }
    }

    /// The block at `start` is freed (or moved by realloc).
    pub fn forget_block(&mut self, start: usize) {
        self.large.remove(&start);
    }

    /// The allocator changed in ways this rank did not see (another rank's `single` block,
    /// a replayed or broadcast state): no block extent is known any more.
    pub fn forget_all_blocks(&mut self) {
        self.large.clear();
        self.unseen_changes += 1;
    }

    /// How many times the allocator changed where this rank did not see it.
    pub fn unseen_changes(&self) -> u64 {
        self.unseen_changes
    }

    /// The memory a write through a pointer to `addr` in the arena can reach: the large block
    /// holding it (a pointer just past its end included), else everything outside the known
    /// large blocks (small blocks are not remembered) up to the highest block ever handed out
    /// (claimed memory above it costs scans without holding anything). Ranges are appended
    /// to `out`.
    pub fn reach(&self, addr: usize, out: &mut Vec<(usize, usize)>) {
        let (base, claimed_end) = self.used_range();
        let end = self.high_water.min(claimed_end);
        if let Some((&start, &stop)) = self.large.range(..=addr).next_back() {
            if addr <= stop {
                out.push((start, stop));
                if addr < stop {
                    return;
                }
            }
        }
        let mut at = base;
        for (&start, &stop) in &self.large {
            if start > at {
                out.push((at, start));
            }
            at = at.max(stop);
        }
        if end > at {
            out.push((at, end));
        }
    }

    /// The allocator itself, for `free`/`realloc` (whose safety contracts the ffi layer keeps).
    pub fn heap_mut(&mut self) -> &mut Heap {
        &mut self.heap
    }

    pub fn describe(&self, e: HeapError, size: usize) -> String {
        match e {
            HeapError::Exhausted {
                requested,
                arena_size,
            } => format!(
                "the application heap arena is exhausted ({requested} bytes requested, arena of {arena_size} bytes): set a larger `CAPE_ARENA_SIZE`"
            ),
            HeapError::BadRequest => format!(
                "invalid allocation request ({size} bytes or a bad alignment)"
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reach_of_large_and_small_blocks() {
        let base = 0x3c00_0000_0000u64;
        let mut arena = Arena::map(base, 64 << 20).unwrap();
        let small = arena.alloc(100, 16).unwrap().as_ptr() as usize;
        let large = arena.alloc(LARGE_BLOCK * 2, 16).unwrap().as_ptr() as usize;
        let small2 = arena.alloc(200, 16).unwrap().as_ptr() as usize;
        let (start, _) = arena.used_range();
        let high = small2 + 200;
        let mut out = Vec::new();
        // inside the large block, and just past its end: the block
        arena.reach(large + 5, &mut out);
        assert_eq!(out, vec![(large, large + 2 * LARGE_BLOCK)]);
        out.clear();
        arena.reach(large + 2 * LARGE_BLOCK, &mut out);
        assert_eq!(out[0], (large, large + 2 * LARGE_BLOCK));
        // a small block: everything but the large block, up to the highest block
        out.clear();
        arena.reach(small, &mut out);
        assert_eq!(out, vec![(start, large), (large + 2 * LARGE_BLOCK, high)]);
        assert!(out.iter().any(|&(s, e)| s <= small2 && small2 < e));
        // freed: no longer known, so a pointer into it reaches everything below the high water
        arena.forget_block(large);
        out.clear();
        arena.reach(large + 5, &mut out);
        assert_eq!(out, vec![(start, high)]);
        arena.note_block(large, 2 * LARGE_BLOCK);
        arena.forget_all_blocks();
        out.clear();
        arena.reach(small, &mut out);
        assert_eq!(out, vec![(start, high)]);
        mem::unmap(base as usize, 64 << 20);
    }
}
