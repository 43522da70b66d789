//! Reading change sets: the checked view, its records and lines, and the checks.

use super::{
    stamp_in, u32_at, u64_at, BLOCK_HEADER_LEN, HEADER_LEN, LINE, LINES, MAGIC, PAGE,
    RECORD_HEADER_LEN, SPREAD, STAMP_LEN, VERSION,
};
use crate::tickpt::{Stamp, TickptError};

/// A validated change set, borrowed.
#[derive(Clone, Copy, Debug)]
pub struct ChangeSet<'a> {
    pub region: u64,
    pub(super) stamps: &'a [u8],
    pub(super) records: &'a [u8],
    pub(super) blocks: &'a [u8],
}

/// The fixed header of a change set.
#[derive(Clone, Copy, Debug)]
pub(super) struct Header {
    pub(super) region: u64,
    stamp_count: usize,
    records: usize,
    blocks: usize,
}

impl Header {
    pub(super) fn stamps_end(&self) -> usize {
        HEADER_LEN + STAMP_LEN * self.stamp_count
    }
    pub(super) fn records_end(&self) -> usize {
        self.stamps_end() + self.records
    }
    pub(super) fn total(&self) -> usize {
        self.records_end() + self.blocks
    }
}

/// Parses the fixed header; `Ok(None)` when `buf` is shorter than a header.
pub(super) fn read_header(buf: &[u8]) -> Result<Option<Header>, TickptError> {
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

pub(super) fn check_stamps(table: &[u8]) -> Result<(), TickptError> {
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

pub(super) fn check_blocks(mut blocks: &[u8]) -> Result<(), TickptError> {
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
pub(super) fn split_block(blocks: &[u8]) -> Option<(u32, &[u8], &[u8])> {
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

    /// The records section as it is (for [`Writer::copy_records`]).
    pub fn raw_records(&self) -> &'a [u8] {
        self.records
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
pub(super) fn read_masks(body: &[u8]) -> Option<(u64, usize)> {
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
pub(super) fn record_at(bytes: &[u8], at: usize) -> Option<(Record<'_>, usize)> {
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
pub(super) fn check_record(record: &Record<'_>) -> Result<(), TickptError> {
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
pub(super) struct Checker {
    prev: Option<(u64, u32)>,
}

impl Checker {
    /// Checks the records of one page (`group`: whole records, all of the page, nothing else
    /// of it before or after), each on its own and against each other.
    pub(super) fn check_group(
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
pub(super) fn group_end(records: &[u8], at: usize, complete: bool) -> Option<usize> {
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
