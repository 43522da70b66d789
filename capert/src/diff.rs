//! Written page vs its twin -> the exact bytes that changed.
//!
//! Byte precision matters: two ranks may change neighbouring bytes of one word, and both changes
//! must survive the merge, so a run never includes an unchanged byte.

use crate::tickpt::{Stamp, Tickpt};
use cape_format::changeset::{self, Writer};

/// Bytes compared at once on the fast path: identical memory (the common case between changes)
/// is skipped one block at a time; only differing blocks are examined word by word.
const BLOCK: usize = 128;

/// Append to `out` the runs of bytes where `mem` differs from `twin` (equal length slices whose
/// first byte is at address `base`). Byte precision: two ranks that changed neighbouring bytes of
/// one word must both survive, so never include an unchanged byte in a run.
///
/// Call it for ranges in increasing address order; a run that continues across the end of one
/// call and the start of the next is coalesced by [`Tickpt::push`].
///
/// # Panics
/// If `mem` and `twin` differ in length (a caller bug).
pub fn diff_into(mem: &[u8], twin: &[u8], base: u64, stamp: Stamp, out: &mut Tickpt) {
    assert_eq!(mem.len(), twin.len(), "diff of unequal ranges");
    let mut runs = RunBuilder {
        mem,
        base,
        stamp,
        out,
    };
    // Start of the run of changed bytes still open; NO_RUN when none is.
    let mut open = NO_RUN;
    let (mem_blocks, mem_rest) = mem.as_chunks::<BLOCK>();
    let (twin_blocks, twin_rest) = twin.as_chunks::<BLOCK>();
    let mut offset = 0;
    for (mem_block, twin_block) in mem_blocks.iter().zip(twin_blocks) {
        // Fast paths: an unchanged block outside a run, a fully changed block inside one.
        let skip = if open == NO_RUN {
            !block_differs(mem_block, twin_block)
        } else {
            block_all_differ(mem_block, twin_block)
        };
        if skip {
            offset += BLOCK;
            continue;
        }
        let (mem_words, _) = mem_block.as_chunks::<8>();
        let (twin_words, _) = twin_block.as_chunks::<8>();
        for (m, t) in mem_words.iter().zip(twin_words) {
            open = runs.word(
                open,
                offset,
                u64::from_le_bytes(*m) ^ u64::from_le_bytes(*t),
            );
            offset += 8;
        }
    }
    let (mem_words, mem_tail) = mem_rest.as_chunks::<8>();
    let (twin_words, twin_tail) = twin_rest.as_chunks::<8>();
    for (m, t) in mem_words.iter().zip(twin_words) {
        open = runs.word(
            open,
            offset,
            u64::from_le_bytes(*m) ^ u64::from_le_bytes(*t),
        );
        offset += 8;
    }
    for (m, t) in mem_tail.iter().zip(twin_tail) {
        open = runs.byte(open, offset, m != t);
        offset += 1;
    }
    runs.close(open, offset);
}

/// Diffs one page of memory against its twin into the change set being written: a record of
/// `rank` for `page` holding the changed bytes that `allowed` admits (per line, bit i: byte i
/// may be recorded; None admits the whole page). Every line that differs is copied into the
/// twin, recorded or not, so that afterwards the twin equals memory. Returns the bytes recorded
/// and whether any byte differed at all.
///
/// # Panics
/// If `mem` or `twin` is not one page long (a caller bug).
pub fn diff_page(
    mem: &[u8],
    twin: &mut [u8],
    page: u64,
    rank: u32,
    allowed: Option<&[u64; LINES]>,
    out: &mut Writer<'_>,
) -> (usize, bool) {
    let (mem, twin) = (page_of(mem), page_of_mut(twin));
    let mut recorded = 0;
    let mut open = false;
    let mut differed = false;
    let mut from = 0;
    while let Some((line, mask)) = next_differing_line(mem, twin, from) {
        from = line + 1;
        differed = true;
        let m: &[u8; LINE] = mem[line * LINE..][..LINE].try_into().expect("one line");
        twin[line * LINE..][..LINE].copy_from_slice(m);
        let mask = allowed.map_or(mask, |a| mask & a[line]);
        if mask == 0 {
            continue;
        }
        if !open {
            out.begin_record(page, rank);
            open = true;
        }
        out.masked_line(line, mask, m);
        recorded += mask.count_ones() as usize;
    }
    (recorded, differed)
}

/// The lines (bit i: line i) where the two pages differ: the compare of the lazy merge's
/// notices, which afterwards brings the twin up to date with [`copy_lines`] (a few lines
/// instead of the whole page, where the compare saw them differ).
///
/// # Panics
/// If `mem` or `twin` is not one page long (a caller bug).
pub fn changed_lines(mem: &[u8], twin: &[u8]) -> u64 {
    let (mem, twin) = (page_of(mem), page_of(twin));
    let mut lines = 0;
    let mut from = 0;
    while let Some((line, _)) = next_differing_line(mem, twin, from) {
        lines |= 1 << line;
        from = line + 1;
    }
    lines
}

/// Copies lines `lines` (bit i: line i) of the page `from` into the page `to`.
///
/// # Panics
/// If `from` or `to` is not one page long (a caller bug).
pub fn copy_lines(from: &[u8], to: &mut [u8], lines: u64) {
    let (from, to) = (page_of(from), page_of_mut(to));
    let mut bits = lines;
    while bits != 0 {
        // a stretch of consecutive lines in one copy
        let first = bits.trailing_zeros() as usize;
        let next = first + (bits >> first).trailing_ones() as usize;
        to[first * LINE..next * LINE].copy_from_slice(&from[first * LINE..next * LINE]);
        bits &= u64::MAX.checked_shl(next as u32).unwrap_or(0);
    }
}

/// Does `bytes` hold only zero bytes? Stops at the first 256-byte block that does not.
pub fn all_zero(bytes: &[u8]) -> bool {
    let (blocks, rest) = bytes.as_chunks::<256>();
    blocks.iter().all(|block| {
        let (words, _) = block.as_chunks::<8>();
        words
            .iter()
            .fold(0, |acc, word| acc | u64::from_ne_bytes(*word))
            == 0
    }) && rest.iter().all(|&b| b == 0)
}

const LINE: usize = changeset::LINE;
const LINES: usize = changeset::PAGE / changeset::LINE;

fn page_of(bytes: &[u8]) -> &[u8; changeset::PAGE] {
    bytes.try_into().expect("diff_page takes one page")
}

fn page_of_mut(bytes: &mut [u8]) -> &mut [u8; changeset::PAGE] {
    bytes.try_into().expect("diff_page takes one page")
}

/// The first line at or after `from` where the pages differ, and its [`line_mask`].
#[inline]
fn next_differing_line(
    mem: &[u8; changeset::PAGE],
    twin: &[u8; changeset::PAGE],
    from: usize,
) -> Option<(usize, u64)> {
    if let Some(found) = crate::sys::simd::next_differing_line(mem, twin, from) {
        return found;
    }
    let (mem_lines, _) = mem.as_chunks::<LINE>();
    let (twin_lines, _) = twin.as_chunks::<LINE>();
    (from..LINES).find_map(|line| {
        let mask = line_mask(&mem_lines[line], &twin_lines[line]);
        (mask != 0).then_some((line, mask))
    })
}

/// Bit i set iff byte i of the two lines differs.
#[inline(always)]
fn line_mask(mem: &[u8; LINE], twin: &[u8; LINE]) -> u64 {
    crate::sys::simd::differing_bytes(mem, twin).unwrap_or_else(|| line_mask_portable(mem, twin))
}

/// [`line_mask`] without vector instructions.
#[inline(always)]
fn line_mask_portable(mem: &[u8; LINE], twin: &[u8; LINE]) -> u64 {
    let (m, _) = mem.as_chunks::<8>();
    let (t, _) = twin.as_chunks::<8>();
    let mut xor = [0u64; 8];
    let mut any = 0;
    for k in 0..8 {
        xor[k] = u64::from_le_bytes(m[k]) ^ u64::from_le_bytes(t[k]);
        any |= xor[k];
    }
    if any == 0 {
        return 0;
    }
    let mut mask = 0;
    for (k, x) in xor.iter().enumerate() {
        mask |= byte_bits(*x) << (8 * k);
    }
    mask
}

/// Bit k set iff byte k of `x` is not zero.
#[inline(always)]
fn byte_bits(x: u64) -> u64 {
    // the high bits of the non-zero bytes, gathered into the top byte by one multiply (each
    // product term lands on its own bit: no carries)
    ((nonzero_bytes(x) >> 7).wrapping_mul(0x0102_0408_1020_4080)) >> 56
}

/// Marks "no run open"; never a valid offset because a run start is below `mem.len()`.
const NO_RUN: usize = usize::MAX;

/// Whether two blocks differ. Branch-free over a fixed-size array, so the compiler unrolls it.
#[inline]
fn block_differs(mem: &[u8; BLOCK], twin: &[u8; BLOCK]) -> bool {
    let (mem_words, _) = mem.as_chunks::<8>();
    let (twin_words, _) = twin.as_chunks::<8>();
    mem_words.iter().zip(twin_words).fold(0, |acc, (m, t)| {
        acc | (u64::from_ne_bytes(*m) ^ u64::from_ne_bytes(*t))
    }) != 0
}

/// Whether every byte of the two blocks differs; branch-free like [`block_differs`].
#[inline]
fn block_all_differ(mem: &[u8; BLOCK], twin: &[u8; BLOCK]) -> bool {
    let (mem_words, _) = mem.as_chunks::<8>();
    let (twin_words, _) = twin.as_chunks::<8>();
    mem_words
        .iter()
        .zip(twin_words)
        .fold(HIGH_BITS, |acc, (m, t)| {
            acc & nonzero_bytes(u64::from_ne_bytes(*m) ^ u64::from_ne_bytes(*t))
        })
        == HIGH_BITS
}

/// Turns the scan's state transitions into runs. The open-run state is passed by value (kept in
/// a register in the hot loop) rather than stored here.
struct RunBuilder<'a, 'b> {
    mem: &'a [u8],
    base: u64,
    stamp: Stamp,
    out: &'b mut Tickpt,
}

impl RunBuilder<'_, '_> {
    /// `xor` is the little-endian XOR of the word at `offset`: byte `k` of the word changed iff
    /// bits `8k..8k+8` are non-zero. Returns the new open-run state.
    #[inline(always)]
    fn word(&mut self, open: usize, offset: usize, xor: u64) -> usize {
        if xor == 0 {
            self.close(open, offset)
        } else if all_bytes_nonzero(xor) {
            if open == NO_RUN {
                offset
            } else {
                open
            }
        } else {
            self.mixed_word(open, offset, xor)
        }
    }

    /// A word with changed and unchanged bytes: jumps from one change of state to the next
    /// (trailing zeros of the byte masks) instead of testing the eight bytes one by one.
    #[inline(always)]
    fn mixed_word(&mut self, open: usize, offset: usize, xor: u64) -> usize {
        // High bit of byte k set iff byte k changed / did not change.
        let mut changed = nonzero_bytes(xor);
        let mut unchanged = !changed & HIGH_BITS;
        let mut open = open;
        loop {
            if open == NO_RUN {
                if changed == 0 {
                    return NO_RUN;
                }
                let start = (changed.trailing_zeros() / 8) as usize;
                open = offset + start;
                unchanged &= u64::MAX << (8 * start);
            } else {
                if unchanged == 0 {
                    return open;
                }
                let end = (unchanged.trailing_zeros() / 8) as usize;
                open = self.close(open, offset + end);
                changed &= u64::MAX << (8 * end);
            }
        }
    }

    #[inline(always)]
    fn byte(&mut self, open: usize, offset: usize, changed: bool) -> usize {
        match (changed, open == NO_RUN) {
            (true, true) => offset,
            (true, false) => open,
            (false, _) => self.close(open, offset),
        }
    }

    /// End the open run, if any, just before `offset`; returns `NO_RUN`.
    #[inline(always)]
    fn close(&mut self, open: usize, offset: usize) -> usize {
        if open != NO_RUN {
            self.emit(open, offset);
        }
        NO_RUN
    }

    #[inline(never)]
    fn emit(&mut self, start: usize, end: usize) {
        self.out
            .push(self.base + start as u64, self.stamp, &self.mem[start..end]);
    }
}

const HIGH_BITS: u64 = 0x8080_8080_8080_8080;

/// The high bit of each byte of the result is set iff that byte of `x` is non-zero.
#[inline(always)]
fn nonzero_bytes(x: u64) -> u64 {
    // Per byte b: (b & 0x7F) + 0x7F sets the high bit iff the low seven bits are non-zero and
    // never carries into the next byte; OR-ing b adds its own high bit.
    (((x & !HIGH_BITS).wrapping_add(!HIGH_BITS)) | x) & HIGH_BITS
}

/// Whether every byte of `x` is non-zero.
#[inline(always)]
fn all_bytes_nonzero(x: u64) -> bool {
    nonzero_bytes(x) == HIGH_BITS
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tickpt::testutil::Rng;

    const STAMP: Stamp = Stamp { order: 4, rank: 2 };

    /// Oracle: a plain byte-by-byte scan.
    fn naive(mem: &[u8], twin: &[u8], base: u64) -> Tickpt {
        let mut t = Tickpt::new(0);
        for (i, (m, w)) in mem.iter().zip(twin).enumerate() {
            if m != w {
                t.push(base + i as u64, STAMP, &[*m]);
            }
        }
        t
    }

    fn diff(mem: &[u8], twin: &[u8], base: u64) -> Tickpt {
        let mut t = Tickpt::new(0);
        diff_into(mem, twin, base, STAMP, &mut t);
        t
    }

    #[test]
    fn neighbouring_bytes_of_one_word_stay_separate() {
        let twin = [0u8; 16];
        let mut mem = twin;
        mem[3] = 1;
        mem[5] = 2;
        mem[6] = 3;
        let t = diff(&mem, &twin, 0x1000);
        let runs: Vec<_> = t.runs().map(|r| (r.addr, r.bytes.to_vec())).collect();
        assert_eq!(runs, vec![(0x1003, vec![1]), (0x1005, vec![2, 3])]);
    }

    #[test]
    fn runs_cross_word_and_block_boundaries() {
        let twin = vec![7u8; 200];
        let mut mem = twin.clone();
        for b in &mut mem[60..140] {
            *b = 9;
        }
        let t = diff(&mem, &twin, 0);
        let runs: Vec<_> = t.runs().map(|r| (r.addr, r.bytes.len())).collect();
        assert_eq!(runs, vec![(60, 80)]);
    }

    #[test]
    fn identical_and_empty_ranges_give_nothing() {
        assert!(diff(&[], &[], 0).is_empty());
        let page = vec![0xA5u8; 4096];
        assert!(diff(&page, &page, 0x7000).is_empty());
    }

    #[test]
    fn all_bytes_nonzero_is_exact() {
        let mut rng = Rng::new(9);
        for _ in 0..100_000 {
            let mut x = rng.next_u64();
            for k in 0..8 {
                if rng.below(4) == 0 {
                    x &= !(0xFF << (8 * k));
                }
            }
            let want = (0..8).all(|k| (x >> (8 * k)) & 0xFF != 0);
            assert_eq!(all_bytes_nonzero(x), want, "{x:#x}");
        }
        assert!(all_bytes_nonzero(0x8080_8080_8080_8080));
        assert!(all_bytes_nonzero(0x0101_0101_0101_0101));
        assert!(!all_bytes_nonzero(0x0101_0101_0101_0100));
    }

    #[test]
    fn matches_bytewise_oracle_on_random_pages() {
        let mut rng = Rng::new(10);
        for case in 0..2000 {
            let len = rng.below(300) as usize;
            let twin = rng.bytes(len, 255);
            let mut mem = twin.clone();
            // Sparse single bytes, dense bursts, or everything.
            let density = [1, 4, 30, 100][case % 4];
            for b in &mut mem {
                if rng.below(100) < density {
                    *b = b.wrapping_add(1 + rng.below(255) as u8);
                }
            }
            let base = rng.below(1 << 47);
            assert_eq!(
                diff(&mem, &twin, base),
                naive(&mem, &twin, base),
                "case {case}"
            );
        }
    }

    #[test]
    fn matches_bytewise_oracle_on_the_benchmark_patterns() {
        // dense, every 8th byte, 2 bytes per double, one byte per page; each on random pages,
        // at every alignment of the page start, with random bytes also changed or kept
        let patterns: [fn(usize) -> bool; 4] = [
            |_| true,
            |i| i.is_multiple_of(8),
            |i| i % 8 >= 6,
            |i| i == 64,
        ];
        let mut rng = Rng::new(11);
        for (p, changes) in patterns.iter().enumerate() {
            for shift in 0..8 {
                let twin = rng.bytes(4096 + shift, 255);
                let mut mem = twin.clone();
                for (i, b) in mem.iter_mut().enumerate().skip(shift) {
                    let flip = rng.below(64) == 0;
                    if changes(i - shift) != flip {
                        *b = b.wrapping_add(1 + rng.below(255) as u8);
                    }
                }
                let base = 0x40_0000 - shift as u64;
                assert_eq!(
                    diff(&mem, &twin, base),
                    naive(&mem, &twin, base),
                    "pattern {p}, shift {shift}"
                );
            }
        }
    }

    #[test]
    fn every_mix_of_changed_bytes_in_a_word() {
        // all 256 changed/unchanged masks of one word, between unchanged and changed words
        for mask in 0..256u32 {
            for around in [0u8, 1] {
                let twin = [0u8; 24];
                let mut mem = [around; 24];
                for k in 0..8 {
                    mem[8 + k] = u8::from(mask >> k & 1 == 1);
                }
                assert_eq!(
                    diff(&mem, &twin, 0),
                    naive(&mem, &twin, 0),
                    "mask {mask:#010b}, around {around}"
                );
            }
        }
    }

    #[test]
    fn consecutive_calls_coalesce_across_pages() {
        let twin = vec![0u8; 8192];
        let mut mem = twin.clone();
        for b in &mut mem[4090..4100] {
            *b = 1;
        }
        let mut t = Tickpt::new(0);
        diff_into(&mem[..4096], &twin[..4096], 0x10000, STAMP, &mut t);
        diff_into(&mem[4096..], &twin[4096..], 0x11000, STAMP, &mut t);
        let runs: Vec<_> = t.runs().map(|r| (r.addr, r.bytes.len())).collect();
        assert_eq!(runs, vec![(0x10000 + 4090, 10)]);
    }

    #[test]
    fn byte_bits_gathers_one_bit_per_byte() {
        let mut rng = Rng::new(12);
        for _ in 0..100_000 {
            let mut x = rng.next_u64();
            for k in 0..8 {
                if rng.below(3) == 0 {
                    x &= !(0xFF << (8 * k));
                }
            }
            let want = (0..8).fold(0, |acc, k| acc | u64::from((x >> (8 * k)) & 0xFF != 0) << k);
            assert_eq!(byte_bits(x), want, "{x:#x}");
        }
    }

    #[test]
    fn vector_and_portable_line_masks_agree() {
        let mut rng = Rng::new(14);
        for _ in 0..20_000 {
            let a: [u8; LINE] = rng.bytes(LINE, 4).try_into().unwrap();
            let b: [u8; LINE] = rng.bytes(LINE, 4).try_into().unwrap();
            let want = (0..LINE).fold(0u64, |m, i| m | u64::from(a[i] != b[i]) << i);
            assert_eq!(line_mask_portable(&a, &b), want);
            assert_eq!(line_mask(&a, &b), want);
        }
    }

    /// `changed_lines` names exactly the lines that differ, and `copy_lines` of them makes the
    /// twin equal to memory.
    #[test]
    fn changed_lines_then_copy_lines_equalise() {
        let mut rng = Rng::new(16);
        for round in 0..500 {
            let mem = rng.bytes(changeset::PAGE, 3);
            let mut twin = mem.clone();
            for _ in 0..round % 70 {
                twin[rng.below(changeset::PAGE as u64) as usize] ^= 1;
            }
            let want = (0..LINES).fold(0u64, |m, line| {
                m | u64::from(mem[line * LINE..][..LINE] != twin[line * LINE..][..LINE]) << line
            });
            let lines = changed_lines(&mem, &twin);
            assert_eq!(lines, want);
            copy_lines(&mem, &mut twin, lines);
            assert_eq!(mem, twin);
        }
        let mem = vec![7u8; changeset::PAGE];
        let mut twin = vec![0u8; changeset::PAGE];
        assert_eq!(changed_lines(&mem, &twin), u64::MAX);
        copy_lines(&mem, &mut twin, u64::MAX);
        assert_eq!(mem, twin);
    }

    /// The scan for differing lines (AVX2 where the CPU has it) finds every differing line
    /// with its exact mask, in order, from any start line.
    #[test]
    fn differing_lines_found_in_order_with_their_masks() {
        let mut rng = Rng::new(15);
        for round in 0..2_000 {
            let a: [u8; changeset::PAGE] = rng.bytes(changeset::PAGE, 2).try_into().unwrap();
            let mut b = a;
            // a few lines changed in a few bytes (round 0: none)
            for _ in 0..round % 7 {
                let at = rng.below(changeset::PAGE as u64) as usize;
                b[at] ^= 1 + rng.below(255) as u8;
            }
            let want: Vec<(usize, u64)> = (0..LINES)
                .filter_map(|line| {
                    let mask = (0..LINE).fold(0u64, |m, i| {
                        m | u64::from(a[line * LINE + i] != b[line * LINE + i]) << i
                    });
                    (mask != 0).then_some((line, mask))
                })
                .collect();
            let mut got = Vec::new();
            let mut from = 0;
            while let Some((line, mask)) = next_differing_line(&a, &b, from) {
                got.push((line, mask));
                from = line + 1;
            }
            assert_eq!(got, want);
            let from = round % LINES;
            let tail: Vec<_> = want.iter().copied().filter(|&(l, _)| l >= from).collect();
            assert_eq!(next_differing_line(&a, &b, from), tail.first().copied());
        }
    }

    /// diff_page against the byte-wise oracle on the benchmark patterns and random pages, with
    /// and without an `allowed` mask; the twin ends equal to memory.
    #[test]
    fn diff_page_records_exactly_the_changed_allowed_bytes() {
        use cape_format::changeset::{testutil::byte_map, Buf, ChangeSet};
        let patterns: [fn(usize) -> bool; 5] = [
            |_| true,
            |i| i.is_multiple_of(8),
            |i| i % 8 >= 6,
            |i| i == 64,
            |_| false,
        ];
        let mut rng = Rng::new(13);
        for case in 0..400 {
            let changes = patterns[case % patterns.len()];
            let old = rng.bytes(changeset::PAGE, 255);
            let mut mem = old.clone();
            for (i, b) in mem.iter_mut().enumerate() {
                if changes(i) != (rng.below(50) == 0) {
                    *b = b.wrapping_add(1 + rng.below(255) as u8);
                }
            }
            let mut allowed = [u64::MAX; LINES];
            let restrict = case % 3 == 0;
            if restrict {
                for a in &mut allowed {
                    *a = rng.next_u64() & rng.next_u64();
                }
            }
            let mut twin = old.clone();
            let mut buf = Buf::new();
            let mut w = Writer::new(&mut buf, 1, [STAMP]);
            let page = 0x7000_0000;
            let (n, differed) = diff_page(
                &mem,
                &mut twin,
                page,
                STAMP.rank,
                restrict.then_some(&allowed),
                &mut w,
            );
            w.finish();
            assert_eq!(twin, mem, "case {case}: the twin follows memory");
            let got = byte_map(&ChangeSet::parse(buf.as_slice()).unwrap());
            let want: std::collections::BTreeMap<u64, (Stamp, u8)> = (0..changeset::PAGE)
                .filter(|&i| mem[i] != old[i] && allowed[i / LINE] >> (i % LINE) & 1 == 1)
                .map(|i| (page + i as u64, (STAMP, mem[i])))
                .collect();
            assert_eq!(n, want.len());
            assert_eq!(differed, mem != old, "case {case}");
            assert!(got == want, "case {case}");
        }
    }

    #[test]
    fn one_unchanged_byte_inside_a_dense_change_splits_the_run() {
        let twin = vec![0u8; 1024];
        for hole in [0, 1, 7, 8, 127, 128, 129, 500, 1023] {
            let mut mem = vec![1u8; 1024];
            mem[hole] = 0;
            assert_eq!(
                diff(&mem, &twin, 0),
                naive(&mem, &twin, 0),
                "hole at {hole}"
            );
        }
    }
}
