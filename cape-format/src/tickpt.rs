//! Time-stamped incremental checkpoints (TICKPT): the runs of shared bytes one or more ranks
//! changed during a region, each run tagged with the [`Stamp`] that orders it as sequential
//! execution would.
//!
//! # Binary format, version 1
//!
//! The checkpoint log stores this encoding, and rank 0 sends it to the ranks outside a small
//! team, so it is versioned and carries a checksum. All integers are little-endian. (Merge
//! messages between ranks are change sets, `crate::changeset`.)
//!
//! | offset | size            | field                                                     |
//! |--------|-----------------|-----------------------------------------------------------|
//! | 0      | 8               | magic `b"CAPETKPT"`                                       |
//! | 8      | 2               | version (`1`)                                             |
//! | 10     | 2               | flags (`0`; any other bit is rejected by version 1)       |
//! | 12     | 8               | region id                                                 |
//! | 20     | 8               | run count `R`                                             |
//! | 28     | 8               | data length `D` (sum of the run lengths)                  |
//! | 36     | 24 × R          | run headers: u64 addr, u32 len, u64 stamp.order, u32 stamp.rank |
//! | 36+24R | D               | the runs' bytes, concatenated in run order                |
//! | end−8  | 8               | XXH64 (seed 0) of every byte before it                    |
//!
//! Runs are sorted by address, non-empty and non-overlapping (adjacent is allowed).
//! [`Tickpt::decode`] checks all of that and never panics, whatever the input.

use std::fmt;

/// Orders writes as sequential execution would: larger wins where runs overlap.
/// Compares `order` first, then `rank`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Stamp {
    pub order: u64,
    pub rank: u32,
}

/// One run as stored in a [`Tickpt`]; the bytes live in the shared data buffer.
/// The stamp is stored flat: 24 bytes per run instead of 32 with a padded `Stamp` inside,
/// which matters for diffs of millions of tiny runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct RunHeader {
    addr: u64,
    order: u64,
    len: u32,
    rank: u32,
}

impl RunHeader {
    #[inline(always)]
    fn new(addr: u64, len: u32, stamp: Stamp) -> RunHeader {
        RunHeader {
            addr,
            order: stamp.order,
            len,
            rank: stamp.rank,
        }
    }

    #[inline(always)]
    fn stamp(&self) -> Stamp {
        Stamp {
            order: self.order,
            rank: self.rank,
        }
    }
}

/// A TICKPT: runs of changed bytes sorted by address, non-overlapping, non-empty.
/// Flat storage (headers + one byte buffer) so that building and encoding never allocate per run.
///
/// Runs built with [`Tickpt::push`] are canonical: adjacent runs with the same stamp are always
/// coalesced, so two TICKPTs built by `push` that describe the same bytes compare equal.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tickpt {
    pub region: u64,
    headers: Vec<RunHeader>,
    data: Vec<u8>,
}

/// A borrowed view of one run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunRef<'a> {
    pub addr: u64,
    pub stamp: Stamp,
    pub bytes: &'a [u8],
}

impl RunRef<'_> {
    /// One past the last address of the run.
    pub fn end(&self) -> u64 {
        self.addr + self.bytes.len() as u64
    }
}

/// Why a buffer is not a valid TICKPT.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TickptError {
    BadMagic,
    UnsupportedVersion(u16),
    Truncated,
    BadChecksum,
    Malformed(&'static str),
}

impl fmt::Display for TickptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TickptError::BadMagic => write!(f, "not a TICKPT: bad magic number"),
            TickptError::UnsupportedVersion(v) => write!(
                f,
                "unsupported TICKPT version {v} (this build reads version {VERSION})"
            ),
            TickptError::Truncated => write!(f, "truncated TICKPT"),
            TickptError::BadChecksum => write!(f, "checksum mismatch in TICKPT"),
            TickptError::Malformed(why) => write!(f, "malformed TICKPT: {why}"),
        }
    }
}

impl std::error::Error for TickptError {}

pub const MAGIC: [u8; 8] = *b"CAPETKPT";
pub const VERSION: u16 = 1;
const FIXED_HEADER_LEN: usize = 36;
const RUN_HEADER_LEN: usize = 24;
const CHECKSUM_LEN: usize = 8;
/// Longest run one header can describe; `push` splits longer ones.
const MAX_RUN_LEN: usize = u32::MAX as usize;

impl Tickpt {
    pub fn new(region: u64) -> Tickpt {
        Tickpt {
            region,
            headers: Vec::new(),
            data: Vec::new(),
        }
    }

    /// An empty TICKPT with room for `runs` runs holding `bytes` bytes in total.
    pub fn with_capacity(region: u64, runs: usize, bytes: usize) -> Tickpt {
        Tickpt {
            region,
            headers: Vec::with_capacity(runs),
            data: Vec::with_capacity(bytes),
        }
    }

    /// Drop every run, keep the allocations, set a new region id.
    pub fn clear(&mut self, region: u64) {
        self.region = region;
        self.headers.clear();
        self.data.clear();
    }

    /// One past the last byte of the last run (0 when empty).
    pub fn end(&self) -> u64 {
        self.headers
            .last()
            .map_or(0, |last| last.addr + u64::from(last.len))
    }

    /// Append a run; the caller guarantees `addr` is at or after the end of the previous run.
    /// Empty runs are ignored; a run adjacent to the previous one with the same stamp extends it.
    pub fn push(&mut self, addr: u64, stamp: Stamp, bytes: &[u8]) {
        if bytes.is_empty() {
            return;
        }
        debug_assert!(
            self.headers.is_empty() || addr >= self.end(),
            "runs pushed out of order: {addr:#x} < {:#x}",
            self.end()
        );
        debug_assert!(
            addr.checked_add(bytes.len() as u64).is_some(),
            "run at {addr:#x} wraps around the address space"
        );
        let mut addr = addr;
        let mut rest = bytes;
        if let Some(last) = self.headers.last_mut() {
            if last.stamp() == stamp && last.addr + u64::from(last.len) == addr {
                let take = (MAX_RUN_LEN - last.len as usize).min(rest.len());
                last.len += take as u32;
                self.data.extend_from_slice(&rest[..take]);
                addr += take as u64;
                rest = &rest[take..];
            }
        }
        while !rest.is_empty() {
            let take = rest.len().min(MAX_RUN_LEN);
            self.headers.push(RunHeader::new(addr, take as u32, stamp));
            self.data.extend_from_slice(&rest[..take]);
            addr += take as u64;
            rest = &rest[take..];
        }
    }

    /// Appends a run of `len` bytes at `addr` (after every run so far, not adjacent to the
    /// last one) whose bytes `fill` appends to the data buffer it is given (exactly `len`
    /// bytes; missing ones are zeros, extra ones cut): one copy of memory for a snapshot's
    /// image instead of a read into a buffer and a copy of it.
    pub fn push_filled(
        &mut self,
        addr: u64,
        stamp: Stamp,
        len: usize,
        fill: impl FnOnce(&mut Vec<u8>),
    ) {
        if len == 0 {
            return;
        }
        debug_assert!(
            self.headers.is_empty() || addr >= self.end(),
            "run at {addr:#x} before the end of the last one"
        );
        let start = self.data.len();
        fill(&mut self.data);
        self.data.resize(start + len, 0);
        let mut at = addr;
        let mut left = len;
        while left > 0 {
            let take = left.min(MAX_RUN_LEN);
            self.headers.push(RunHeader::new(at, take as u32, stamp));
            at += take as u64;
            left -= take;
        }
    }

    /// Room for `bytes` more bytes of runs.
    pub fn reserve(&mut self, bytes: usize) {
        self.data.reserve(bytes);
    }

    /// Run `index` whose bytes start at `data_offset` in the data buffer (the sum of the lengths
    /// of the runs before it); `None` past the end.
    #[inline]
    pub fn run_at(&self, index: usize, data_offset: usize) -> Option<RunRef<'_>> {
        let h = self.headers.get(index)?;
        let bytes = self.data.get(data_offset..data_offset + h.len as usize)?;
        Some(RunRef {
            addr: h.addr,
            stamp: h.stamp(),
            bytes,
        })
    }

    /// From run `from` on, the index of the first run that ends after `limit` (or the run
    /// count) and the total length of the runs before it.
    pub fn runs_ending_by(&self, from: usize, limit: u64) -> (usize, usize) {
        let mut bytes = 0;
        let mut i = from;
        while let Some(h) = self.headers.get(i) {
            if h.addr + u64::from(h.len) > limit {
                break;
            }
            bytes += h.len as usize;
            i += 1;
        }
        (i, bytes)
    }

    /// Append runs `runs` of `src` (whose bytes are `src.data[data_start..data_start + bytes]`)
    /// with two bulk copies instead of one push per run. The first run goes through `push` so
    /// that it coalesces with the current last run; the others are copied as they are (already
    /// canonical when `src` is).
    pub fn append_runs(
        &mut self,
        src: &Tickpt,
        runs: std::ops::Range<usize>,
        data_start: usize,
        bytes: usize,
    ) {
        let (Some(headers), Some(data)) = (
            src.headers.get(runs.clone()),
            src.data.get(data_start..data_start + bytes),
        ) else {
            debug_assert!(false, "append_runs out of range");
            return;
        };
        let Some((first, rest)) = headers.split_first() else {
            return;
        };
        let (first_bytes, rest_bytes) = data.split_at(first.len as usize);
        self.push(first.addr, first.stamp(), first_bytes);
        self.headers.extend_from_slice(rest);
        self.data.extend_from_slice(rest_bytes);
    }

    pub fn runs(&self) -> Runs<'_> {
        Runs {
            headers: self.headers.iter(),
            data: &self.data,
        }
    }

    pub fn run_count(&self) -> usize {
        self.headers.len()
    }

    /// Sum of the run lengths.
    pub fn data_bytes(&self) -> usize {
        self.data.len()
    }

    pub fn is_empty(&self) -> bool {
        self.headers.is_empty()
    }

    /// Exact size of [`Tickpt::encode`]'s output.
    pub fn encoded_len(&self) -> usize {
        FIXED_HEADER_LEN + RUN_HEADER_LEN * self.headers.len() + self.data.len() + CHECKSUM_LEN
    }

    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.encode_into(&mut out);
        out
    }

    /// Append the encoding to `out` (its earlier contents are kept and not checksummed).
    pub fn encode_into(&self, out: &mut Vec<u8>) {
        let start = out.len();
        out.reserve(self.encoded_len());
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&0u16.to_le_bytes());
        out.extend_from_slice(&self.region.to_le_bytes());
        out.extend_from_slice(&(self.headers.len() as u64).to_le_bytes());
        out.extend_from_slice(&(self.data.len() as u64).to_le_bytes());
        for h in &self.headers {
            out.extend_from_slice(&h.addr.to_le_bytes());
            out.extend_from_slice(&h.len.to_le_bytes());
            out.extend_from_slice(&h.order.to_le_bytes());
            out.extend_from_slice(&h.rank.to_le_bytes());
        }
        out.extend_from_slice(&self.data);
        let sum = xxh64(&out[start..], 0);
        out.extend_from_slice(&sum.to_le_bytes());
    }

    /// Parse and validate an encoded TICKPT. Never panics; rejects anything [`encode`] would not
    /// produce from a valid TICKPT (except that adjacent same-stamp runs are accepted as they are).
    ///
    /// [`encode`]: Tickpt::encode
    pub fn decode(buf: &[u8]) -> Result<Tickpt, TickptError> {
        let view = Tickpt::view(buf)?;
        Ok(Tickpt {
            region: view.region,
            headers: view.headers,
            data: view.data.to_vec(),
        })
    }

    /// [`Tickpt::decode`] without copying the runs' bytes: the same checks, a view into `buf`
    /// (a snapshot's image is the size of the shared data).
    pub fn view(buf: &[u8]) -> Result<TickptView<'_>, TickptError> {
        let mut reader = Reader { buf, pos: 0 };
        let magic = reader.take(8).ok_or(TickptError::Truncated)?;
        if magic != MAGIC {
            return Err(TickptError::BadMagic);
        }
        let version = reader.u16().ok_or(TickptError::Truncated)?;
        if version != VERSION {
            return Err(TickptError::UnsupportedVersion(version));
        }
        let flags = reader.u16().ok_or(TickptError::Truncated)?;
        let region = reader.u64().ok_or(TickptError::Truncated)?;
        let run_count = reader.u64().ok_or(TickptError::Truncated)?;
        let data_len = reader.u64().ok_or(TickptError::Truncated)?;

        // The counts give the exact length; check it before trusting them with an allocation.
        let expected_len = usize::try_from(run_count)
            .ok()
            .and_then(|runs| runs.checked_mul(RUN_HEADER_LEN))
            .zip(usize::try_from(data_len).ok())
            .and_then(|(headers, data)| headers.checked_add(data))
            .and_then(|body| body.checked_add(FIXED_HEADER_LEN + CHECKSUM_LEN))
            .ok_or(TickptError::Malformed(
                "run count or data length out of range",
            ))?;
        if buf.len() < expected_len {
            return Err(TickptError::Truncated);
        }
        if buf.len() > expected_len {
            return Err(TickptError::Malformed("trailing bytes after the checksum"));
        }
        let (body, sum) = buf.split_at(expected_len - CHECKSUM_LEN);
        if xxh64(body, 0).to_le_bytes() != sum {
            return Err(TickptError::BadChecksum);
        }
        if flags != 0 {
            return Err(TickptError::Malformed("unknown flags"));
        }

        let run_count = run_count as usize;
        let mut headers = Vec::with_capacity(run_count);
        let mut prev_end: Option<u64> = None;
        let mut total: u64 = 0;
        for _ in 0..run_count {
            let (Some(addr), Some(len), Some(order), Some(rank)) =
                (reader.u64(), reader.u32(), reader.u64(), reader.u32())
            else {
                return Err(TickptError::Truncated);
            };
            if len == 0 {
                return Err(TickptError::Malformed("empty run"));
            }
            if prev_end.is_some_and(|end| addr < end) {
                return Err(TickptError::Malformed("runs unsorted or overlapping"));
            }
            let end = addr
                .checked_add(u64::from(len))
                .ok_or(TickptError::Malformed("run wraps around the address space"))?;
            prev_end = Some(end);
            total += u64::from(len);
            headers.push(RunHeader::new(addr, len, Stamp { order, rank }));
        }
        if total != data_len {
            return Err(TickptError::Malformed(
                "run lengths do not add up to the data length",
            ));
        }
        let data = reader
            .take(data_len as usize)
            .ok_or(TickptError::Truncated)?;
        Ok(TickptView {
            region,
            headers,
            data,
        })
    }
}

/// A checked TICKPT in its encoded bytes ([`Tickpt::view`]).
#[derive(Clone, Debug)]
pub struct TickptView<'a> {
    pub region: u64,
    headers: Vec<RunHeader>,
    data: &'a [u8],
}

impl TickptView<'_> {
    pub fn runs(&self) -> Runs<'_> {
        Runs {
            headers: self.headers.iter(),
            data: self.data,
        }
    }
}

/// Iterator over the runs of a [`Tickpt`], in address order.
#[derive(Clone, Debug)]
pub struct Runs<'a> {
    headers: std::slice::Iter<'a, RunHeader>,
    data: &'a [u8],
}

impl<'a> Iterator for Runs<'a> {
    type Item = RunRef<'a>;

    fn next(&mut self) -> Option<RunRef<'a>> {
        let h = self.headers.next()?;
        let (bytes, rest) = self.data.split_at(h.len as usize);
        self.data = rest;
        Some(RunRef {
            addr: h.addr,
            stamp: h.stamp(),
            bytes,
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.headers.size_hint()
    }
}

impl ExactSizeIterator for Runs<'_> {}
impl std::iter::FusedIterator for Runs<'_> {}

/// Bounds-checked little-endian reader; `None` means the buffer ended.
struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.pos.checked_add(n)?;
        let bytes = self.buf.get(self.pos..end)?;
        self.pos = end;
        Some(bytes)
    }

    fn array<const N: usize>(&mut self) -> Option<[u8; N]> {
        self.take(N)?.try_into().ok()
    }

    fn u16(&mut self) -> Option<u16> {
        self.array().map(u16::from_le_bytes)
    }

    fn u32(&mut self) -> Option<u32> {
        self.array().map(u32::from_le_bytes)
    }

    fn u64(&mut self) -> Option<u64> {
        self.array().map(u64::from_le_bytes)
    }
}

/// XXH64 (bit-compatible with libxxhash; the TICKPT and log formats depend on its output).
pub fn xxh64(input: &[u8], seed: u64) -> u64 {
    xxhash_rust::xxh64::xxh64(input, seed)
}

/// Helpers shared by the core modules' tests: a seeded PRNG, random TICKPTs and the oracle
/// (every byte keeps the value with the largest stamp).
#[cfg(any(test, feature = "testutil"))]
pub mod testutil {
    use super::{Stamp, Tickpt};
    use std::collections::BTreeMap;

    /// splitmix64: tiny, seedable, good enough for test data.
    pub struct Rng(u64);

    impl Rng {
        pub fn new(seed: u64) -> Rng {
            Rng(seed ^ 0x5DEE_CE66_D1CE_4E5B)
        }
        pub fn next_u64(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }
        /// Uniform in `[0, n)`; `n > 0`.
        pub fn below(&mut self, n: u64) -> u64 {
            self.next_u64() % n
        }
        pub fn bytes(&mut self, len: usize, alphabet: u8) -> Vec<u8> {
            (0..len)
                .map(|_| self.below(alphabet.into()) as u8)
                .collect()
        }
    }

    /// A random TICKPT of `rank` over `[base, base + span)`: random gaps, lengths, stamp orders
    /// (few distinct ones, so ties on `order` happen) and bytes from a small alphabet (so that
    /// ranks often write identical values).
    pub fn random_tickpt(rng: &mut Rng, region: u64, rank: u32, base: u64, span: u64) -> Tickpt {
        let mut t = Tickpt::new(region);
        let mut addr = base + rng.below(8);
        while addr < base + span {
            let len = (1 + rng.below(12)).min(base + span - addr);
            let stamp = Stamp {
                order: rng.below(4),
                rank,
            };
            t.push(addr, stamp, &rng.bytes(len as usize, 3));
            addr += len + rng.below(10);
        }
        t
    }

    /// Address -> (winning stamp, byte) after applying every run of every input.
    pub fn byte_map<'a>(
        inputs: impl IntoIterator<Item = &'a Tickpt>,
    ) -> BTreeMap<u64, (Stamp, u8)> {
        let mut map: BTreeMap<u64, (Stamp, u8)> = BTreeMap::new();
        for t in inputs {
            for run in t.runs() {
                for (i, &b) in run.bytes.iter().enumerate() {
                    let slot = map.entry(run.addr + i as u64).or_insert((run.stamp, b));
                    if run.stamp > slot.0 {
                        *slot = (run.stamp, b);
                    }
                }
            }
        }
        map
    }

    /// The canonical TICKPT of a byte map.
    pub fn from_byte_map(region: u64, map: &BTreeMap<u64, (Stamp, u8)>) -> Tickpt {
        let mut t = Tickpt::new(region);
        for (&addr, &(stamp, b)) in map {
            t.push(addr, stamp, &[b]);
        }
        t
    }

    /// Oracle: all runs applied in stamp order, as a canonical TICKPT.
    pub fn oracle<'a>(region: u64, inputs: impl IntoIterator<Item = &'a Tickpt>) -> Tickpt {
        from_byte_map(region, &byte_map(inputs))
    }
}

#[cfg(test)]
#[path = "tickpt_tests.rs"]
mod tests;
