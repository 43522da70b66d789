//! Compaction of the region log: the snapshot record and thinned region entries (pure).
//!
//! A snapshot taken at the end of region `m` holds the whole shared state then (user
//! globals and the used arena) as one TICKPT, and the user's control state at the region call:
//! the user stack from the call's return address to its top (every frame) and the
//! callee-saved registers, so that a replay continues from exactly that state. It supersedes, in every region entry `1..=m`, the bytes it covers: those entries
//! are *thinned* (only their bytes outside the snapshot are kept: the stack below the region's
//! frame, usually a few reduction targets), so that a compacted log holds one copy of the
//! shared data plus a few bytes per region. A replay injects the thinned entries up to `m`
//! (sequential code between them runs on the arrays of an earlier state, its output is
//! discarded) and the snapshot at `m`, then the full entries after it.
//!
//! | offset | size | field                                                         |
//! |--------|------|---------------------------------------------------------------|
//! | 0      | 8    | magic `b"CAPESNP2"`                                           |
//! | 8      | 8    | region `m` (the state after it)                               |
//! | 16     | 8    | control digest of regions `1..=m` (number, stack pointer)     |
//! | 24     | 8    | stack pointer at region `m`                                   |
//! | 32     | 8    | stdout bytes the program had written before region `m` ended  |
//! | 40     | 8    | stderr bytes, likewise                                        |
//! | 48     | 8    | stack pointer at the region call (its return address's slot)  |
//! | 56     | 8    | that return address                                           |
//! | 64     | 48   | callee-saved registers at the call (x86-64: rbx rbp r12-r15)  |
//! | 112    | 8    | MXCSR (low half), x87 control word (high half)                |
//! | 120    | 8    | stack image length `S` (the bytes from call sp + 8)           |
//! | 128    | 8    | body length `L`                                               |
//! | 136    | S    | the user stack from call sp + 8 to its top                    |
//! | 136+S  | L    | TICKPT v1 of the shared state after region `m`                |
//! | 136+S+L| 32   | MAC of bytes 0..136+S+L at the record's offset in the log     |

use crate::log_key::{LogKey, TAG_LEN};
use crate::tickpt::{xxh64, Stamp, Tickpt};

pub const SNAPSHOT_MAGIC: [u8; 8] = *b"CAPESNP2";
const SNAPSHOT_HEADER_LEN: usize = 136;

/// The user's control state at a region call: what the region's caller and every frame
/// above it hold outside shared memory.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CallState {
    /// The stack pointer on entry to the region call: the slot of its return address.
    pub entry_sp: u64,
    pub return_address: u64,
    /// Callee-saved registers (x86-64: rbx, rbp, r12, r13, r14, r15).
    pub regs: [u64; 6],
    /// MXCSR in the low half, the x87 control word in the high half.
    pub fp_control: u64,
    /// The user stack from `entry_sp + 8` to its top.
    pub stack: Vec<u8>,
}

/// The shared state after one region, and what a replay checks before injecting it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    pub region: u64,
    /// [`control_step`] over regions `1..=region`.
    pub control: u64,
    /// The stack pointer at the region (the image's stack part starts there).
    pub sp: u64,
    /// Bytes written to stdout and stderr before the region ended.
    pub output: [u64; 2],
    pub call: CallState,
    /// TICKPT v1 bytes.
    pub image: Vec<u8>,
}

/// The control digest after one more region: a replay reaches the snapshot's region through
/// the same sequence of regions (numbers and stack depths) or is refused.
pub fn control_step(digest: u64, region: u64, sp: u64) -> u64 {
    let mut b = [0u8; 24];
    b[..8].copy_from_slice(&digest.to_le_bytes());
    b[8..16].copy_from_slice(&region.to_le_bytes());
    b[16..].copy_from_slice(&sp.to_le_bytes());
    xxh64(&b, 0x636f_6e74)
}

fn word(b: &[u8], at: usize) -> u64 {
    b.get(at..at + 8)
        .and_then(|s| s.try_into().ok())
        .map_or(0, u64::from_le_bytes)
}

/// Whether the bytes at a record boundary start a snapshot.
pub fn is_snapshot(rec: &[u8]) -> bool {
    rec.get(..8) == Some(&SNAPSHOT_MAGIC[..])
}

/// Encodes a snapshot record to be stored at byte `offset` of the log.
pub fn encode_snapshot(key: &LogKey, offset: u64, s: &Snapshot) -> Vec<u8> {
    let c = &s.call;
    let mut out = Vec::with_capacity(SNAPSHOT_HEADER_LEN + c.stack.len() + s.image.len() + TAG_LEN);
    out.extend_from_slice(&SNAPSHOT_MAGIC);
    let head = [s.region, s.control, s.sp, s.output[0], s.output[1]];
    let call = [c.entry_sp, c.return_address];
    let tail = [c.fp_control, c.stack.len() as u64, s.image.len() as u64];
    for w in head.iter().chain(&call).chain(&c.regs).chain(&tail) {
        out.extend_from_slice(&w.to_le_bytes());
    }
    out.extend_from_slice(&c.stack);
    out.extend_from_slice(&s.image);
    let tag = key.tag(offset, &out);
    out.extend_from_slice(&tag);
    out
}

/// Reads the snapshot record at the start of `rec` (the committed log from byte `offset`):
/// the snapshot and the record's length. The error says what is wrong.
pub fn parse_snapshot(
    key: &LogKey,
    offset: u64,
    rec: &[u8],
) -> Result<(Snapshot, usize), &'static str> {
    if rec.len() < SNAPSHOT_HEADER_LEN + TAG_LEN || !is_snapshot(rec) {
        return Err("bad snapshot header");
    }
    let stack_len = usize::try_from(word(rec, 120)).unwrap_or(usize::MAX);
    let body = usize::try_from(word(rec, 128)).unwrap_or(usize::MAX);
    let total = body
        .checked_add(stack_len)
        .and_then(|n| n.checked_add(SNAPSHOT_HEADER_LEN + TAG_LEN))
        .filter(|&t| t <= rec.len())
        .ok_or("snapshot longer than the committed log")?;
    let (sealed, tag) = rec[..total].split_at(total - TAG_LEN);
    if !key.verify(offset, sealed, tag) {
        return Err("snapshot MAC mismatch: modified or not written by this job");
    }
    let (stack, image) = sealed[SNAPSHOT_HEADER_LEN..].split_at(stack_len);
    Tickpt::view(image).map_err(|_| "bad snapshot image")?;
    let call = CallState {
        entry_sp: word(rec, 48),
        return_address: word(rec, 56),
        regs: std::array::from_fn(|i| word(rec, 64 + 8 * i)),
        fp_control: word(rec, 112),
        stack: stack.to_vec(),
    };
    if call.entry_sp % 16 != 8
        || stack_len % 16 != 0
        || call.entry_sp.checked_add(8 + stack_len as u64).is_none()
    {
        return Err("bad snapshot stack image");
    }
    Ok((
        Snapshot {
            region: word(rec, 8),
            control: word(rec, 16),
            sp: word(rec, 24),
            output: [word(rec, 32), word(rec, 40)],
            call,
            image: image.to_vec(),
        },
        total,
    ))
}

/// The image of `ranges` (sorted, disjoint `(start, end)`) as a TICKPT: `read(start, len,
/// out)` appends the `len` bytes from `start` to `out`, one copy (a snapshot's copy is on the
/// critical path).
pub fn image(ranges: &[(u64, u64)], mut read: impl FnMut(u64, u64, &mut Vec<u8>)) -> Tickpt {
    let mut t = Tickpt::new(0);
    let stamp = Stamp { order: 0, rank: 0 };
    let ranges: Vec<(u64, u64)> = ranges.iter().copied().filter(|(s, e)| e > s).collect();
    t.reserve(ranges.iter().map(|&(s, e)| (e - s) as usize).sum());
    for (s, e) in ranges {
        t.push_filled(s, stamp, (e - s) as usize, |out| read(s, e - s, out));
    }
    t
}

/// Whether one of `ranges` (sorted, disjoint) holds all of `[start, end)`.
pub fn covers(ranges: &[(u64, u64)], start: u64, end: u64) -> bool {
    let i = ranges.partition_point(|&(_, e)| e <= start);
    ranges.get(i).is_some_and(|&(s, e)| s <= start && end <= e)
}

/// The address ranges a snapshot image covers (its runs, sorted).
pub fn covered(image: &Tickpt) -> Vec<(u64, u64)> {
    let mut r: Vec<(u64, u64)> = image.runs().map(|run| (run.addr, run.end())).collect();
    r.sort_unstable();
    r
}

/// A region's payload (TICKPT bytes) without the bytes inside `ranges` (sorted, disjoint):
/// what a snapshot over `ranges` leaves of it. Undecodable input is kept as it is (the log's
/// validation refuses it elsewhere).
pub fn thin(payload: &[u8], ranges: &[(u64, u64)]) -> Vec<u8> {
    match Tickpt::decode(payload) {
        Ok(t) => thin_change(&t, ranges).encode(),
        Err(_) => payload.to_vec(),
    }
}

/// [`thin`] of a decoded change.
pub fn thin_change(t: &Tickpt, ranges: &[(u64, u64)]) -> Tickpt {
    let mut out = Tickpt::new(t.region);
    for run in t.runs() {
        let (mut at, end) = (run.addr, run.end());
        let first = ranges.partition_point(|&(_, e)| e <= at);
        for &(s, e) in &ranges[first..] {
            if s >= end {
                break;
            }
            if s > at {
                out.push(
                    at,
                    run.stamp,
                    &run.bytes[(at - run.addr) as usize..(s - run.addr) as usize],
                );
            }
            at = at.max(e);
            if at >= end {
                break;
            }
        }
        if at < end {
            out.push(at, run.stamp, &run.bytes[(at - run.addr) as usize..]);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::log_key::{Job, LogKey};

    fn key() -> LogKey {
        LogKey::derive(&[7; 32], &[1; 16], &Job::new(b"p", &[]))
    }

    fn sample() -> Snapshot {
        let img = image(&[(0x1000, 0x1010), (0x2000, 0x2004)], |a, n, out| {
            out.extend(std::iter::repeat_n(a as u8, n as usize))
        });
        Snapshot {
            region: 9,
            control: 5,
            sp: 0x7000,
            output: [3, 4],
            call: CallState {
                entry_sp: 0x6ff8,
                return_address: 0x40_1234,
                regs: [1, 2, 3, 4, 5, 6],
                fp_control: 0x37f_0000_1f80,
                stack: vec![9; 32],
            },
            image: img.encode(),
        }
    }

    #[test]
    fn snapshot_round_trip_and_every_flip_refused() {
        let s = sample();
        let rec = encode_snapshot(&key(), 128, &s);
        assert_eq!(parse_snapshot(&key(), 128, &rec).unwrap(), (s, rec.len()));
        assert!(
            parse_snapshot(&key(), 256, &rec).is_err(),
            "the offset is sealed"
        );
        for byte in 0..rec.len() {
            let mut bad = rec.clone();
            bad[byte] ^= 0x10;
            assert!(parse_snapshot(&key(), 128, &bad).is_err(), "flip at {byte}");
        }
        assert!(parse_snapshot(&key(), 128, &rec[..rec.len() - 1]).is_err());
    }

    #[test]
    fn thinning_keeps_exactly_the_bytes_outside() {
        let mut t = Tickpt::new(3);
        let st = Stamp { order: 1, rank: 0 };
        t.push(0x100, st, &[1; 0x40]); // straddles 0x120..0x130
        t.push(0x200, st, &[2; 8]); // inside 0x1f0..0x300
        t.push(0x400, st, &[3; 8]); // outside
        let out = Tickpt::decode(&thin(&t.encode(), &[(0x120, 0x130), (0x1f0, 0x300)])).unwrap();
        let runs: Vec<(u64, usize, u8)> = out
            .runs()
            .map(|r| (r.addr, r.bytes.len(), r.bytes[0]))
            .collect();
        assert_eq!(runs, [(0x100, 0x20, 1), (0x130, 0x10, 1), (0x400, 8, 3)]);
        assert_eq!(out.region, 3);
    }

    #[test]
    fn covered_pages() {
        let r = [(0x1000, 0x3000), (0x5000, 0x5800)];
        assert!(covers(&r, 0x1000, 0x2000) && covers(&r, 0x2000, 0x3000));
        assert!(!covers(&r, 0x2800, 0x3800) && !covers(&r, 0x5000, 0x6000));
        assert!(!covers(&r, 0x3000, 0x4000) && !covers(&r, 0, 0x1000));
    }

    #[test]
    fn control_digest_depends_on_order_and_depth() {
        let a = control_step(control_step(0, 1, 0x100), 2, 0x100);
        let b = control_step(control_step(0, 1, 0x100), 2, 0x80);
        let c = control_step(control_step(0, 2, 0x100), 1, 0x100);
        assert!(a != b && a != c && b != c);
    }
}
