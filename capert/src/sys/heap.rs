//! The deterministic application heap: talc on a span of the fixed-address arena that
//! grows on demand. Same call sequence => same addresses on every rank.
//!
//! Each block carries a 16-byte header just below the user pointer holding the layout of
//! the underlying talc allocation, so `free(ptr)` needs no size.

use std::alloc::Layout;
use std::ptr::NonNull;
use talc::{ErrOnOom, Span, Talc};

const HEADER: usize = 16;
/// The smallest growth of the claimed span, so that growth (and new tracker ranges) is rare.
const MIN_GROWTH: usize = 1 << 20;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HeapError {
    /// The request cannot fit in the arena even after growing to its end.
    Exhausted { requested: usize, arena_size: usize },
    /// Size/alignment overflow or an alignment that is not a power of two.
    BadRequest,
}

pub struct Heap {
    talc: Talc<ErrOnOom>,
    base: usize,
    limit: usize,
    /// The span talc manages: [base, claimed_end).
    claimed: Option<Span>,
}

// SAFETY: the raw pointers inside Talc/Span refer to the arena mapping, which lives for the
// whole process and is only accessed through `&mut Heap` (callers hold a lock).
unsafe impl Send for Heap {}

impl Heap {
    /// A heap over `[base, base+size)`, which must be mapped read/write for the process's
    /// lifetime. Nothing is touched until the first allocation.
    pub fn new(base: usize, size: usize) -> Heap {
        Heap {
            talc: Talc::new(ErrOnOom),
            base,
            limit: base + size,
            claimed: None,
        }
    }

    pub fn base(&self) -> usize {
        self.base
    }

    pub fn limit(&self) -> usize {
        self.limit
    }

    /// End of the part of the arena handed to the allocator so far (page aligned).
    pub fn claimed_end(&self) -> usize {
        match self.claimed {
            Some(span) => span
                .get_base_acme()
                .map_or(self.base, |(_, acme)| (acme as usize + 4095) & !4095),
            None => self.base,
        }
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
            match unsafe { self.talc.malloc(layout) } {
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
            self.talc.free(raw, layout);
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
        let want = cur_size
            .max(MIN_GROWTH)
            .max(need)
            .checked_add(cur_end)
            .ok_or(exhausted.clone())?;
        let new_end = (want.checked_add(4095).ok_or(exhausted.clone())? & !4095).min(self.limit);
        if new_end <= cur_end {
            return Err(exhausted);
        }
        let req = Span::new(self.base as *mut u8, new_end as *mut u8);
        let span = match self.claimed {
            // SAFETY: [base, new_end) is inside our read/write arena mapping and contains the old heap.
            Some(old) => unsafe { self.talc.extend(old, req) },
            // SAFETY: as above; the first claim also places talc's metadata at `base`.
            None => unsafe { self.talc.claim(req) }.map_err(|()| exhausted.clone())?,
        };
        self.claimed = Some(span);
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
