//! The deterministic application heap: talc on a span of the fixed-address arena that
//! grows on demand. Same call sequence => same addresses on every rank.
//!
//! The allocator's whole state (talc's struct and the claimed span) lives in the arena's
//! first bytes, not in runtime memory: it is shared memory like the blocks themselves, so an
//! allocation one rank makes inside `single`/`master` reaches every other rank through the
//! merge like any other write, and so does the replay of a checkpoint log.
//!
//! Each block carries a 16-byte header just below the user pointer holding the layout of
//! the underlying talc allocation, so `free(ptr)` needs no size.

use std::alloc::Layout;
use std::ptr::NonNull;
use talc::{ErrOnOom, Span, Talc};

const HEADER: usize = 16;
/// The smallest growth of the claimed span, so that growth (and new tracker ranges) is rare.
const MIN_GROWTH: usize = 1 << 20;
/// Marks an initialised [`State`] (the arena reads as zero before the first allocation).
const STATE_MAGIC: u64 = 0x4341_5045_4845_4150; // "CAPEHEAP"
/// Room for [`State`] at the arena's base; talc's span starts after it.
const STATE_SIZE: usize = 64;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HeapError {
    /// The request cannot fit in the arena even after growing to its end.
    Exhausted { requested: usize, arena_size: usize },
    /// Size/alignment overflow or an alignment that is not a power of two.
    BadRequest,
}

/// The allocator state at the arena's base. Only word-sized fields: no padding bytes that
/// could differ between ranks.
#[repr(C)]
struct State {
    magic: u64,
    /// The span talc manages (as talc returned it); both 0 before the first claim.
    span_base: usize,
    span_acme: usize,
    talc: Talc<ErrOnOom>,
}

const _: () = assert!(std::mem::size_of::<State>() <= STATE_SIZE);

/// A handle on the heap of `[base, limit)`; the state itself is in that memory.
pub struct Heap {
    base: usize,
    limit: usize,
}

impl Heap {
    /// A heap over `[base, base+size)`, which must be mapped read/write for the process's
    /// lifetime. Nothing is touched until the first allocation.
    pub fn new(base: usize, size: usize) -> Heap {
        Heap {
            base,
            limit: base + size,
        }
    }

    /// The state at the arena's base, initialised on first use.
    fn state(&mut self) -> &mut State {
        let state = self.base as *mut State;
        // SAFETY: the arena is mapped read/write for the process's lifetime, `base` is page
        // aligned and the first STATE_SIZE bytes belong to the state alone; the reference
        // lives only as long as `&mut self` (callers hold the runtime lock), and merges write
        // these bytes only between calls.
        unsafe {
            if (*state).magic != STATE_MAGIC {
                state.write(State {
                    magic: STATE_MAGIC,
                    span_base: 0,
                    span_acme: 0,
                    talc: Talc::new(ErrOnOom),
                });
            }
            &mut *state
        }
    }

    /// The span talc manages, if it claimed one (read without initialising anything).
    fn claimed(&self) -> Option<Span> {
        let state = self.base as *const State;
        // SAFETY: as in `state`; only plain words are read.
        let (base, acme) = unsafe { ((*state).span_base, (*state).span_acme) };
        (self.initialised() && acme > base).then(|| Span::new(base as *mut u8, acme as *mut u8))
    }

    pub fn base(&self) -> usize {
        self.base
    }

    pub fn limit(&self) -> usize {
        self.limit
    }

    /// End of the part of the arena handed to the allocator so far (page aligned).
    /// Once the state is initialised, at least its page.
    pub fn claimed_end(&self) -> usize {
        let end = match self.claimed().and_then(|span| span.get_base_acme()) {
            Some((_, acme)) => acme as usize,
            None if self.initialised() => self.base + STATE_SIZE,
            None => self.base,
        };
        (end + 4095) & !4095
    }

    fn initialised(&self) -> bool {
        // SAFETY: as in `state`; one plain word is read.
        unsafe { (*(self.base as *const State)).magic == STATE_MAGIC }
    }

    /// The bytes of `[start, end)`, a part of the claimed arena.
    pub fn claimed_bytes(&self, start: usize, end: usize) -> &[u8] {
        assert!(
            self.base <= start && start <= end && end <= self.claimed_end(),
            "{start:#x}..{end:#x} is not in the claimed heap"
        );
        // SAFETY: inside the arena mapping (checked above), which lives as long as the
        // process; the program does not run while the runtime reads it.
        unsafe { std::slice::from_raw_parts(start as *const u8, end - start) }
    }

    /// Writes `bytes` at `start`, inside the arena (checked). Merged bytes may claim pages
    /// (and initialise the state) of this rank's arena here, hence not limited to the claimed part.
    pub fn write_in_arena(&mut self, start: usize, bytes: &[u8]) {
        let end = start.checked_add(bytes.len());
        assert!(
            self.base <= start && end.is_some_and(|e| e <= self.limit),
            "{start:#x} (+{}) is not in the heap arena",
            bytes.len()
        );
        // SAFETY: inside the arena mapping (checked above), which lives as long as the
        // process and is mapped read/write; `bytes` is runtime memory, not the arena's.
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), start as *mut u8, bytes.len()) }
    }

    /// Reads `out.len()` bytes at `start`, inside the arena (checked), claimed or not: the
    /// bytes around merged ones in pages another rank claimed.
    pub fn read_in_arena(&self, start: usize, out: &mut [u8]) {
        let end = start.checked_add(out.len());
        assert!(
            self.base <= start && end.is_some_and(|e| e <= self.limit),
            "{start:#x} (+{}) is not in the heap arena",
            out.len()
        );
        // SAFETY: inside the arena mapping (checked above), which lives as long as the
        // process and is mapped read/write; `out` is runtime memory, not the arena's.
        unsafe { std::ptr::copy_nonoverlapping(start as *const u8, out.as_mut_ptr(), out.len()) }
    }

    pub fn contains(&self, ptr: usize) -> bool {
        ptr >= self.base && ptr < self.limit
    }

    /// Allocates `size` bytes aligned to `align` (a power of two).
    pub fn alloc(&mut self, size: usize, align: usize) -> Result<NonNull<u8>, HeapError> {
        if !align.is_power_of_two() {
            return Err(HeapError::BadRequest);
        }
        let align = align.max(HEADER);
        // The header sits in the `align` bytes before the user pointer.
        let offset = align;
        let total = size.checked_add(offset).ok_or(HeapError::BadRequest)?;
        let layout = Layout::from_size_align(total, align).map_err(|_| HeapError::BadRequest)?;
        let raw = loop {
            // SAFETY: talc only hands out memory of claimed spans, which lie in our mapping.
            match unsafe { self.state().talc.malloc(layout) } {
                Ok(p) => break p,
                Err(()) => self.grow(total + align + 4096, size)?,
            }
        };
        let user = raw.as_ptr() as usize + offset;
        // SAFETY: `user - 16 .. user` lies inside the block just allocated (offset >= 16) and is
        // 8-byte aligned.
        unsafe {
            let h = (user - HEADER) as *mut usize;
            h.write(total);
            h.add(1).write(align);
        }
        // SAFETY: user is inside a non-null allocation.
        Ok(unsafe { NonNull::new_unchecked(user as *mut u8) })
    }

    /// Frees a pointer returned by [`Heap::alloc`].
    ///
    /// # Safety
    /// `ptr` must come from this heap's `alloc`/`realloc` and not have been freed.
    pub unsafe fn free(&mut self, ptr: NonNull<u8>) {
        // SAFETY: guaranteed by the caller; see `alloc` for the header layout.
        unsafe {
            let (raw, layout) = Self::block(ptr);
            self.state().talc.free(raw, layout);
        }
    }

    /// The usable size of a block.
    ///
    /// # Safety
    /// As for [`Heap::free`].
    pub unsafe fn usable_size(ptr: NonNull<u8>) -> usize {
        // SAFETY: guaranteed by the caller.
        let (_, layout) = unsafe { Self::block(ptr) };
        let align = layout.align();
        layout.size() - align
    }

    /// Resizes a block, moving it when needed (the contents up to the smaller size are kept).
    ///
    /// # Safety
    /// As for [`Heap::free`].
    pub unsafe fn realloc(
        &mut self,
        ptr: NonNull<u8>,
        new_size: usize,
    ) -> Result<NonNull<u8>, HeapError> {
        // SAFETY: guaranteed by the caller.
        let (old_size, align) = unsafe {
            let (_, layout) = Self::block(ptr);
            (layout.size() - layout.align(), layout.align())
        };
        if new_size <= old_size && new_size * 2 >= old_size {
            return Ok(ptr);
        }
        let new = self.alloc(new_size, align)?;
        // SAFETY: both blocks are live, distinct and at least min(old, new) bytes long.
        unsafe {
            std::ptr::copy_nonoverlapping(ptr.as_ptr(), new.as_ptr(), old_size.min(new_size));
            self.free(ptr);
        }
        Ok(new)
    }

    /// # Safety
    /// `ptr` must be a live pointer from `alloc`.
    unsafe fn block(ptr: NonNull<u8>) -> (NonNull<u8>, Layout) {
        let user = ptr.as_ptr() as usize;
        // SAFETY: the header written by `alloc` is just below `user`.
        let (total, align) = unsafe {
            let h = (user - HEADER) as *const usize;
            (h.read(), h.add(1).read())
        };
        // SAFETY: `total`/`align` were validated when the block was allocated.
        let layout = unsafe { Layout::from_size_align_unchecked(total, align) };
        // SAFETY: raw = user - align is the non-null pointer talc returned.
        (
            unsafe { NonNull::new_unchecked((user - align) as *mut u8) },
            layout,
        )
    }

    /// Claims more of the arena: at least `need` more bytes, at least doubling, page aligned.
    fn grow(&mut self, need: usize, requested: usize) -> Result<(), HeapError> {
        let exhausted = HeapError::Exhausted {
            requested,
            arena_size: self.limit - self.base,
        };
        let cur_end = self.claimed_end();
        let cur_size = cur_end - self.base;
        // a request the arena cannot hold claims nothing (the allocation fails, and the
        // claimed part, which the tracker follows, stays as it was)
        if cur_end.checked_add(need).is_none_or(|end| end > self.limit) {
            return Err(exhausted);
        }
        let want = cur_size
            .max(MIN_GROWTH)
            .max(need)
            .checked_add(cur_end)
            .ok_or(exhausted.clone())?;
        let new_end = (want.checked_add(4095).ok_or(exhausted.clone())? & !4095).min(self.limit);
        if new_end <= cur_end {
            return Err(exhausted);
        }
        let req = Span::new((self.base + STATE_SIZE) as *mut u8, new_end as *mut u8);
        let old = self.claimed();
        let state = self.state();
        let span = match old {
            // SAFETY: [base + STATE_SIZE, new_end) is inside our read/write arena mapping,
            // apart from the state, and contains the old heap.
            Some(old) => unsafe { state.talc.extend(old, req) },
            // SAFETY: as above; the first claim also places talc's metadata at its start.
            None => unsafe { state.talc.claim(req) }.map_err(|()| exhausted.clone())?,
        };
        let (span_base, span_acme) = span.get_base_acme().ok_or(exhausted)?;
        state.span_base = span_base as usize;
        state.span_acme = span_acme as usize;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sys::mem::{map_fixed, unmap};

    fn run_sequence(base: usize) -> Vec<usize> {
        let mut h = Heap::new(base, 64 << 20);
        let mut ptrs = Vec::new();
        let mut out = Vec::new();
        for i in 0..500usize {
            let p = h
                .alloc(1 + (i * 7919) % 5000, if i % 5 == 0 { 64 } else { 8 })
                .unwrap();
            out.push(p.as_ptr() as usize);
            ptrs.push(p);
            if i % 3 == 0 {
                let victim = ptrs.swap_remove((i * 31) % ptrs.len());
                // SAFETY: from this heap, freed once.
                unsafe { h.free(victim) };
            }
            if i % 11 == 0 && !ptrs.is_empty() {
                let last = ptrs.len() - 1;
                // SAFETY: live pointer from this heap.
                ptrs[last] = unsafe { h.realloc(ptrs[last], 20000).unwrap() };
                out.push(ptrs[last].as_ptr() as usize);
            }
        }
        let big = h.alloc(10 << 20, 4096).unwrap();
        out.push(big.as_ptr() as usize);
        out.push(h.claimed_end());
        out
    }

    #[test]
    fn deterministic_and_aligned() {
        let base = 0x3c00_0000_0000usize;
        map_fixed(base, 64 << 20, "arena", "CAPE_ARENA_BASE").unwrap();
        let a = run_sequence(base);
        unmap(base, 64 << 20);
        map_fixed(base, 64 << 20, "arena", "CAPE_ARENA_BASE").unwrap();
        let b = run_sequence(base);
        unmap(base, 64 << 20);
        assert_eq!(a, b);
        assert!(a.iter().all(|&p| p >= base && p < base + (64 << 20)));
        assert_eq!(a[a.len() - 2] % 4096, 0);
    }

    /// The allocator keeps no state outside the arena: restoring the arena's bytes (what a
    /// merge does when another rank allocated) restores the allocator, and a new handle on the
    /// same memory continues where the old one stopped.
    #[test]
    fn state_lives_in_the_arena() {
        let base = 0x3e00_0000_0000usize;
        map_fixed(base, 64 << 20, "arena", "CAPE_ARENA_BASE").unwrap();
        let mut h = Heap::new(base, 64 << 20);
        let first = h.alloc(100, 16).unwrap().as_ptr() as usize;
        let snapshot = |end: usize| {
            // SAFETY: [base, end) is the claimed, mapped part of the arena.
            unsafe { std::slice::from_raw_parts(base as *const u8, end - base) }.to_vec()
        };
        let before = snapshot(h.claimed_end());
        let claimed_before = h.claimed_end();
        let mut a: Vec<usize> = (0..50)
            .map(|i| h.alloc(1000 + i * 300, 8).unwrap().as_ptr() as usize)
            .collect();
        a.push(h.alloc(3 << 20, 64).unwrap().as_ptr() as usize);
        assert!(h.claimed_end() > claimed_before);
        // Back to the state before (as an injection of another rank's bytes would), on a
        // fresh handle: the same calls give the same blocks.
        // SAFETY: writes into the mapped arena; no block of `h` is used afterwards.
        unsafe {
            std::ptr::copy_nonoverlapping(before.as_ptr(), base as *mut u8, before.len());
            std::ptr::write_bytes(
                claimed_before as *mut u8,
                0,
                h.claimed_end() - claimed_before,
            );
        }
        let mut again = Heap::new(base, 64 << 20);
        assert_eq!(again.claimed_end(), claimed_before);
        let mut b: Vec<usize> = (0..50)
            .map(|i| again.alloc(1000 + i * 300, 8).unwrap().as_ptr() as usize)
            .collect();
        b.push(again.alloc(3 << 20, 64).unwrap().as_ptr() as usize);
        assert_eq!(a, b);
        assert!(!a.contains(&first));
        unmap(base, 64 << 20);
    }

    #[test]
    fn exhaustion_is_an_error() {
        let base = 0x3d00_0000_0000usize;
        map_fixed(base, 1 << 20, "arena", "CAPE_ARENA_BASE").unwrap();
        let mut h = Heap::new(base, 1 << 20);
        let small = h.alloc(1000, 8).unwrap();
        // SAFETY: the block is 1000 bytes long.
        unsafe { small.as_ptr().write_bytes(7, 1000) };
        assert!(matches!(
            h.alloc(2 << 20, 8),
            Err(HeapError::Exhausted { .. })
        ));
        assert!(h.alloc(usize::MAX - 8, 8).is_err());
        // Still usable afterwards.
        let p = h.alloc(4000, 16).unwrap();
        assert!(h.contains(p.as_ptr() as usize));
        // SAFETY: 4000-byte block, aligned to 16.
        assert_eq!(unsafe { Heap::usable_size(p) }, 4000);
        unmap(base, 1 << 20);
    }
}
