//! Change sets: the shared bytes ranks changed in one epoch, in the form the merge messages
//! carry. The diff writes this form directly, the merge reads two of them and writes a third
//! without decoding into runs, and the injection reads the result: no step re-encodes.
//!
//! The unit is a 4096-byte page of 64 lines of 64 bytes. A rank's changes in a page are one
//! *record*: which lines changed, which of those changed entirely, and for the others a byte
//! mask (compressed to one byte per changed word, or one mask shared by all changed words),
//! followed by the changed bytes in address order. A dense page costs 32 bytes of header; a
//! double whose two high bytes changed costs its 2 bytes plus ~1/8 byte of mask. Byte
//! precision is exact: two ranks that changed neighbouring bytes of one word keep both.
//!
//! Every rank has one stamp per change set (its order in sequential execution), kept in a
//! table by rank; records name their rank. Where two records hold the same byte, the larger
//! stamp wins, as sequential execution would leave it.
//!
//! # Binary format, version 3 (all integers little-endian)
//!
//! | offset      | size   | field                                                       |
//! |-------------|--------|-------------------------------------------------------------|
//! | 0           | 4      | magic `b"CAPW"`                                             |
//! | 4           | 1      | version (`3`)                                               |
//! | 5           | 3      | zero                                                        |
//! | 8           | 4      | stamp count `S`                                             |
//! | 12          | 4      | zero                                                        |
//! | 16          | 8      | region id                                                   |
//! | 24          | 8      | record bytes `L`                                            |
//! | 32          | 8      | block bytes `K`                                             |
//! | 40          | 16 × S | stamps: u32 rank, u32 zero, u64 order; ranks ascending      |
//! | 40+16S      | L      | page records, ascending by (page, rank), each pair once     |
//! | 40+16S+L    | K      | record blocks: u32 rank, u32 length, bytes; ranks ascending |
//!
//! A page record: u64 page address (a multiple of 4096), u32 rank (in the stamp table), u32
//! body length, u64 `lines` (bit i: line i holds changed bytes; not zero), u64 `full` (bit i:
//! every byte of line i changed; a subset of `lines`), then the body: for each line of `lines`
//! in ascending order, either its 64 bytes (a full line) or a partial-line entry: u8 word mask
//! `W` (bit k: word k, bytes 8k..8k+8 of the line, holds changed bytes; not zero), u8 shared
//! mask `C`, then (only when `C` is zero) one byte mask per word of `W`, then the changed
//! bytes of the line in address order. `C` is not zero exactly when every word of `W` has the
//! same byte mask, and is that mask. A partial line never has all 64 bytes changed.
//! Records of one page never share a byte. The encoding is canonical: the same changes always
//! give the same bytes, so ranks that merge the same inputs hold identical results.
//!
//! Record blocks carry each rank's non-memory records of the epoch (reduction partials,
//! printed output, ...) as opaque bytes; the merge concatenates them in rank order.
//!
//! [`ChangeSet::parse`] checks all of the above and never panics, whatever the input.

mod merge;
mod runs;

pub use merge::{merge, Contributor, Merge, MergeError, Race};
pub use runs::to_tickpt;

use crate::tickpt::{Stamp, TickptError};

pub const MAGIC: [u8; 4] = *b"CAPW";
pub const VERSION: u8 = 3;
/// Bytes of a page, the unit of a record.
pub const PAGE: usize = 4096;
/// Bytes of a line, the unit of a mask.
pub const LINE: usize = 64;
const LINES: usize = PAGE / LINE;
const HEADER_LEN: usize = 40;
const STAMP_LEN: usize = 16;
const RECORD_HEADER_LEN: usize = 32;
const BLOCK_HEADER_LEN: usize = 8;
/// Most bytes one record's body can take: 64 partial lines of 63 bytes with 8 masks each.
pub const MAX_RECORD_LEN: usize = RECORD_HEADER_LEN + LINES * (2 + 8 + LINE - 1);

/// A byte buffer reused from region to region: `clear` keeps its memory (already faulted in),
/// and growth zero-fills only the new part, once.
#[derive(Debug, Default, Clone)]
pub struct Buf {
    bytes: Vec<u8>,
    len: usize,
}

impl Buf {
    pub fn new() -> Buf {
        Buf::default()
    }

    pub fn clear(&mut self) {
        self.len = 0;
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn as_slice(&self) -> &[u8] {
        &self.bytes[..self.len]
    }

    /// Bytes held, used or not.
    pub fn capacity(&self) -> usize {
        self.bytes.len()
    }

    /// The `n` bytes after the used part (grown if needed); [`Buf::advance`] makes them used.
    #[inline]
    pub fn room(&mut self, n: usize) -> &mut [u8] {
        let need = self.len + n;
        if need > self.bytes.len() {
            self.grow(need);
        }
        &mut self.bytes[self.len..need]
    }

    #[cold]
    fn grow(&mut self, need: usize) {
        let size = need.max(self.bytes.len() * 2).max(1 << 16);
        self.bytes.resize(size, 0);
    }

    #[inline]
    pub fn advance(&mut self, n: usize) {
        self.len = (self.len + n).min(self.bytes.len());
    }

    #[inline]
    pub fn put(&mut self, data: &[u8]) {
        self.room(data.len()).copy_from_slice(data);
        self.len += data.len();
    }

    fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }

    fn set(&mut self, at: usize, data: &[u8]) {
        self.bytes[at..at + data.len()].copy_from_slice(data);
    }
}

/// Writes one change set into a [`Buf`]: records in ascending (page, rank) order, the lines
/// of a record in ascending order, then the blocks in ascending rank order.
pub struct Writer<'b> {
    buf: &'b mut Buf,
    start: usize,
    records_start: usize,
    blocks_start: Option<usize>,
    open: Option<OpenRecord>,
}

struct OpenRecord {
    at: usize,
    page: u64,
    rank: u32,
    lines: u64,
    full: u64,
}

impl<'b> Writer<'b> {
    /// Starts a change set at the end of `buf` with the given stamps (ascending ranks).
    pub fn new(buf: &'b mut Buf, region: u64, stamps: impl IntoIterator<Item = Stamp>) -> Self {
        let start = buf.len();
        buf.put(&MAGIC);
        buf.put(&[VERSION, 0, 0, 0]);
        buf.put(&[0; 8]);
        buf.put(&region.to_le_bytes());
        buf.put(&[0; 16]);
        let mut count = 0u32;
        for s in stamps {
            buf.put(&s.rank.to_le_bytes());
            buf.put(&[0; 4]);
            buf.put(&s.order.to_le_bytes());
            count += 1;
        }
        buf.set(start + 8, &count.to_le_bytes());
        let records_start = buf.len();
        Writer {
            buf,
            start,
            records_start,
            blocks_start: None,
            open: None,
        }
    }

    /// Starts the record of `rank` in the page at `page`; the previous record is closed (and
    /// dropped if it got no line).
    pub fn begin_record(&mut self, page: u64, rank: u32) {
        self.close_record();
        debug_assert!(page.is_multiple_of(PAGE as u64));
        let at = self.buf.len();
        self.buf.room(RECORD_HEADER_LEN);
        self.buf.advance(RECORD_HEADER_LEN);
        self.open = Some(OpenRecord {
            at,
            page,
            rank,
            lines: 0,
            full: 0,
        });
    }

    /// The (page, rank) of the open record.
    pub fn open_record(&self) -> Option<(u64, u32)> {
        self.open.as_ref().map(|r| (r.page, r.rank))
    }

    fn mark(&mut self, line: usize, full: bool) {
        if let Some(r) = self.open.as_mut() {
            debug_assert!(line < LINES && r.lines >> line == 0, "lines out of order");
            r.lines |= 1 << line;
            if full {
                r.full |= 1 << line;
            }
        }
    }

    /// Line `line` of the open record changed entirely: its 64 bytes.
    #[inline]
    pub fn full_line(&mut self, line: usize, bytes: &[u8]) {
        self.mark(line, true);
        self.buf.put(&bytes[..LINE]);
    }

    /// Line `line` of the open record: the bytes of `line_bytes` (the whole line) under `mask`
    /// (bit i: byte i changed; not zero).
    #[inline]
    pub fn masked_line(&mut self, line: usize, mask: u64, line_bytes: &[u8; LINE]) {
        if mask == u64::MAX {
            return self.full_line(line, line_bytes);
        }
        self.mark(line, false);
        // 8 bytes of slack: a word's changed bytes are stored 8 at a time
        let room = self.buf.room(2 + 8 + LINE + 8);
        let mut at = put_masks(room, mask);
        let (words, _) = line_bytes.as_chunks::<8>();
        for (k, word) in words.iter().enumerate() {
            let m = (mask >> (8 * k)) as u8;
            if m == 0 {
                continue;
            }
            let start = m.trailing_zeros();
            let run = m >> start;
            if run & run.wrapping_add(1) == 0 {
                // one stretch of bytes: shift it down and store the word
                let shifted = u64::from_le_bytes(*word) >> (8 * start);
                room[at..at + 8].copy_from_slice(&shifted.to_le_bytes());
                at += run.count_ones() as usize;
            } else {
                let mut bits = m;
                while bits != 0 {
                    room[at] = word[bits.trailing_zeros() as usize];
                    at += 1;
                    bits &= bits - 1;
                }
            }
        }
        self.buf.advance(at);
    }

    /// Line `line` of the open record: `packed` holds the changed bytes under `mask` in
    /// address order (`mask.count_ones()` bytes).
    #[inline]
    pub fn packed_line(&mut self, line: usize, mask: u64, packed: &[u8]) {
        if mask == u64::MAX {
            return self.full_line(line, packed);
        }
        self.mark(line, false);
        let room = self.buf.room(2 + 8 + packed.len());
        let at = put_masks(room, mask);
        room[at..at + packed.len()].copy_from_slice(packed);
        self.buf.advance(at + packed.len());
    }

    /// Whole records as they are in another change set (valid, in order after what was
    /// written, their ranks in this set's stamp table).
    pub fn copy_records(&mut self, raw: &[u8]) {
        self.close_record();
        self.buf.put(raw);
    }

    fn close_record(&mut self) {
        let Some(r) = self.open.take() else { return };
        if r.lines == 0 {
            self.buf.truncate(r.at);
            return;
        }
        let body = (self.buf.len() - r.at - RECORD_HEADER_LEN) as u32;
        let mut header = [0u8; RECORD_HEADER_LEN];
        header[0..8].copy_from_slice(&r.page.to_le_bytes());
        header[8..12].copy_from_slice(&r.rank.to_le_bytes());
        header[12..16].copy_from_slice(&body.to_le_bytes());
        header[16..24].copy_from_slice(&r.lines.to_le_bytes());
        header[24..32].copy_from_slice(&r.full.to_le_bytes());
        self.buf.set(r.at, &header);
    }

    /// Appends `rank`'s record block (after every page record; ranks ascending).
    pub fn block(&mut self, rank: u32, bytes: &[u8]) {
        self.close_record();
        if self.blocks_start.is_none() {
            self.blocks_start = Some(self.buf.len());
        }
        self.buf.put(&rank.to_le_bytes());
        self.buf.put(&(bytes.len() as u32).to_le_bytes());
        self.buf.put(bytes);
    }

    /// Whole blocks as they are in another change set.
    fn copy_blocks(&mut self, raw: &[u8]) {
        self.close_record();
        if self.blocks_start.is_none() {
            self.blocks_start = Some(self.buf.len());
        }
        self.buf.put(raw);
    }

    /// Closes the change set; returns its length in bytes.
    pub fn finish(mut self) -> usize {
        self.close_record();
        let end = self.buf.len();
        let blocks_start = self.blocks_start.unwrap_or(end);
        let records = (blocks_start - self.records_start) as u64;
        let blocks = (end - blocks_start) as u64;
        self.buf.set(self.start + 24, &records.to_le_bytes());
        self.buf.set(self.start + 32, &blocks.to_le_bytes());
        end - self.start
    }
}

/// `SPREAD[w]`: byte k is 1 iff bit k of `w` is set (a word mask spread over the bytes).
const SPREAD: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut w = 0;
    while w < 256 {
        let mut k = 0;
        while k < 8 {
            if w >> k & 1 == 1 {
                table[w] |= 1 << (8 * k);
            }
            k += 1;
        }
        w += 1;
    }
    table
};

/// Bit k set iff byte k of `mask` is not zero.
#[inline(always)]
fn nonzero_byte_bits(mask: u64) -> u8 {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let high = (((mask & !HIGH).wrapping_add(!HIGH)) | mask) & HIGH;
    ((high >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8
}

/// Writes the masks of a partial line at the start of `room`; returns the bytes written.
#[inline]
fn put_masks(room: &mut [u8], mask: u64) -> usize {
    let words = nonzero_byte_bits(mask);
    let first = (mask >> (8 * words.trailing_zeros())) as u8;
    room[0] = words;
    if SPREAD[usize::from(words)].wrapping_mul(u64::from(first)) == mask {
        room[1] = first;
        return 2;
    }
    room[1] = 0;
    let mut at = 2;
    let mut bits = words;
    while bits != 0 {
        room[at] = (mask >> (8 * bits.trailing_zeros())) as u8;
        at += 1;
        bits &= bits - 1;
    }
    at
}

/// A validated change set, borrowed.
#[derive(Clone, Copy, Debug)]
pub struct ChangeSet<'a> {
    pub region: u64,
    stamps: &'a [u8],
    records: &'a [u8],
    blocks: &'a [u8],
}

/// The fixed header of a change set.
#[derive(Clone, Copy, Debug)]
struct Header {
    region: u64,
    stamp_count: usize,
    records: usize,
    blocks: usize,
}

impl Header {
    fn stamps_end(&self) -> usize {
        HEADER_LEN + STAMP_LEN * self.stamp_count
    }
    fn records_end(&self) -> usize {
        self.stamps_end() + self.records
    }
    fn total(&self) -> usize {
        self.records_end() + self.blocks
    }
}

/// Parses the fixed header; `Ok(None)` when `buf` is shorter than a header.
fn read_header(buf: &[u8]) -> Result<Option<Header>, TickptError> {
    let Some(h) = buf.get(..HEADER_LEN) else {
        return if buf.len() >= 4 && buf[..4] != MAGIC {
            Err(TickptError::BadMagic)
        } else {
            Ok(None)
        };
    };
    if h[..4] != MAGIC {
        return Err(TickptError::BadMagic);
    }
    if h[4] != VERSION {
        return Err(TickptError::UnsupportedVersion(h[4].into()));
    }
    if h[5..8] != [0; 3] || h[12..16] != [0; 4] {
        return Err(TickptError::Malformed("reserved header bytes are not zero"));
    }
    let stamp_count = u32_at(h, 8) as usize;
    let (Ok(records), Ok(blocks)) = (
        usize::try_from(u64_at(h, 24)),
        usize::try_from(u64_at(h, 32)),
    ) else {
        return Err(TickptError::Malformed("section length out of range"));
    };
    let header = Header {
        region: u64_at(h, 16),
        stamp_count,
        records,
        blocks,
    };
    stamp_count
        .checked_mul(STAMP_LEN)
        .and_then(|s| s.checked_add(HEADER_LEN))
        .and_then(|s| s.checked_add(records))
        .and_then(|s| s.checked_add(blocks))
        .ok_or(TickptError::Malformed("section length out of range"))?;
    Ok(Some(header))
}

/// The region id of a (possibly partial) change set, once its header is there.
pub fn peek_region(buf: &[u8]) -> Result<Option<u64>, TickptError> {
    Ok(read_header(buf)?.map(|h| h.region))
}

fn check_stamps(table: &[u8]) -> Result<(), TickptError> {
    let mut prev: Option<u32> = None;
    for entry in table.chunks_exact(STAMP_LEN) {
        let rank = u32_at(entry, 0);
        if u32_at(entry, 4) != 0 {
            return Err(TickptError::Malformed("reserved stamp bytes are not zero"));
        }
        if prev.is_some_and(|p| rank <= p) {
            return Err(TickptError::Malformed("stamp ranks not ascending"));
        }
        prev = Some(rank);
    }
    Ok(())
}

fn check_blocks(mut blocks: &[u8]) -> Result<(), TickptError> {
    let mut prev: Option<u32> = None;
    while !blocks.is_empty() {
        let (rank, bytes, rest) = split_block(blocks).ok_or(TickptError::Truncated)?;
        let _ = bytes;
        if prev.is_some_and(|p| rank <= p) {
            return Err(TickptError::Malformed("block ranks not ascending"));
        }
        prev = Some(rank);
        blocks = rest;
    }
    Ok(())
}

/// (rank, bytes, rest) of the first block of `blocks`.
fn split_block(blocks: &[u8]) -> Option<(u32, &[u8], &[u8])> {
    let rank = u32_at(blocks.get(..BLOCK_HEADER_LEN)?, 0);
    let len = u32_at(blocks, 4) as usize;
    let end = BLOCK_HEADER_LEN.checked_add(len)?;
    let bytes = blocks.get(BLOCK_HEADER_LEN..end)?;
    Some((rank, bytes, &blocks[end..]))
}

impl<'a> ChangeSet<'a> {
    /// Parses and checks a whole change set (nothing may follow it).
    pub fn parse(buf: &'a [u8]) -> Result<ChangeSet<'a>, TickptError> {
        let header = read_header(buf)?.ok_or(TickptError::Truncated)?;
        if buf.len() < header.total() {
            return Err(TickptError::Truncated);
        }
        if buf.len() > header.total() {
            return Err(TickptError::Malformed(
                "trailing bytes after the change set",
            ));
        }
        let set = ChangeSet {
            region: header.region,
            stamps: &buf[HEADER_LEN..header.stamps_end()],
            records: &buf[header.stamps_end()..header.records_end()],
            blocks: &buf[header.records_end()..],
        };
        check_stamps(set.stamps)?;
        let mut checker = Checker::default();
        let mut at = 0;
        while at < set.records.len() {
            let end = group_end(set.records, at, true).ok_or(TickptError::Truncated)?;
            checker.check_group(&set.records[at..end], |rank| set.stamp_of(rank).is_some())?;
            at = end;
        }
        check_blocks(set.blocks)?;
        Ok(set)
    }

    /// A change set this process wrote itself (by [`Writer`] or [`merge`]): the header and
    /// sections are checked, the records are not walked. Reading a malformed one never
    /// panics, but may give wrong bytes.
    pub fn trusted(buf: &'a [u8]) -> Result<ChangeSet<'a>, TickptError> {
        let header = read_header(buf)?.ok_or(TickptError::Truncated)?;
        if buf.len() != header.total() {
            return Err(TickptError::Malformed(
                "change set length does not match its header",
            ));
        }
        Ok(ChangeSet {
            region: header.region,
            stamps: &buf[HEADER_LEN..header.stamps_end()],
            records: &buf[header.stamps_end()..header.records_end()],
            blocks: &buf[header.records_end()..],
        })
    }

    /// The stamp of `rank`, if it has one.
    pub fn stamp_of(&self, rank: u32) -> Option<Stamp> {
        stamp_in(self.stamps, rank)
    }

    /// The stamp table, ranks ascending.
    pub fn stamps(&self) -> impl Iterator<Item = Stamp> + 'a {
        self.stamps.chunks_exact(STAMP_LEN).map(|e| Stamp {
            order: u64_at(e, 8),
            rank: u32_at(e, 0),
        })
    }

    pub fn records(&self) -> Records<'a> {
        Records {
            bytes: self.records,
            at: 0,
        }
    }

    /// The record blocks: (rank, bytes), ranks ascending.
    pub fn blocks(&self) -> impl Iterator<Item = (u32, &'a [u8])> + 'a {
        let mut rest = self.blocks;
        std::iter::from_fn(move || {
            let (rank, bytes, next) = split_block(rest)?;
            rest = next;
            Some((rank, bytes))
        })
    }

    /// No page record and no block.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty() && self.blocks.is_empty()
    }

    /// Bytes of the page records (headers, masks and data).
    pub fn record_bytes(&self) -> usize {
        self.records.len()
    }
}

/// Iterator over the records of a [`ChangeSet`].
#[derive(Clone, Debug)]
pub struct Records<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Iterator for Records<'a> {
    type Item = Record<'a>;

    fn next(&mut self) -> Option<Record<'a>> {
        let (record, next) = record_at(self.bytes, self.at)?;
        self.at = next;
        Some(record)
    }
}

/// One page record.
#[derive(Clone, Copy, Debug)]
pub struct Record<'a> {
    pub page: u64,
    pub rank: u32,
    /// Bit i: line i holds changed bytes.
    pub lines: u64,
    /// Bit i: every byte of line i changed.
    pub full: u64,
    /// Header and body, as in the change set.
    pub raw: &'a [u8],
}

impl<'a> Record<'a> {
    pub fn lines(&self) -> Lines<'a> {
        Lines {
            body: &self.raw[RECORD_HEADER_LEN..],
            pos: RECORD_HEADER_LEN,
            lines: self.lines,
            full: self.full,
        }
    }

    /// The changed bytes of the record.
    pub fn changed_bytes(&self) -> usize {
        self.lines().map(|l| l.data.len()).sum()
    }
}

/// One line of a record: `mask` bit i set iff byte i of the line changed; `data` holds the
/// changed bytes in address order.
#[derive(Clone, Copy, Debug)]
pub struct LineRef<'a> {
    pub index: usize,
    pub mask: u64,
    pub data: &'a [u8],
    /// Where `data` starts in the record's `raw` bytes.
    pub offset: usize,
}

/// Iterator over the lines of a [`Record`] (of a checked change set; stops at anything
/// malformed).
#[derive(Clone, Debug)]
pub struct Lines<'a> {
    body: &'a [u8],
    /// Offset of `body` in the record.
    pos: usize,
    lines: u64,
    full: u64,
}

impl<'a> Iterator for Lines<'a> {
    type Item = LineRef<'a>;

    #[inline]
    fn next(&mut self) -> Option<LineRef<'a>> {
        if self.lines == 0 {
            return None;
        }
        let index = self.lines.trailing_zeros() as usize;
        self.lines &= self.lines - 1;
        let (mask, used) = if self.full >> index & 1 == 1 {
            (u64::MAX, 0)
        } else {
            read_masks(self.body)?
        };
        let len = mask.count_ones() as usize;
        let data = self.body.get(used..used + len)?;
        self.body = &self.body[used + len..];
        let offset = self.pos + used;
        self.pos += used + len;
        Some(LineRef {
            index,
            mask,
            data,
            offset,
        })
    }
}

/// The mask of a partial-line entry at the start of `body` and the bytes its masks take;
/// None when truncated or not canonical.
#[inline]
fn read_masks(body: &[u8]) -> Option<(u64, usize)> {
    let (&words, &shared) = (body.first()?, body.get(1)?);
    if words == 0 {
        return None;
    }
    if shared != 0 {
        let mask = SPREAD[usize::from(words)].wrapping_mul(u64::from(shared));
        return (mask != u64::MAX).then_some((mask, 2));
    }
    let count = words.count_ones() as usize;
    let masks = body.get(2..2 + count)?;
    let mut mask = 0u64;
    let mut bits = words;
    let mut all_same = true;
    for &m in masks {
        if m == 0 {
            return None;
        }
        all_same &= m == masks[0];
        mask |= u64::from(m) << (8 * bits.trailing_zeros());
        bits &= bits - 1;
    }
    // the shared form is the canonical one when all masks are equal
    (!all_same).then_some((mask, 2 + count))
}

/// The record at `at` if it is complete in `bytes` (header fields only; see [`check_record`]).
#[inline]
fn record_at(bytes: &[u8], at: usize) -> Option<(Record<'_>, usize)> {
    let h = bytes.get(at..at.checked_add(RECORD_HEADER_LEN)?)?;
    let end = at + RECORD_HEADER_LEN + u32_at(h, 12) as usize;
    let raw = bytes.get(at..end)?;
    let record = Record {
        page: u64_at(h, 0),
        rank: u32_at(h, 8),
        lines: u64_at(h, 16),
        full: u64_at(h, 24),
        raw,
    };
    Some((record, end))
}

/// Checks one record on its own: page aligned, line bits consistent, and a body made of
/// exactly the entries of its lines, each canonical.
fn check_record(record: &Record<'_>) -> Result<(), TickptError> {
    if !record.page.is_multiple_of(PAGE as u64) || record.page.checked_add(PAGE as u64).is_none() {
        return Err(TickptError::Malformed("record page not page aligned"));
    }
    if record.lines == 0 || record.full & !record.lines != 0 {
        return Err(TickptError::Malformed("record line bits inconsistent"));
    }
    let mut body = &record.raw[RECORD_HEADER_LEN..];
    let mut lines = record.lines;
    while lines != 0 {
        let index = lines.trailing_zeros();
        lines &= lines - 1;
        let len = if record.full >> index & 1 == 1 {
            LINE
        } else {
            let (mask, used) =
                read_masks(body).ok_or(TickptError::Malformed("bad partial-line entry"))?;
            used + mask.count_ones() as usize
        };
        body = body
            .get(len..)
            .ok_or(TickptError::Malformed("record body shorter than its lines"))?;
    }
    if !body.is_empty() {
        return Err(TickptError::Malformed("record body longer than its lines"));
    }
    Ok(())
}

/// The checks that span records: (page, rank) ascending, ranks in the stamp table, no byte
/// in two records of a page. Fed one page's records at a time.
#[derive(Default)]
struct Checker {
    prev: Option<(u64, u32)>,
}

impl Checker {
    /// Checks the records of one page (`group`: whole records, all of the page, nothing else
    /// of it before or after), each on its own and against each other.
    fn check_group(
        &mut self,
        group: &[u8],
        has_stamp: impl Fn(u32) -> bool,
    ) -> Result<(), TickptError> {
        let mut at = 0;
        let (mut union, mut sum) = (0u64, 0u32);
        let mut count = 0;
        while at < group.len() {
            let (r, next) = record_at(group, at).ok_or(TickptError::Truncated)?;
            check_record(&r)?;
            let key = (r.page, r.rank);
            if self.prev.is_some_and(|p| key <= p) {
                return Err(TickptError::Malformed(
                    "records not ascending by page and rank",
                ));
            }
            if count > 0 && self.prev.map(|p| p.0) != Some(r.page) {
                return Err(TickptError::Malformed("a page group holds two pages"));
            }
            if !has_stamp(r.rank) {
                return Err(TickptError::Malformed("record of a rank without a stamp"));
            }
            self.prev = Some(key);
            union |= r.lines;
            sum += r.lines.count_ones();
            count += 1;
            at = next;
        }
        if sum == union.count_ones() {
            return Ok(()); // no line in two records: no byte either
        }
        let mut taken = [0u64; LINES];
        let mut at = 0;
        while let Some((r, next)) = record_at(group, at) {
            for line in r.lines() {
                if taken[line.index] & line.mask != 0 {
                    return Err(TickptError::Malformed("two records of a page share a byte"));
                }
                taken[line.index] |= line.mask;
            }
            at = next;
        }
        Ok(())
    }
}

/// The end of the records of the page of the record at `at` (all in `records`), or None when
/// the records end before another page starts and `complete` is false.
fn group_end(records: &[u8], at: usize, complete: bool) -> Option<usize> {
    let (first, mut end) = record_at(records, at)?;
    loop {
        match record_at(records, end) {
            Some((r, next)) if r.page == first.page => end = next,
            Some(_) => return Some(end),
            None if complete => return Some(end),
            None => return None,
        }
    }
}

/// The stamp of `rank` in a raw stamp table (ranks ascending).
fn stamp_in(table: &[u8], rank: u32) -> Option<Stamp> {
    let (mut lo, mut hi) = (0, table.len() / STAMP_LEN);
    while lo < hi {
        let mid = (lo + hi) / 2;
        let entry = &table[mid * STAMP_LEN..(mid + 1) * STAMP_LEN];
        match u32_at(entry, 0).cmp(&rank) {
            std::cmp::Ordering::Equal => {
                return Some(Stamp {
                    order: u64_at(entry, 8),
                    rank,
                })
            }
            std::cmp::Ordering::Less => lo = mid + 1,
            std::cmp::Ordering::Greater => hi = mid,
        }
    }
    None
}

#[inline]
fn u32_at(b: &[u8], at: usize) -> u32 {
    let mut w = [0u8; 4];
    w.copy_from_slice(&b[at..at + 4]);
    u32::from_le_bytes(w)
}

#[inline]
fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(w)
}

#[cfg(any(test, feature = "testutil"))]
pub mod testutil;

#[cfg(test)]
mod tests;
