//! The region protocol in-process: P = 1..9 ranks as threads over channels, each with its
//! own simulated memory, run an epoch's end (diff -> records -> allreduce -> inject -> apply)
//! and a replayed region's delivery through the same functions as the real program.

use super::epoch::{allowed_lines, apply_records, inject_others, EPOCH_SHIFT};
use super::memory::Memory;
use super::records::{self, capture_slots, Applied, Record};
use super::replay::{inject_replayed, ReplayError};
use crate::allreduce::channels::{mesh, ChannelTransport};
use crate::allreduce::{allreduce, Exchange, Transport};
use crate::diff::diff_page;
use crate::inject::Target;
use crate::tickpt::{Stamp, Tickpt};
use cape_format::changeset::Writer;
use std::collections::HashMap;

const BASE: usize = 0x10_000;
/// One page: the diff works page by page.
const LEN: usize = 4096;
/// Rank r's own 8 bytes.
fn slot(r: usize) -> usize {
    BASE + 8 * r
}
/// Written by every rank: the latest iteration (the highest rank here) wins.
const SHARED: usize = BASE + 96;
const REDUCED: usize = BASE + 128;
const ATOMIC_ADD: usize = BASE + 136;
const ATOMIC_ORDERED: usize = BASE + 144;
const CAPTURED: usize = BASE + 152;
/// Rank 0 updates it and then stores to it plainly; the other ranks update it.
const STORED: usize = BASE + 160;

/// Combiners of the simulated program, by "address".
const ADD: usize = 1;
/// `x = 10 * x + operand`: the result depends on the order the records are applied in.
const TIMES_TEN_PLUS: usize = 2;

struct SimMemory(Vec<u8>);

impl SimMemory {
    fn new() -> SimMemory {
        let mut m = SimMemory(vec![0; LEN]);
        m.set(REDUCED, 5);
        m.set(ATOMIC_ADD, 7);
        m.set(ATOMIC_ORDERED, 3);
        m
    }
    fn bytes(&self, addr: usize, len: usize) -> &[u8] {
        &self.0[addr - BASE..addr - BASE + len]
    }
    fn write(&mut self, addr: usize, bytes: &[u8]) {
        self.0[addr - BASE..addr - BASE + bytes.len()].copy_from_slice(bytes);
    }
    fn get(&self, addr: usize) -> i64 {
        i64::from_le_bytes(self.bytes(addr, 8).try_into().unwrap())
    }
    fn set(&mut self, addr: usize, v: i64) {
        self.write(addr, &v.to_le_bytes());
    }
}

impl Target for SimMemory {
    fn inject(&mut self, addr: usize, bytes: &[u8]) {
        self.write(addr, bytes);
    }
    fn read(&self, addr: usize, out: &mut [u8]) {
        out.copy_from_slice(self.bytes(addr, out.len()));
    }
}

impl Memory for SimMemory {
    fn restore(&mut self, addr: usize, bytes: &[u8]) {
        self.write(addr, bytes);
    }
    fn combine(&mut self, target: usize, operand: &[u8], combiner: usize) {
        let x = self.get(target);
        let y = i64::from_le_bytes(operand.try_into().unwrap());
        match combiner {
            ADD => self.set(target, x + y),
            TIMES_TEN_PLUS => self.set(target, 10 * x + y),
            _ => panic!("no combiner at {combiner}"),
        }
    }
}

/// One rank's epoch as the constructs record it, then its end exactly as `merge_point` does
/// after the diff: records attached, allreduce, other ranks' runs injected, records applied.
fn rank_epoch(mut link: ChannelTransport, epoch: u64) -> (SimMemory, Applied) {
    let (r, p) = (link.rank(), link.size());
    let me = r as u32;
    let mut mem = SimMemory::new();
    let twin = mem.0.clone();
    let mut recorded = Vec::new();
    let mut before: HashMap<usize, Vec<u8>> = HashMap::new();
    let operand = |v: i64| v.to_le_bytes().to_vec();

    // plain writes: its own slot, and a cell every rank writes
    mem.set(slot(r), r as i64 + 1);
    mem.set(SHARED, 100 + r as i64);
    // `reduction(+: x)`: a partial value, the shared variable untouched
    recorded.push(Record::Combine {
        target: REDUCED,
        combiner: ADD,
        operand: operand(r as i64 + 1),
    });
    // `atomic` updates: applied now, recorded, the value before the epoch kept
    for (target, combiner, v) in [
        (ATOMIC_ADD, ADD, r as i64 + 1),
        (ATOMIC_ADD, ADD, r as i64 + 1),
        (ATOMIC_ORDERED, TIMES_TEN_PLUS, r as i64 + 1),
    ] {
        before
            .entry(target)
            .or_insert_with(|| mem.bytes(target, 8).to_vec());
        recorded.push(Record::Combine {
            target,
            combiner,
            operand: operand(v),
        });
        mem.combine(target, &operand(v), combiner);
    }
    // rank 0: `atomic x += 1; x = 50;` (`plain_writes.rs` makes its updates one store);
    // the others: `atomic x += r + 1`, applied on top in rank order
    before
        .entry(STORED)
        .or_insert_with(|| mem.bytes(STORED, 8).to_vec());
    if r == 0 {
        mem.combine(STORED, &operand(1), ADD);
        mem.set(STORED, 50);
        recorded.push(Record::Store {
            target: STORED,
            bytes: operand(50),
        });
    } else {
        mem.combine(STORED, &operand(r as i64 + 1), ADD);
        recorded.push(Record::Combine {
            target: STORED,
            combiner: ADD,
            operand: operand(r as i64 + 1),
        });
    }
    if r % 2 == 0 {
        recorded.push(Record::Capture { target: CAPTURED });
    }
    if r > 0 {
        recorded.push(Record::Output(format!("rank {r}\n").into_bytes()));
    }
    if r == p - 1 {
        recorded.push(Record::HeapUse);
    }

    // the diff: reduction and atomic targets excluded, iterations r*10 .. r*10+9 ran
    let stamp = Stamp {
        order: epoch << EPOCH_SHIFT | (r as u64 * 10 + 10),
        rank: me,
    };
    let mut ex = Exchange::default();
    let mut w = Writer::new(ex.local(), epoch, [stamp]);
    let mut pieces = Vec::new();
    let excluded = [(REDUCED, CAPTURED), (STORED, STORED + 8)];
    crate::runs::subtract_from(BASE, BASE + LEN, &excluded, &mut pieces);
    let allowed = allowed_lines(BASE, &pieces);
    let mut twin = twin;
    diff_page(&mem.0, &mut twin, BASE as u64, me, Some(&allowed), &mut w);
    assert_eq!(twin, mem.0, "the diff brings the twin up to date");
    records::attach(&mut w, me, &recorded);
    w.finish();

    allreduce(&mut link, &mut ex, None).unwrap();
    let merged = ex.result().unwrap();
    inject_others(&mut mem, me, &merged);
    let applied = apply_records(&mut mem, &merged, &before);
    (mem, applied)
}

#[test]
fn epoch_end_gives_every_rank_the_sequential_result() {
    for p in 1..=9usize {
        let results: Vec<(SimMemory, Applied)> = std::thread::scope(|scope| {
            let handles: Vec<_> = mesh(p)
                .into_iter()
                .map(|link| scope.spawn(move || rank_epoch(link, 3)))
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        let (mem0, applied0) = &results[0];
        for (r, (mem, applied)) in results.iter().enumerate() {
            assert_eq!(
                mem.0, mem0.0,
                "P={p}: rank {r}'s memory differs from rank 0's"
            );
            assert_eq!(applied.printed, applied0.printed, "P={p} rank {r}");
        }
        let sum: i64 = (1..=p as i64).sum();
        for r in 0..p {
            assert_eq!(mem0.get(slot(r)), r as i64 + 1, "P={p}: slot of rank {r}");
        }
        assert_eq!(
            mem0.get(SHARED),
            100 + p as i64 - 1,
            "P={p}: latest iteration wins"
        );
        assert_eq!(mem0.get(REDUCED), 5 + sum, "P={p}: reduction");
        assert_eq!(mem0.get(ATOMIC_ADD), 7 + 2 * sum, "P={p}: atomic updates");
        let ordered = (1..=p as i64).fold(3, |x, v| 10 * x + v);
        assert_eq!(mem0.get(ATOMIC_ORDERED), ordered, "P={p}: rank order");
        assert_eq!(
            mem0.get(STORED),
            50 + sum - 1,
            "P={p}: a plain store after updates, later ranks' updates on top"
        );
        let expected_output: String = (1..p).map(|r| format!("rank {r}\n")).collect();
        assert_eq!(
            applied0.printed,
            expected_output.into_bytes(),
            "P={p}: output"
        );
        assert_eq!(applied0.heap_users, vec![p as u64 - 1], "P={p}: heap use");
        let mut captured = applied0.captured.clone();
        assert_eq!(captured.len(), p.div_ceil(2), "P={p}: captures");
        assert_eq!(capture_slots(&mut captured).unwrap().len(), 1, "P={p}");
        let mut targets = applied0.targets.clone();
        targets.sort_unstable();
        targets.dedup();
        assert_eq!(
            targets,
            vec![
                (REDUCED, REDUCED + 8),
                (ATOMIC_ADD, ATOMIC_ADD + 8),
                (ATOMIC_ORDERED, ATOMIC_ORDERED + 8),
                (STORED, STORED + 8)
            ],
            "P={p}: targets"
        );
    }
}

/// Rank 0's broadcast of a replayed region: every rank injects the same logged payload, or
/// every rank gets the same refusal.
#[test]
fn replayed_region_reaches_every_rank() {
    let mut payload = Tickpt::new(1);
    let stamp = Stamp { order: 0, rank: 0 };
    payload.push(slot(1) as u64, stamp, &42i64.to_le_bytes());
    payload.push(SHARED as u64, stamp, &[9, 9, 9]);
    let mut ok = vec![0u8];
    payload.encode_into(&mut ok);
    let refused = b"\x01parallel region 1 was logged with another input".to_vec();
    for p in 1..=9usize {
        for msg in [&ok, &refused] {
            let results: Vec<(SimMemory, Result<(), ReplayError>)> = std::thread::scope(|scope| {
                let handles: Vec<_> = mesh(p)
                    .into_iter()
                    .map(|mut link| {
                        scope.spawn(move || {
                            let got = if link.rank() == 0 {
                                for peer in 1..link.size() {
                                    link.send(peer, msg).unwrap();
                                }
                                msg.to_vec()
                            } else {
                                link.recv(0).unwrap()
                            };
                            let mut mem = SimMemory::new();
                            let result = inject_replayed(&mut mem, &got);
                            (mem, result)
                        })
                    })
                    .collect();
                handles.into_iter().map(|h| h.join().unwrap()).collect()
            });
            for (r, (mem, result)) in results.iter().enumerate() {
                if msg[0] == 0 {
                    assert_eq!(result, &Ok(()), "P={p} rank {r}");
                    assert_eq!(mem.get(slot(1)), 42, "P={p} rank {r}");
                    assert_eq!(mem.bytes(SHARED, 3), &[9, 9, 9], "P={p} rank {r}");
                } else {
                    assert_eq!(
                        result,
                        &Err(ReplayError::Refused(
                            "parallel region 1 was logged with another input".into()
                        )),
                        "P={p} rank {r}"
                    );
                    assert_eq!(mem.0, SimMemory::new().0, "P={p}: nothing injected");
                }
            }
        }
    }
    let mut mem = SimMemory::new();
    assert!(matches!(
        inject_replayed(&mut mem, &[0, 1, 2]),
        Err(ReplayError::Bad(_))
    ));
}
