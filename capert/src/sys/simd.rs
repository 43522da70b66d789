//! Vector compares for the diff: SSE2, which every x86-64 CPU has, so no run-time check, and
//! AVX2 where the CPU has it, checked at run time: two 32-byte compares per line instead of
//! four 16-byte ones (a micro-benchmark's scan of written pages 0.70 ms against SSE2's 0.80
//! ms; AVX-512 BW's one compare per line, 0.65-0.68 ms, needs a newer Rust than the
//! supported one; docs/lazy-merge-measurements.md 5.6).

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

/// Lines per page (of 64 bytes each).
const LINES: usize = 64;

/// The first line at or after `from` where the two pages differ, with its mask of differing
/// bytes (bit i: byte i of the line); None when lines `from..` are equal. None also when this
/// CPU has no AVX2 (or this is not x86-64): `Some(None)` is "equal", the outer None is
/// "ask someone else" (the caller compares line by line with [`differing_bytes`]).
#[cfg(target_arch = "x86_64")]
#[inline]
pub fn next_differing_line(
    a: &[u8; 4096],
    b: &[u8; 4096],
    from: usize,
) -> Option<Option<(usize, u64)>> {
    if !std::arch::is_x86_feature_detected!("avx2") {
        return None;
    }
    // SAFETY: the CPU has AVX2 (checked above), the only requirement of the function.
    Some(unsafe { next_differing_line_avx2(a, b, from) })
}

/// No AVX2 on this architecture.
#[cfg(not(target_arch = "x86_64"))]
#[inline]
pub fn next_differing_line(
    _a: &[u8; 4096],
    _b: &[u8; 4096],
    _from: usize,
) -> Option<Option<(usize, u64)>> {
    None
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn next_differing_line_avx2(a: &[u8; 4096], b: &[u8; 4096], from: usize) -> Option<(usize, u64)> {
    use std::arch::x86_64::{__m256i, _mm256_cmpeq_epi8, _mm256_loadu_si256, _mm256_movemask_epi8};
    for line in from..LINES {
        // SAFETY: line < 64, so the unaligned 32-byte loads read bytes 64 line..64 line + 64
        // of 4096-byte arrays; AVX2 is enabled for this function.
        let equal = unsafe {
            let at = 64 * line;
            let x0 = _mm256_loadu_si256(a.as_ptr().add(at).cast::<__m256i>());
            let x1 = _mm256_loadu_si256(a.as_ptr().add(at + 32).cast::<__m256i>());
            let y0 = _mm256_loadu_si256(b.as_ptr().add(at).cast::<__m256i>());
            let y1 = _mm256_loadu_si256(b.as_ptr().add(at + 32).cast::<__m256i>());
            let low = _mm256_movemask_epi8(_mm256_cmpeq_epi8(x0, y0)) as u32;
            let high = _mm256_movemask_epi8(_mm256_cmpeq_epi8(x1, y1)) as u32;
            u64::from(low) | u64::from(high) << 32
        };
        if equal != u64::MAX {
            return Some((line, !equal));
        }
    }
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
