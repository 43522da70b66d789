//! The merge of two change sets into a third, in one pass by page, streaming: the second
//! operand may arrive in pieces ([`Merge::feed`] takes the prefix received so far), so that
//! merging overlaps the transfer.
//!
//! Pages only one side changed are copied as whole runs of records (one copy for a stretch of
//! pages); a page both sides changed in different lines interleaves the records by rank; only
//! a page where both sides changed bytes of one line is resolved byte by byte, by stamp.

use super::{
    check_blocks, check_stamps, group_end, read_header, record_at, split_block, stamp_in, Buf,
    ChangeSet, Checker, Header, Writer, LINE, LINES, STAMP_LEN,
};
use crate::tickpt::{Stamp, TickptError};
use std::fmt;

/// Two ranks wrote different values to the same bytes in one region.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Race {
    pub addr: u64,
    pub len: u64,
    /// The two ranks, smaller first.
    pub ranks: (u32, u32),
    pub region: u64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MergeError {
    Format(TickptError),
    /// The two sides are change sets of different regions (ranks diverged).
    Region {
        local: u64,
        remote: u64,
    },
    /// Both sides have a stamp for `rank`, and they differ.
    Stamps {
        rank: u32,
    },
    /// Both sides carry a record block of `rank`.
    Blocks {
        rank: u32,
    },
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MergeError::Format(e) => write!(f, "{e}"),
            MergeError::Region { local, remote } => {
                write!(
                    f,
                    "change sets of regions {local} and {remote} cannot merge"
                )
            }
            MergeError::Stamps { rank } => write!(f, "two different stamps for rank {rank}"),
            MergeError::Blocks { rank } => write!(f, "two record blocks of rank {rank}"),
        }
    }
}

impl std::error::Error for MergeError {}

impl From<TickptError> for MergeError {
    fn from(e: TickptError) -> Self {
        MergeError::Format(e)
    }
}

/// Merges two whole change sets into `out` (appended); returns the length of the result.
/// On equal stamps `b` wins. Races between `a` and `b` go to `races` when given.
pub fn merge(
    a: &ChangeSet<'_>,
    b: &[u8],
    out: &mut Buf,
    races: Option<&mut Vec<Race>>,
) -> Result<usize, MergeError> {
    let mut scratch = Vec::new();
    let mut m = Merge::new(*a, false, out, races, &mut scratch);
    m.feed(b)?;
    m.finish()
}

/// A merge in progress: the first operand whole, the second as much of it as has arrived.
pub struct Merge<'a, 'o> {
    a: ChangeSet<'a>,
    /// Next record of `a` not yet merged (offset in its record section).
    a_at: usize,
    /// `a` wins ties of equal stamps (it is the second operand).
    a_wins_ties: bool,
    out: Option<&'o mut Buf>,
    writer: Option<Writer<'o>>,
    races: Option<&'o mut Vec<Race>>,
    b: Option<Header>,
    /// Next record of `b` not yet merged (offset from the start of `b`).
    b_at: usize,
    checker: Checker,
    scratch: &'o mut Vec<Contributor>,
    done: bool,
}

impl<'a, 'o> Merge<'a, 'o> {
    /// `a_second`: `a` is the second operand (wins ties). `scratch` is reused between merges.
    pub fn new(
        a: ChangeSet<'a>,
        a_second: bool,
        out: &'o mut Buf,
        races: Option<&'o mut Vec<Race>>,
        scratch: &'o mut Vec<Contributor>,
    ) -> Self {
        Merge {
            a,
            a_at: 0,
            a_wins_ties: a_second,
            out: Some(out),
            writer: None,
            races,
            b: None,
            b_at: 0,
            checker: Checker::default(),
            scratch,
            done: false,
        }
    }

    /// Merges what `prefix` (the first bytes of the second operand, growing from call to
    /// call) makes possible.
    pub fn feed(&mut self, prefix: &[u8]) -> Result<(), MergeError> {
        if self.done {
            return Ok(());
        }
        let h = match self.b {
            Some(h) => h,
            None => {
                let Some(h) = read_header(prefix)? else {
                    return Ok(());
                };
                if h.region != self.a.region {
                    return Err(MergeError::Region {
                        local: self.a.region,
                        remote: h.region,
                    });
                }
                self.b = Some(h);
                self.b_at = h.stamps_end();
                h
            }
        };
        if self.writer.is_none() {
            let Some(table) = prefix.get(super::HEADER_LEN..h.stamps_end()) else {
                return Ok(());
            };
            check_stamps(table)?;
            let stamps = union_stamps(self.a.stamps, table)?;
            let Some(out) = self.out.take() else {
                return Ok(());
            };
            self.writer = Some(Writer::new(out, self.a.region, stamps));
        }
        let table = &prefix[super::HEADER_LEN..h.stamps_end()];
        let records = &prefix[..prefix.len().min(h.records_end())];
        let complete = prefix.len() >= h.records_end();
        while self.b_at < h.records_end() {
            // the records of the next page of `b`, if all of them are here
            let Some(end) = group_end(records, self.b_at, complete) else {
                if complete {
                    return Err(TickptError::Malformed("record crosses its section").into());
                }
                return Ok(());
            };
            let group = &records[self.b_at..end];
            self.checker
                .check_group(group, |rank| stamp_in(table, rank).is_some())?;
            let page = record_at(group, 0).map_or(0, |(r, _)| r.page);
            self.copy_a_before(page);
            let a_group = self.a_records_of(page);
            self.merge_page(page, a_group, group, table)?;
            self.b_at = end;
        }
        if prefix.len() < h.total() {
            return Ok(());
        }
        if prefix.len() > h.total() {
            return Err(TickptError::Malformed("trailing bytes after the change set").into());
        }
        self.copy_a_before(u64::MAX);
        let b_blocks = &prefix[h.records_end()..h.total()];
        check_blocks(b_blocks)?;
        self.merge_blocks(b_blocks)?;
        self.done = true;
        Ok(())
    }

    /// Ends the merge (the second operand must be whole); returns the result's length.
    pub fn finish(self) -> Result<usize, MergeError> {
        match (self.done, self.writer) {
            (true, Some(w)) => Ok(w.finish()),
            _ => Err(TickptError::Truncated.into()),
        }
    }

    fn writer(&mut self) -> &mut Writer<'o> {
        self.writer
            .as_mut()
            .expect("the writer exists once the stamps are known")
    }

    /// Copies the records of `a` whose page is below `page`, in one piece.
    fn copy_a_before(&mut self, page: u64) {
        let records = self.a.records;
        let mut at = self.a_at;
        while let Some((r, next)) = record_at(records, at) {
            if r.page >= page {
                break;
            }
            at = next;
        }
        if at > self.a_at {
            let from = self.a_at;
            self.a_at = at;
            self.writer().copy_records(&records[from..at]);
        }
    }

    /// The records of `a` for `page` (consumed).
    fn a_records_of(&mut self, page: u64) -> &'a [u8] {
        let records = self.a.records;
        let mut at = self.a_at;
        while let Some((r, next)) = record_at(records, at) {
            if r.page != page {
                break;
            }
            at = next;
        }
        let group = &records[self.a_at..at];
        self.a_at = at;
        group
    }

    fn merge_page(
        &mut self,
        page: u64,
        a_group: &'a [u8],
        b_group: &[u8],
        b_table: &[u8],
    ) -> Result<(), MergeError> {
        if a_group.is_empty() {
            self.writer().copy_records(b_group);
            return Ok(());
        }
        let (a_lines, a_ranks) = summary(a_group);
        let (b_lines, b_ranks) = summary(b_group);
        let shared_rank = a_ranks.iter().any(|r| b_ranks.contains(r));
        if a_lines & b_lines == 0 && !shared_rank {
            // different lines: the records stay as they are, interleaved by rank
            let (mut ia, mut ib) = (Cursor(a_group, 0), Cursor(b_group, 0));
            loop {
                let next = match (ia.peek(), ib.peek()) {
                    (Some(x), Some(y)) if x.0 < y.0 => ia.take(),
                    (Some(_), Some(_)) | (None, Some(_)) => ib.take(),
                    (Some(_), None) => ia.take(),
                    (None, None) => break,
                };
                self.writer().copy_records(next);
            }
            return Ok(());
        }
        self.resolve_page(page, a_group, b_group, b_table)
    }

    /// The slow path: some line holds bytes of both sides; resolve byte by byte.
    fn resolve_page(
        &mut self,
        page: u64,
        a_group: &[u8],
        b_group: &[u8],
        b_table: &[u8],
    ) -> Result<(), MergeError> {
        let scratch = &mut *self.scratch;
        scratch.clear();
        for (side, group) in [(Side::A, a_group), (Side::B, b_group)] {
            let mut at = 0;
            while let Some((r, next)) = record_at(group, at) {
                let stamp = match side {
                    Side::A => self.a.stamp_of(r.rank),
                    Side::B => stamp_in(b_table, r.rank),
                }
                .ok_or(TickptError::Malformed("record of a rank without a stamp"))?;
                let mut c = Contributor {
                    side,
                    stamp,
                    lines: r.lines,
                    masks: [0; LINES],
                    survives: [0; LINES],
                    data: [0; LINES],
                };
                for line in r.lines() {
                    c.masks[line.index] = line.mask;
                    c.data[line.index] = (at + line.offset) as u32;
                }
                scratch.push(c);
                at = next;
            }
        }
        // strongest first: the larger stamp, and on a tie the second operand
        let a_wins_ties = self.a_wins_ties;
        let strength = |c: &Contributor| {
            let tie = match c.side {
                Side::A => a_wins_ties,
                Side::B => !a_wins_ties,
            };
            (c.stamp, tie)
        };
        scratch.sort_by_key(|c| std::cmp::Reverse(strength(c)));
        let all_lines = scratch.iter().fold(0, |acc, c| acc | c.lines);
        let bytes_of = |c: &Contributor, line: usize| -> &[u8] {
            let group = match c.side {
                Side::A => a_group,
                Side::B => b_group,
            };
            let at = c.data[line] as usize;
            &group[at..at + c.masks[line].count_ones() as usize]
        };
        let mut lines = all_lines;
        while lines != 0 {
            let line = lines.trailing_zeros() as usize;
            lines &= lines - 1;
            let mut taken = 0u64;
            for c in scratch.iter_mut() {
                c.survives[line] = c.masks[line] & !taken;
                taken |= c.masks[line];
            }
            if let Some(races) = self.races.as_deref_mut() {
                for x in scratch.iter().filter(|c| c.side == Side::A) {
                    for y in scratch.iter().filter(|c| c.side == Side::B) {
                        let both = x.masks[line] & y.masks[line];
                        if both == 0 || x.stamp.rank == y.stamp.rank {
                            continue;
                        }
                        let (xb, yb) = (bytes_of(x, line), bytes_of(y, line));
                        let mut differ = 0u64;
                        let mut bits = both;
                        while bits != 0 {
                            let i = bits.trailing_zeros();
                            bits &= bits - 1;
                            if byte_at(x.masks[line], xb, i) != byte_at(y.masks[line], yb, i) {
                                differ |= 1 << i;
                            }
                        }
                        let addr = page + (line * LINE) as u64;
                        report(
                            races,
                            self.a.region,
                            addr,
                            differ,
                            x.stamp.rank,
                            y.stamp.rank,
                        );
                    }
                }
            }
        }
        // the output: one record per rank, ranks ascending
        scratch.sort_by_key(|c| c.stamp.rank);
        let writer = self.writer.as_mut().expect("the writer exists");
        let mut i = 0;
        while i < scratch.len() {
            let rank = scratch[i].stamp.rank;
            let mut j = i + 1;
            while j < scratch.len() && scratch[j].stamp.rank == rank {
                j += 1;
            }
            let same_rank = &scratch[i..j];
            writer.begin_record(page, rank);
            let mut lines = same_rank.iter().fold(0, |acc, c| acc | c.lines);
            while lines != 0 {
                let line = lines.trailing_zeros() as usize;
                lines &= lines - 1;
                let kept: u64 = same_rank.iter().fold(0, |acc, c| acc | c.survives[line]);
                if kept == 0 {
                    continue;
                }
                if let [c] = same_rank {
                    if kept == c.masks[line] {
                        writer.packed_line(line, kept, bytes_of(c, line));
                        continue;
                    }
                }
                let mut image = [0u8; LINE];
                for c in same_rank {
                    let data = bytes_of(c, line);
                    let mut bits = c.survives[line];
                    while bits != 0 {
                        let b = bits.trailing_zeros();
                        bits &= bits - 1;
                        image[b as usize] = byte_at(c.masks[line], data, b);
                    }
                }
                writer.masked_line(line, kept, &image);
            }
            i = j;
        }
        Ok(())
    }

    fn merge_blocks(&mut self, b_blocks: &[u8]) -> Result<(), MergeError> {
        let (mut a, mut b) = (self.a.blocks, b_blocks);
        loop {
            let (pa, pb) = (split_block(a), split_block(b));
            let take_a = match (pa, pb) {
                (None, None) => return Ok(()),
                (Some((ra, _, _)), Some((rb, _, _))) if ra == rb => {
                    return Err(MergeError::Blocks { rank: ra })
                }
                (Some((ra, _, _)), Some((rb, _, _))) => ra < rb,
                (Some(_), None) => true,
                (None, Some(_)) => false,
            };
            let (from, rest) = if take_a {
                (a, pa.map(|p| p.2))
            } else {
                (b, pb.map(|p| p.2))
            };
            let rest = rest.unwrap_or_default();
            let raw = &from[..from.len() - rest.len()];
            self.writer().copy_blocks(raw);
            if take_a {
                a = rest;
            } else {
                b = rest;
            }
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Side {
    A,
    B,
}

/// One record of a page being resolved byte by byte (kept between merges to avoid
/// allocating).
#[derive(Clone, Debug)]
pub struct Contributor {
    side: Side,
    stamp: Stamp,
    lines: u64,
    masks: [u64; LINES],
    survives: [u64; LINES],
    /// Offset of each line's changed bytes in its side's group of records.
    data: [u32; LINES],
}

/// Walks the records of one page group.
struct Cursor<'g>(&'g [u8], usize);

impl<'g> Cursor<'g> {
    fn peek(&self) -> Option<(u32, usize)> {
        let (r, next) = record_at(self.0, self.1)?;
        Some((r.rank, next))
    }
    fn take(&mut self) -> &'g [u8] {
        let Some((_, next)) = self.peek() else {
            return &[];
        };
        let raw = &self.0[self.1..next];
        self.1 = next;
        raw
    }
}

/// The lines any record of a page group holds, and its ranks (at most 8 kept: more only
/// sends the page down the byte-by-byte path, which is always right).
fn summary(group: &[u8]) -> (u64, RankList) {
    let mut lines = 0;
    let mut ranks = RankList::default();
    let mut at = 0;
    while let Some((r, next)) = record_at(group, at) {
        lines |= r.lines;
        ranks.push(r.rank);
        at = next;
    }
    (lines, ranks)
}

/// A few ranks, without allocating.
#[derive(Default)]
struct RankList {
    ranks: [u32; 8],
    len: usize,
    overflow: bool,
}

impl RankList {
    fn push(&mut self, rank: u32) {
        if self.len < self.ranks.len() {
            self.ranks[self.len] = rank;
            self.len += 1;
        } else {
            self.overflow = true;
        }
    }
    fn iter(&self) -> impl Iterator<Item = &u32> {
        self.ranks[..self.len].iter()
    }
    /// True when `rank` is in the list, or might be (the list overflowed).
    fn contains(&self, rank: &u32) -> bool {
        self.overflow || self.ranks[..self.len].contains(rank)
    }
}

/// The union of two stamp tables by rank (both ascending), or the rank whose stamps differ.
fn union_stamps<'t>(
    a: &'t [u8],
    b: &'t [u8],
) -> Result<impl Iterator<Item = Stamp> + 't, MergeError> {
    let read = |t: &'t [u8]| {
        t.chunks_exact(STAMP_LEN)
            .map(|e| Stamp {
                order: super::u64_at(e, 8),
                rank: super::u32_at(e, 0),
            })
            .peekable()
    };
    let (mut x, mut y) = (read(a), read(b));
    while let (Some(p), Some(q)) = (x.peek(), y.peek()) {
        match p.rank.cmp(&q.rank) {
            std::cmp::Ordering::Equal if p.order != q.order => {
                return Err(MergeError::Stamps { rank: p.rank })
            }
            std::cmp::Ordering::Equal => {
                x.next();
                y.next();
            }
            std::cmp::Ordering::Less => {
                x.next();
            }
            std::cmp::Ordering::Greater => {
                y.next();
            }
        }
    }
    let (mut x, mut y) = (read(a), read(b));
    Ok(std::iter::from_fn(move || match (x.peek(), y.peek()) {
        (Some(p), Some(q)) if p.rank == q.rank => {
            y.next();
            x.next()
        }
        (Some(p), Some(q)) if p.rank < q.rank => x.next(),
        (Some(_), None) => x.next(),
        (_, Some(_)) => y.next(),
        (None, None) => None,
    }))
}

/// Byte `i` of a line whose changed bytes under `mask` are `data`.
#[inline]
fn byte_at(mask: u64, data: &[u8], i: u32) -> u8 {
    let below = mask & ((1u64 << i) - 1);
    data[below.count_ones() as usize]
}

/// Adds the maximal ranges of set bits of `differ` (bytes of the line at `addr`) to `races`,
/// extending the last race where it continues.
fn report(races: &mut Vec<Race>, region: u64, addr: u64, differ: u64, x: u32, y: u32) {
    let ranks = (x.min(y), x.max(y));
    let mut bits = differ;
    while bits != 0 {
        let start = bits.trailing_zeros();
        let len = (bits >> start).trailing_ones();
        bits &= !(((1u128 << len) - 1) as u64) << start;
        let race_addr = addr + u64::from(start);
        match races.last_mut() {
            Some(last)
                if last.region == region
                    && last.ranks == ranks
                    && last.addr + last.len == race_addr =>
            {
                last.len += u64::from(len);
            }
            _ => races.push(Race {
                addr: race_addr,
                len: u64::from(len),
                ranks,
                region,
            }),
        }
    }
}
