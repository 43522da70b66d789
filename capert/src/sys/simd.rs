//! Vector compares for the diff: SSE2, which every x86-64 CPU has, so no run-time check.

/// Bit i set iff byte i of the two 64-byte lines differs.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub fn differing_bytes(a: &[u8; 64], b: &[u8; 64]) -> Option<u64> {
    use std::arch::x86_64::{__m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8};
    let mut equal = 0u64;
    for k in 0..4 {
        // SAFETY: SSE2 is part of the x86-64 baseline; each unaligned 16-byte load reads bytes
        // 16k..16k+16 of a 64-byte array.
        let lanes = unsafe {
            let x = _mm_loadu_si128(a.as_ptr().add(16 * k).cast::<__m128i>());
            let y = _mm_loadu_si128(b.as_ptr().add(16 * k).cast::<__m128i>());
            _mm_movemask_epi8(_mm_cmpeq_epi8(x, y))
        };
        equal |= u64::from(lanes as u16) << (16 * k);
    }
    Some(!equal)
}

/// No vector compare on this architecture: the caller uses its portable code.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
pub fn differing_bytes(_a: &[u8; 64], _b: &[u8; 64]) -> Option<u64> {
    None
}

/// Asks the CPU to bring the 64-byte line at `addr` into its caches. A hint: any address is
/// allowed (an unmapped or invalid page is simply not fetched), nothing is read or written.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub fn prefetch(addr: usize) {
    use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
    // SAFETY: a prefetch never faults and has no effect on memory contents, whatever the
    // address (SSE is part of the x86-64 baseline).
    unsafe { _mm_prefetch::<_MM_HINT_T0>(addr as *const i8) }
}

/// No prefetch instruction used on this architecture.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
pub fn prefetch(_addr: usize) {}

/// [`prefetch`] of the lines of the page at `page` whose bit is set in `lines` (bit i: line i).
#[inline]
pub fn prefetch_lines(page: usize, lines: u64) {
    let mut bits = lines;
    while bits != 0 {
        prefetch(page + 64 * bits.trailing_zeros() as usize);
        bits &= bits - 1;
    }
}
