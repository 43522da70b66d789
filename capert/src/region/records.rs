//! The records of an epoch that are not memory runs: reduction partials, atomic updates,
//! stores that replace a rank's updates of a variable it also wrote plainly,
//! `atomic capture` notes, a rank's printed output, a rank's use of the arena allocator,
//! rank 0's `errno` at the region's end.
//!
//! Each rank's records travel inside the merge message as its record block (after the page
//! records), so that a merge point stays exactly one collective; every rank then applies all
//! ranks' records in rank order.
//! Within a block every record starts with its kind byte.

use super::memory::Memory;
use crate::addr_hash::AddrHash;
use crate::sys::mpi::CAPTURE_SLOTS;
use crate::sys::raw::{Combiner, SameProgram};
use crate::tickpt::{Stamp, Tickpt};
use cape_format::changeset::{ChangeSet, Writer};
use std::collections::HashMap;

const KIND_COMBINE: u8 = 0;
const KIND_CAPTURE: u8 = 1;
const KIND_OUTPUT: u8 = 2;
const KIND_HEAP_USE: u8 = 3;
const KIND_SECTION: u8 = 4;
const KIND_STORE: u8 = 5;
const KIND_FILE_OUTPUT: u8 = 6;
const KIND_ERRNO: u8 = 7;

/// One record of an epoch, in program order on its rank.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Record {
    /// A reduction partial or an atomic update: every rank runs `combiner(target, operand)`.
    /// `combiner` is a function address of the (non-PIE) program, the same on every rank.
    Combine {
        target: usize,
        combiner: usize,
        operand: Vec<u8>,
    },
    /// `atomic capture` updated the variable at `target`: its counter cell is emptied at the
    /// merge point.
    Capture { target: usize },
    /// What a rank other than 0 printed in the epoch; rank 0 prints it in rank order.
    Output(Vec<u8>),
    /// What a rank other than 0 wrote in the epoch to file `stream` (a number of
    /// sys/streams.rs); rank 0 writes it in rank order.
    FileOutput { stream: u32, bytes: Vec<u8> },
    /// The rank changed the arena allocator in the epoch (at most one rank may).
    HeapUse,
    /// A variable the rank updated and also stored to plainly in the epoch
    /// (`plain_writes.rs`): its final value on the rank, which replaces the rank's updates of
    /// it; every rank writes it where the rank order puts it among the updates.
    Store { target: usize, bytes: Vec<u8> },
    /// The bytes a rank wrote while holding cross-rank lock `slot` with ticket `seq`
    /// (`region/lock.rs`): every rank writes every rank's sections in ticket order per lock.
    Section {
        slot: usize,
        seq: u64,
        runs: Vec<(usize, Vec<u8>)>,
    },
    /// Rank 0's `errno` after its share of the region (its thread 0 runs the OpenMP initial
    /// thread's), when not 0: every rank's `errno` after the region. Sent at the last merge
    /// point only; none sent means 0.
    Errno(i32),
}

/// An epoch's records in program order, with what folding an update needs: per target whose
/// latest record is a folding update (`push_folding`), that record's index, since the last
/// record of another kind (a section's bytes, a capture, output: no update is moved across
/// one of those). Other records leave the map empty, so a region without folding updates
/// never allocates it.
#[derive(Debug, Default)]
pub(super) struct EpochRecords {
    list: Vec<Record>,
    latest: HashMap<usize, usize, AddrHash>,
}

impl EpochRecords {
    pub fn push(&mut self, record: Record) {
        match &record {
            Record::Combine { target, .. } => {
                self.latest.remove(target);
            }
            _ => self.latest.clear(),
        }
        self.list.push(record);
    }

    /// A folding update that found no record to fold into: later ones of its target may.
    pub fn push_folding(&mut self, target: usize, combiner: Combiner, operand: &[u8]) {
        self.latest.insert(target, self.list.len());
        self.list.push(Record::Combine {
            target,
            combiner: combiner.address(),
            operand: operand.to_vec(),
        });
    }

    pub fn extend(&mut self, records: impl IntoIterator<Item = Record>) {
        for record in records {
            self.push(record);
        }
    }

    /// Combines `operand` into the latest update of `target` when that update is a folding
    /// one with the same combiner, as `x OP a OP b` equals `x OP (a OP b)` and updates of
    /// other variables in between commute with it. False when there is none to fold into.
    pub fn fold(&mut self, target: usize, combiner: Combiner, operand: &[u8]) -> bool {
        let Some(&at) = self.latest.get(&target) else {
            return false;
        };
        match self.list.get_mut(at) {
            Some(Record::Combine {
                combiner: f,
                operand: acc,
                ..
            }) if *f == combiner.address() && acc.len() == operand.len() => {
                combiner.fold(acc, operand);
                true
            }
            _ => false,
        }
    }

    pub fn clear(&mut self) {
        self.list.clear();
        self.latest.clear();
    }

    /// Replaces the updates of `target` with the store of its final value `bytes`.
    pub fn replace_updates(&mut self, target: usize, bytes: Vec<u8>) {
        self.list
            .retain(|r| !matches!(r, Record::Combine { target: t, .. } if *t == target));
        self.push(Record::Store { target, bytes });
    }

    /// Appends the store of `bytes` at `target` to the section record at `at` (`plain_writes.rs`):
    /// the join writes it after that section's own stores.
    pub fn store_in_section(&mut self, at: usize, target: usize, bytes: Vec<u8>) {
        if let Some(Record::Section { runs, .. }) = self.list.get_mut(at) {
            runs.push((target, bytes));
        }
    }

    pub fn as_slice(&self) -> &[Record] {
        &self.list
    }
}

impl Record {
    fn encode_into(&self, out: &mut Vec<u8>) {
        let word = |out: &mut Vec<u8>, v: usize| out.extend_from_slice(&(v as u64).to_le_bytes());
        let bytes = |out: &mut Vec<u8>, b: &[u8]| {
            out.extend_from_slice(&(b.len() as u32).to_le_bytes());
            out.extend_from_slice(b);
        };
        match self {
            Record::Combine {
                target,
                combiner,
                operand,
            } => {
                out.push(KIND_COMBINE);
                word(out, *target);
                word(out, *combiner);
                bytes(out, operand);
            }
            Record::Capture { target } => {
                out.push(KIND_CAPTURE);
                word(out, *target);
            }
            Record::Output(printed) => {
                out.push(KIND_OUTPUT);
                bytes(out, printed);
            }
            Record::FileOutput { stream, bytes: b } => {
                out.push(KIND_FILE_OUTPUT);
                word(out, *stream as usize);
                bytes(out, b);
            }
            Record::HeapUse => out.push(KIND_HEAP_USE),
            Record::Errno(value) => {
                out.push(KIND_ERRNO);
                out.extend_from_slice(&value.to_le_bytes());
            }
            Record::Store {
                target,
                bytes: value,
            } => {
                out.push(KIND_STORE);
                word(out, *target);
                bytes(out, value);
            }
            Record::Section { slot, seq, runs } => {
                out.push(KIND_SECTION);
                word(out, *slot);
                word(out, *seq as usize);
                word(out, runs.len());
                for (addr, run) in runs {
                    word(out, *addr);
                    bytes(out, run);
                }
            }
        }
    }
}

/// The encoded records of one rank.
pub(super) fn encode(records: &[Record]) -> Vec<u8> {
    let mut out = Vec::new();
    for r in records {
        r.encode_into(&mut out);
    }
    out
}

/// Decodes a rank's record block; stops at a malformed tail.
pub(super) fn decode(mut block: &[u8]) -> Vec<Record> {
    fn take<'a>(block: &mut &'a [u8], n: usize) -> Option<&'a [u8]> {
        let (head, rest) = block.split_at_checked(n)?;
        *block = rest;
        Some(head)
    }
    fn word(block: &mut &[u8]) -> Option<usize> {
        Some(u64::from_le_bytes(take(block, 8)?.try_into().ok()?) as usize)
    }
    fn bytes(block: &mut &[u8]) -> Option<Vec<u8>> {
        let len = u32::from_le_bytes(take(block, 4)?.try_into().ok()?) as usize;
        Some(take(block, len)?.to_vec())
    }
    let mut out = Vec::new();
    while let Some((&kind, rest)) = block.split_first() {
        block = rest;
        let record = match kind {
            KIND_COMBINE => (|| {
                Some(Record::Combine {
                    target: word(&mut block)?,
                    combiner: word(&mut block)?,
                    operand: bytes(&mut block)?,
                })
            })(),
            KIND_CAPTURE => word(&mut block).map(|target| Record::Capture { target }),
            KIND_OUTPUT => bytes(&mut block).map(Record::Output),
            KIND_FILE_OUTPUT => (|| {
                Some(Record::FileOutput {
                    stream: u32::try_from(word(&mut block)?).ok()?,
                    bytes: bytes(&mut block)?,
                })
            })(),
            KIND_HEAP_USE => Some(Record::HeapUse),
            KIND_ERRNO => (|| {
                Some(Record::Errno(i32::from_le_bytes(
                    take(&mut block, 4)?.try_into().ok()?,
                )))
            })(),
            KIND_STORE => (|| {
                Some(Record::Store {
                    target: word(&mut block)?,
                    bytes: bytes(&mut block)?,
                })
            })(),
            KIND_SECTION => (|| {
                let slot = word(&mut block)?;
                let seq = word(&mut block)? as u64;
                let count = word(&mut block)?;
                let mut runs = Vec::new();
                for _ in 0..count {
                    runs.push((word(&mut block)?, bytes(&mut block)?));
                }
                Some(Record::Section { slot, seq, runs })
            })(),
            _ => None,
        };
        match record {
            Some(r) => out.push(r),
            None => break,
        }
    }
    out
}

/// Adds rank `rank`'s record block to its merge message (after its page records).
pub(super) fn attach(local: &mut Writer<'_>, rank: u32, records: &[Record]) {
    if !records.is_empty() {
        local.block(rank, &encode(records));
    }
}

/// The record blocks of a merged message, in rank order: (rank, encoded records).
pub(super) fn blocks<'a>(merged: &ChangeSet<'a>) -> Vec<(u64, &'a [u8])> {
    merged
        .blocks()
        .map(|(rank, bytes)| (u64::from(rank), bytes))
        .collect()
}

/// What applying the epoch's records found, beyond the combined targets in memory.
#[derive(Debug, Default)]
pub(super) struct Applied {
    /// Byte ranges of the combined targets (their final values go to the region's payload).
    pub targets: Vec<(usize, usize)>,
    /// Variables updated by `atomic capture` (any rank, possibly repeated).
    pub captured: Vec<usize>,
    /// Output of the other ranks, in rank order.
    pub printed: Vec<u8>,
    /// The other ranks' writes to rank 0's files, in rank order: (stream number, bytes).
    pub written: Vec<(u32, Vec<u8>)>,
    /// Ranks that changed the arena allocator.
    pub heap_users: Vec<u64>,
    /// Cross-rank lock slots held in the epoch (sorted, once each).
    pub lock_slots: Vec<usize>,
    /// Rank 0's `errno` at the region's end (`Record::Errno`; None: 0, or not the last epoch).
    pub errno: Option<i32>,
}

/// Applies every rank's records in rank order (deterministic and identical on every rank);
/// then the critical sections of every rank, per lock in ticket order.
pub(super) fn apply<M: Memory>(blocks: &[(u64, &[u8])], mem: &mut M) -> Applied {
    let mut applied = Applied::default();
    let mut sections = Vec::new();
    for (rank, block) in blocks {
        let mut heap_used = false;
        for record in decode(block) {
            match record {
                Record::Combine {
                    target,
                    combiner,
                    operand,
                } => {
                    mem.combine(target, &operand, combiner);
                    applied.targets.push((target, target + operand.len()));
                }
                Record::Store { target, bytes } => {
                    mem.restore(target, &bytes);
                    applied.targets.push((target, target + bytes.len()));
                }
                Record::Capture { target } => applied.captured.push(target),
                Record::Output(printed) => applied.printed.extend_from_slice(&printed),
                Record::FileOutput { stream, bytes } => applied.written.push((stream, bytes)),
                Record::HeapUse => heap_used = true,
                Record::Errno(value) => applied.errno = Some(value),
                Record::Section { slot, seq, runs } => sections.push((slot, seq, runs)),
            }
        }
        if heap_used {
            applied.heap_users.push(*rank);
        }
    }
    sections.sort_unstable_by_key(|&(slot, seq, _)| (slot, seq));
    for (slot, _, runs) in sections {
        for (addr, bytes) in runs {
            mem.restore(addr, &bytes);
            applied.targets.push((addr, addr + bytes.len()));
        }
        if applied.lock_slots.last() != Some(&slot) {
            applied.lock_slots.push(slot);
        }
    }
    applied
}

/// The final values of the combined targets (hulls of overlapping ranges), stamped `latest`.
pub(super) fn final_values(
    targets: &mut [(usize, usize)],
    latest: Stamp,
    id: u64,
    program: SameProgram,
) -> Tickpt {
    targets.sort_unstable();
    let mut hulls: Vec<(usize, usize)> = Vec::new();
    for &(s, e) in targets.iter() {
        match hulls.last_mut() {
            Some(last) if s <= last.1 => last.1 = last.1.max(e),
            _ => hulls.push((s, e)),
        }
    }
    let mut finals = Tickpt::new(id);
    for (s, e) in hulls {
        finals.push(s as u64, latest, &program.object(s, e - s).read());
    }
    finals
}

/// The capture cells of an epoch, from every rank's records: the slots to empty, or an error
/// when two variables share one (their addresses differ by a multiple of CAPTURE_SLOTS).
pub(super) fn capture_slots(addrs: &mut Vec<usize>) -> Result<Vec<usize>, String> {
    // each rank records an address once per epoch, but several ranks record the same one
    addrs.sort_unstable_by_key(|&a| (a % CAPTURE_SLOTS, a));
    addrs.dedup();
    if let Some(pair) = addrs
        .windows(2)
        .find(|p| p[0] % CAPTURE_SLOTS == p[1] % CAPTURE_SLOTS)
    {
        return Err(format!(
            "two variables updated by `atomic capture` between the same barriers (at {:#x} and \
             {:#x}) share a counter cell; their captured values could be wrong. Separate the \
             updates with a barrier",
            pair[0], pair[1]
        ));
    }
    Ok(addrs.iter().map(|a| a % CAPTURE_SLOTS).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every kind survives the merge message unchanged and in order, whatever the operand.
    #[test]
    fn records_round_trip_in_order() {
        let records = vec![
            Record::Combine {
                target: 0x1000,
                combiner: 0x40_1000,
                operand: vec![1, 2, 3, 4, 5, 6, 7, 8],
            },
            Record::Capture { target: 0x2000 },
            Record::Combine {
                target: 0x1008,
                combiner: 0x40_2000,
                operand: vec![],
            },
            Record::Output(b"hello\n".to_vec()),
            Record::HeapUse,
            Record::Errno(34),
            Record::Store {
                target: 0x2008,
                bytes: vec![9, 8, 7],
            },
            Record::Section {
                slot: 3,
                seq: 7,
                runs: vec![(0x3000, vec![1, 2]), (0x3010, vec![])],
            },
        ];
        assert_eq!(decode(&encode(&records)), records);
        assert!(decode(&[]).is_empty());
    }

    /// A truncated block yields the records before the cut, never garbage.
    #[test]
    fn truncated_block_stops_at_the_cut() {
        let records = vec![Record::Capture { target: 8 }, Record::Output(vec![9; 10])];
        let bytes = encode(&records);
        for cut in 0..bytes.len() {
            let got = decode(&bytes[..cut]);
            assert!(got.len() < 2 && records.starts_with(&got), "cut at {cut}");
        }
        assert_eq!(decode(&[0xff, 1, 2]), vec![]);
    }

    /// Blocks attached by several ranks come back per rank, in rank order, next to memory runs.
    #[test]
    fn blocks_come_back_per_rank() {
        use cape_format::changeset::Buf;
        let mut buf = Buf::new();
        let mut w = Writer::new(&mut buf, 1, [Stamp { order: 1, rank: 0 }]);
        w.begin_record(0x1000, 0);
        w.masked_line(0, 0b11, &[1; 64]);
        attach(&mut w, 0, &[Record::HeapUse]);
        attach(&mut w, 1, &[]);
        attach(&mut w, 2, &[Record::Capture { target: 4 }]);
        w.finish();
        let set = ChangeSet::parse(buf.as_slice()).unwrap();
        let got = blocks(&set);
        assert_eq!(got.len(), 2);
        assert_eq!((got[0].0, decode(got[0].1)), (0, vec![Record::HeapUse]));
        assert_eq!(
            (got[1].0, decode(got[1].1)),
            (2, vec![Record::Capture { target: 4 }])
        );
    }

    /// The cells to empty: one per variable, however many ranks recorded it; two variables on
    /// one cell are refused.
    #[test]
    fn capture_slots_dedup_and_refuse_shared_cells() {
        let mut addrs = vec![0x1008, 0x1000, 0x1008, 0x1004, 0x1000];
        assert_eq!(capture_slots(&mut addrs).unwrap().len(), 3);
        let mut clash = vec![0x1000, 0x1000 + CAPTURE_SLOTS];
        assert!(capture_slots(&mut clash)
            .unwrap_err()
            .contains("share a counter cell"));
    }
}
