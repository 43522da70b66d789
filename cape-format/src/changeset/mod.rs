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
mod read;
mod runs;
mod write;

pub use merge::{merge, Contributor, Merge, MergeError, Race};
pub use read::{ChangeSet, LineRef, Lines, Record, Records};
pub use runs::{to_tickpt, to_tickpt_where};
pub use write::{Buf, Writer};

use read::{
    check_blocks, check_stamps, group_end, read_header, record_at, split_block, Checker, Header,
};

use crate::tickpt::Stamp;

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
