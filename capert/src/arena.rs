//! The application heap: a deterministic allocator ([`crate::sys::heap::Heap`]) in a
//! fixed-address mapping, so that the same sequence of calls gives the same addresses on every
//! rank. Only the claimed part of the arena is tracked; it is added to the tracker as it grows.

use crate::sys::heap::{Heap, HeapError};
use crate::sys::mem;
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

pub struct Arena {
    heap: Heap,
    /// End of the part already handed to the tracker.
    tracked_end: usize,
}

impl Arena {
    /// Maps `[base, base+size)` at its fixed address.
    pub fn map(base: u64, size: u64) -> Result<Arena, String> {
        let (base, size) = (base as usize, size as usize);
        mem::map_fixed(base, size, "application heap arena", "CAPE_ARENA_BASE")?;
        Ok(Arena {
            heap: Heap::new(base, size),
            tracked_end: base,
        })
    }

    pub fn contains(&self, addr: usize) -> bool {
        self.heap.contains(addr)
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
        self.heap
            .alloc(size, align)
            .map_err(|e| self.describe(e, size))
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
