//! Writing change sets: the reusable buffer and the writer the diff and the merge use.

use super::{LINE, LINES, MAGIC, PAGE, RECORD_HEADER_LEN, SPREAD, VERSION};
use crate::tickpt::Stamp;

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
    pub(super) fn copy_blocks(&mut self, raw: &[u8]) {
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
