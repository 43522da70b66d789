//! The exact race detector of check builds (`capecc --check=races`): the program's loads and
//! stores go through access hooks, which call [`record`] while a rank runs its share of a
//! region. Per epoch (between two merge points) each rank keeps the bytes of shared memory it
//! read and wrote, with the first code address of each kind per 8-byte granule; at the region
//! end the sets of every epoch are gathered from all ranks and every byte written by one rank
//! and read or written by another in the same epoch is a data race. Every rank runs its
//! iterations whatever the timing, so for a given schedule and rank count the verdict is
//! always the same.

use crate::sys::check_flag;
use std::cell::RefCell;
use std::collections::BTreeMap;

const PAGE: usize = 4096;
const WORDS: usize = PAGE / 64;
const GRANULES: usize = PAGE / 8;
/// Entries of the cache of recently used pages.
const RECENT: usize = 32;
/// At most this many conflicts are reported per region.
const MAX_REPORTS: usize = 10;

/// The accesses of one rank to one page in one epoch.
struct Shadow {
    page: usize,
    read: [u64; WORDS],
    write: [u64; WORDS],
    read_pc: Box<[usize; GRANULES]>,
    write_pc: Box<[usize; GRANULES]>,
}

impl Shadow {
    fn new(page: usize) -> Shadow {
        Shadow {
            page,
            read: [0; WORDS],
            write: [0; WORDS],
            read_pc: Box::new([0; GRANULES]),
            write_pc: Box::new([0; GRANULES]),
        }
    }
}

#[derive(Default)]
struct Recorder {
    /// Shared memory of the region, and what is not shared in it (threadprivate copies).
    ranges: Vec<(usize, usize)>,
    excluded: Vec<(usize, usize)>,
    /// The current epoch's pages: page -> index into `shadows`, with a direct-mapped cache
    /// in front (loops walk several arrays at once).
    index: std::collections::HashMap<usize, usize>,
    shadows: Vec<Shadow>,
    recent: [(usize, usize); RECENT],
    /// Finished epochs of the region: (epoch, its pages).
    done: Vec<(u64, Vec<Shadow>)>,
    /// The hooks' recording period (never 0 once started).
    period: i32,
}

thread_local! {
    static RECORDER: RefCell<Recorder> = RefCell::new(Recorder::default());
}

impl Recorder {
    fn shared(&self, addr: usize) -> bool {
        self.ranges.iter().any(|&(s, e)| s <= addr && addr < e)
            && !self.excluded.iter().any(|&(s, e)| s <= addr && addr < e)
    }

    fn shadow(&mut self, page: usize) -> &mut Shadow {
        let slot = (page / PAGE) % RECENT;
        let i = match self.recent[slot] {
            (p, i) if p == page && i < self.shadows.len() => i,
            _ => {
                let next = self.shadows.len();
                let i = *self.index.entry(page).or_insert(next);
                if i == next {
                    self.shadows.push(Shadow::new(page));
                }
                self.recent[slot] = (page, i);
                i
            }
        };
        &mut self.shadows[i]
    }

    fn record(&mut self, addr: usize, size: usize, pc: usize, write: bool) {
        if size == 0 || !self.shared(addr) {
            return;
        }
        let end = addr.saturating_add(size);
        let mut a = addr;
        while a < end {
            let page = a & !(PAGE - 1);
            let upto = end.min(page + PAGE);
            let s = self.shadow(page);
            let (bits, pcs) = if write {
                (&mut s.write, &mut s.write_pc)
            } else {
                (&mut s.read, &mut s.read_pc)
            };
            let (lo, hi) = (a - page, upto - page);
            // whole runs of bits per word: an access is a few bytes, mostly in one word
            let mut off = lo;
            while off < hi {
                let end = hi.min((off / 64 + 1) * 64);
                let n = end - off;
                let mask = if n == 64 {
                    !0
                } else {
                    ((1u64 << n) - 1) << (off % 64)
                };
                bits[off / 64] |= mask;
                off = end;
            }
            for pc_slot in &mut pcs[lo / 8..=(hi - 1) / 8] {
                if *pc_slot == 0 {
                    *pc_slot = pc;
                }
            }
            a = upto;
        }
    }

    fn finish_epoch(&mut self, epoch: u64) {
        self.index.clear();
        self.recent = [(usize::MAX, 0); RECENT];
        let pages = std::mem::take(&mut self.shadows);
        if !pages.is_empty() {
            self.done.push((epoch, pages));
        }
    }
}

/// An access of the program (from the hooks): `size` bytes at `addr` by the code at `pc`.
pub fn record(addr: usize, size: usize, pc: usize, write: bool) {
    RECORDER.with(|r| r.borrow_mut().record(addr, size, pc, write));
}

/// Whether this is a check build (the program registered its access hooks).
pub fn enabled() -> bool {
    check_flag::registered()
}

/// Turns the hooks on for a new recording period: accesses they passed on before are passed
/// on again (they belong to an earlier epoch or region).
fn start_period() {
    let period = RECORDER.with(|r| {
        let mut r = r.borrow_mut();
        r.period = r.period.checked_add(1).unwrap_or(1);
        r.period
    });
    check_flag::set(period);
}

/// A region starts on a rank of its team: record accesses to `ranges` (not `excluded`).
pub fn region_begin(ranges: Vec<(usize, usize)>, excluded: Vec<(usize, usize)>) {
    RECORDER.with(|r| {
        let mut r = r.borrow_mut();
        r.ranges = ranges;
        r.excluded = excluded;
        r.done.clear();
    });
    start_period();
}

/// A merge point: the epoch's accesses are complete (the runtime's own work is not recorded).
pub fn epoch_end(epoch: u64) {
    check_flag::set(0);
    RECORDER.with(|r| r.borrow_mut().finish_epoch(epoch));
}

/// The region goes on after a barrier.
pub fn epoch_resume() {
    if enabled() {
        start_period();
    }
}

/// Runs `f` unrecorded (user code the runtime calls: combiners of atomic updates).
pub fn paused<R>(f: impl FnOnce() -> R) -> R {
    let was = check_flag::get();
    check_flag::set(0);
    let r = f();
    check_flag::set(was);
    r
}

/// The kind of a conflict, in the order the two accesses have in the sequential program
/// (lower ranks run earlier iterations).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    WriteWrite,
    ReadWrite,
    WriteRead,
}

/// One conflicting byte range found in the gathered sets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conflict {
    pub epoch: u64,
    pub addr: usize,
    pub len: usize,
    pub kind: Kind,
    /// (first, second) rank: the writers, or (the earlier, the later) of reader and writer.
    pub ranks: (u32, u32),
}

/// This rank's finished epochs, as the bitmaps the ranks exchange.
fn encode_sets() -> Vec<u8> {
    RECORDER.with(|r| {
        let r = r.borrow();
        let mut out = Vec::new();
        for (epoch, pages) in &r.done {
            for s in pages {
                out.extend_from_slice(&epoch.to_le_bytes());
                out.extend_from_slice(&(s.page as u64).to_le_bytes());
                for w in s.read.iter().chain(s.write.iter()) {
                    out.extend_from_slice(&w.to_le_bytes());
                }
            }
        }
        out
    })
}

type Sets = BTreeMap<(u64, usize), Vec<(u32, [u64; WORDS], [u64; WORDS])>>;

fn decode_sets(all: &[Vec<u8>]) -> Sets {
    let mut sets: Sets = BTreeMap::new();
    let rec = 16 + 2 * WORDS * 8;
    for (rank, bytes) in all.iter().enumerate() {
        for chunk in bytes.chunks_exact(rec) {
            let word =
                |i: usize| u64::from_le_bytes(chunk[i * 8..i * 8 + 8].try_into().unwrap_or([0; 8]));
            let mut read = [0u64; WORDS];
            let mut write = [0u64; WORDS];
            for w in 0..WORDS {
                read[w] = word(2 + w);
                write[w] = word(2 + WORDS + w);
            }
            sets.entry((word(0), word(1) as usize))
                .or_default()
                .push((rank as u32, read, write));
        }
    }
    sets
}

/// The conflict at one byte, if any.
fn conflict_at(
    ranks: &[(u32, [u64; WORDS], [u64; WORDS])],
    off: usize,
) -> Option<(Kind, (u32, u32))> {
    let bit = |bits: &[u64; WORDS]| bits[off / 64] >> (off % 64) & 1 == 1;
    let writers: Vec<u32> = ranks.iter().filter(|r| bit(&r.2)).map(|r| r.0).collect();
    if writers.len() >= 2 {
        return Some((Kind::WriteWrite, (writers[0], writers[1])));
    }
    let &w = writers.first()?;
    let reader = ranks.iter().find(|r| r.0 != w && bit(&r.1))?.0;
    Some(if reader < w {
        (Kind::ReadWrite, (reader, w))
    } else {
        (Kind::WriteRead, (w, reader))
    })
}

/// Every conflict of the gathered sets, as runs of bytes with the same kind and ranks.
pub fn conflicts(all: &[Vec<u8>]) -> Vec<Conflict> {
    let mut out: Vec<Conflict> = Vec::new();
    for ((epoch, page), ranks) in decode_sets(all) {
        if ranks.len() < 2 {
            continue;
        }
        for w in 0..WORDS {
            let any_write = ranks.iter().fold(0u64, |a, r| a | r.2[w]);
            if any_write == 0 {
                continue;
            }
            for b in 0..64 {
                if any_write >> b & 1 == 0 {
                    continue;
                }
                let off = w * 64 + b;
                let Some((kind, pair)) = conflict_at(&ranks, off) else {
                    continue;
                };
                let addr = page + off;
                match out.last_mut() {
                    Some(c)
                        if c.epoch == epoch
                            && c.kind == kind
                            && c.ranks == pair
                            && c.addr + c.len == addr =>
                    {
                        c.len += 1
                    }
                    _ => out.push(Conflict {
                        epoch,
                        addr,
                        len: 1,
                        kind,
                        ranks: pair,
                    }),
                }
            }
        }
    }
    out
}

/// The first code addresses of this rank's (read, write) accesses to the granule of `addr` in
/// `epoch` (0: none).
fn pcs_at(epoch: u64, addr: usize) -> (usize, usize) {
    RECORDER.with(|r| {
        let r = r.borrow();
        let page = addr & !(PAGE - 1);
        r.done
            .iter()
            .filter(|(e, _)| *e == epoch)
            .flat_map(|(_, pages)| pages.iter())
            .find(|s| s.page == page)
            .map_or((0, 0), |s| {
                let g = (addr - page) / 8;
                (s.read_pc[g], s.write_pc[g])
            })
    })
}

/// This rank's code addresses for the reported conflicts, to gather.
pub fn encode_pcs(reported: &[Conflict]) -> Vec<u8> {
    let mut out = Vec::new();
    for c in reported {
        let (r, w) = pcs_at(c.epoch, c.addr);
        out.extend_from_slice(&(r as u64).to_le_bytes());
        out.extend_from_slice(&(w as u64).to_le_bytes());
    }
    out
}

/// What to gather at the region end (every rank, in and outside the team).
pub fn encode_region() -> Vec<u8> {
    check_flag::set(0);
    encode_sets()
}

/// Forgets the region's sets.
pub fn region_done() {
    RECORDER.with(|r| {
        let mut r = r.borrow_mut();
        r.done.clear();
        r.ranges.clear();
    });
}

/// The conflicts to report (the first few, one per object and kind).
pub fn to_report(mut all: Vec<Conflict>) -> (Vec<Conflict>, usize) {
    let total = all.len();
    all.dedup_by(|b, a| {
        a.epoch == b.epoch
            && a.kind == b.kind
            && crate::objects::name_of(a.addr).is_some()
            && crate::objects::name_of(a.addr) == crate::objects::name_of(b.addr)
    });
    all.truncate(MAX_REPORTS);
    (all, total)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sets(recs: &[(usize, usize, bool)]) -> Vec<u8> {
        let mut r = Recorder {
            ranges: vec![(0x10000, 0x20000)],
            ..Default::default()
        };
        for &(addr, size, write) in recs {
            r.record(addr, size, 0x400000 + addr, write);
        }
        r.record(0x5000, 8, 1, true); // not shared: ignored
        r.finish_epoch(0);
        RECORDER.with(|g| *g.borrow_mut() = r);
        encode_sets()
    }

    #[test]
    fn finds_write_write_read_write_and_write_read() {
        // rank 0 writes a[0..4) and reads a[4..8); rank 1 writes a[4..8) and a[8..12);
        // rank 2 reads a[8..12) and writes b, which rank 0 also writes
        let r0 = sets(&[
            (0x10000, 16, true),
            (0x10010, 16, false),
            (0x11000, 8, true),
        ]);
        let r1 = sets(&[(0x10010, 16, true), (0x10020, 8, true)]);
        let r2 = sets(&[(0x10020, 8, false), (0x11000, 8, true), (0x12000, 8, false)]);
        let found = conflicts(&[r0, r1, r2]);
        let kinds: Vec<(usize, usize, Kind, (u32, u32))> = found
            .iter()
            .map(|c| (c.addr, c.len, c.kind, c.ranks))
            .collect();
        assert_eq!(
            kinds,
            vec![
                (0x10010, 16, Kind::ReadWrite, (0, 1)),
                (0x10020, 8, Kind::WriteRead, (1, 2)),
                (0x11000, 8, Kind::WriteWrite, (0, 2)),
            ]
        );
        // read-read and one rank alone are no race
        let a = sets(&[(0x10000, 8, false), (0x10008, 8, true), (0x10008, 8, false)]);
        let b = sets(&[(0x10000, 8, false)]);
        assert!(conflicts(&[a, b]).is_empty());
    }

    #[test]
    fn remembers_first_code_address_per_granule() {
        let mut r = Recorder {
            ranges: vec![(0x10000, 0x20000)],
            ..Default::default()
        };
        r.record(0x10ffc, 8, 7, true); // crosses a page boundary
        r.record(0x10ffc, 4, 9, true);
        r.finish_epoch(3);
        RECORDER.with(|g| *g.borrow_mut() = r);
        assert_eq!(pcs_at(3, 0x10ffc), (0, 7));
        assert_eq!(pcs_at(3, 0x11000), (0, 7));
        assert_eq!(pcs_at(2, 0x11000), (0, 0));
    }
}
