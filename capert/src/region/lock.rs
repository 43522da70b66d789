//! Cross-rank locks: a `critical` section whose body is any code, and an OpenMP lock set and
//! unset around any code inside a region. The lock is a ticket lock on world rank 0
//! (`sys/mpi_lock.rs`). The acquirer first writes into its memory the bytes written under the
//! lock since it last read the lock's log (the previous holders' sections of this epoch),
//! runs the section, and appends the bytes the section wrote (the compiler reports each
//! store's address through `__cape_critical_store`; the values are read at the exit) to the
//! log before passing the lock on. Those bytes are excluded from the rank's diff; each
//! section also travels in the merge message as a record with its ticket, and every rank
//! writes the sections of every rank per lock in ticket order after the merge: the join gives
//! the sequential answer of the order in which the ranks took the lock.
//!
//! A log entry is the address (u64), the length (u64) and the bytes, padded to 8.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::epoch::shared_ranges;
use super::records::Record;
use super::State;
use crate::runtime::Runtime;
use crate::sys::mpi_lock::{self, LOCK_SLOTS};
use crate::sys::raw::SameProgram;

/// Checkpointing and the sections' heap do not go together.
pub(super) const ALLOC_LOGGED: &str =
    "`malloc` inside a critical section (or lock pair) is not supported with \
     CAPE_CHECKPOINT/CAPE_RESTART: allocate the blocks before the region";

/// The heap of the sections (`malloc` under a cross-rank lock): an arena block reserved at
/// start-up on every rank. Its header holds, per lock slot, the free part of the slot's
/// current chunk (start, end); a slot takes chunks of `CHUNK` bytes from a counter on rank 0
/// (sections of different locks allocate at once). An allocation is a store of the section
/// like the program's own, so the next holder allocates after it, and after the join the
/// blocks are at the same address with the same bytes on every rank. Never freed (`free` of
/// such a block does nothing).
static HEAP_BASE: AtomicUsize = AtomicUsize::new(0);
static HEAP_LEN: AtomicUsize = AtomicUsize::new(0);
const CHUNK: usize = 64 << 10;
/// The header: (start, end) per slot, rounded up to a chunk.
const HEADER: usize = (LOCK_SLOTS * 16).next_multiple_of(CHUNK);

/// At start-up, on every rank alike, when the program has cross-rank locks.
pub fn reserve_heap(rt: &mut Runtime) -> Result<(), String> {
    if !mpi_lock::WANTED.load(Ordering::Relaxed) {
        return Ok(());
    }
    let len = rt.cfg.critical_heap.max(HEADER + CHUNK);
    let block = rt.arena.alloc(len, CHUNK)?;
    let base = block.as_ptr() as usize;
    rt.same_program
        .object(base, LOCK_SLOTS * 16)
        .write(&vec![0; LOCK_SLOTS * 16]);
    HEAP_BASE.store(base, Ordering::Relaxed);
    HEAP_LEN.store(len, Ordering::Relaxed);
    Ok(())
}

/// Whether `addr` is in the sections' heap.
pub fn in_section_heap(addr: usize) -> bool {
    let base = HEAP_BASE.load(Ordering::Relaxed);
    base != 0 && addr >= base && addr < base + HEAP_LEN.load(Ordering::Relaxed)
}

/// `malloc` inside a section under a cross-rank lock: a block of the sections' heap (None
/// outside such a section).
pub fn section_alloc(s: &mut State, size: usize) -> Result<Option<usize>, String> {
    let Some(slot) = s
        .team
        .region
        .as_ref()
        .and_then(|r| r.locks.held.last())
        .map(|h| h.slot)
    else {
        return Ok(None);
    };
    let Some(rt) = s.rt.as_ref() else {
        return Ok(None);
    };
    if HEAP_BASE.load(Ordering::Relaxed) == 0 {
        return Ok(None);
    }
    if rt.ft.is_some() {
        // the chunk counter on rank 0 is not in the checkpoint log
        return Err(ALLOC_LOGGED.into());
    }
    let Some((block, header)) = alloc_in_slot(rt.same_program, slot, size)? else {
        return Ok(None);
    };
    store(s, header.0, header.1);
    Ok(Some(block))
}

/// A block of the sections' heap: its address, and the (address, length) of the heap header's
/// bytes the allocation changed (a store of the section).
pub(super) type SectionBlock = (usize, (usize, usize));

/// A block of `size` bytes of the sections' heap for a section of lock `slot` (whose holder
/// calls). None when there is no such heap.
pub(super) fn alloc_in_slot(
    program: SameProgram,
    slot: usize,
    size: usize,
) -> Result<Option<SectionBlock>, String> {
    let base = HEAP_BASE.load(Ordering::Relaxed);
    if base == 0 {
        return Ok(None);
    }
    let len = HEAP_LEN.load(Ordering::Relaxed);
    let word = program.object(base + slot * 16, 16);
    let bounds = word.read();
    let get = |i: usize| -> usize {
        let b: [u8; 8] = bounds
            .get(i * 8..i * 8 + 8)
            .and_then(|b| b.try_into().ok())
            .unwrap_or([0; 8]);
        u64::from_le_bytes(b) as usize
    };
    let size = size.max(1).next_multiple_of(16);
    let (mut start, mut end) = (get(0), get(1));
    if start + size > end || start == 0 {
        let chunks = size.div_ceil(CHUNK) as u64;
        let first = mpi_lock::take_chunks(chunks).ok_or("internal error: no lock window")?;
        start = base + HEADER + first as usize * CHUNK;
        end = start + chunks as usize * CHUNK;
        if end > base + len {
            return Err(format!(
                "the blocks allocated inside critical sections (or lock pairs) use up their \
                 heap of {len} bytes: set CAPE_CRITICAL_HEAP to a larger size"
            ));
        }
    }
    let mut new_bounds = ((start + size) as u64).to_le_bytes().to_vec();
    new_bounds.extend_from_slice(&(end as u64).to_le_bytes());
    word.write(&new_bounds);
    Ok(Some((start, (base + slot * 16, 16))))
}

/// One lock this rank holds.
#[derive(Debug)]
struct Held {
    slot: usize,
    ticket: u64,
    /// nesting: a nest lock set again, or a critical inside a section of the same slot
    depth: u32,
    /// the log's length when the lock was taken (nobody appends while we hold it)
    log_len: usize,
    /// the shared ranges when the lock was taken (stores elsewhere are private)
    shared: Vec<(usize, usize)>,
    /// (address, length) of the stores of the section
    stores: Vec<(usize, usize)>,
}

/// The locks of the current epoch on this rank.
#[derive(Debug, Default)]
pub(super) struct EpochLocks {
    held: Vec<Held>,
    /// per slot: the log bytes already written into this rank's memory
    seen: HashMap<usize, usize>,
    /// the check build's recording period before the outermost lock was taken (sections
    /// are not races: their accesses are not recorded)
    check_period: std::ffi::c_int,
}

/// The slot of a critical section's name or of a lock's address.
pub fn slot_of_name(name: &[u8]) -> usize {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in name {
        h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
    }
    (h % LOCK_SLOTS as u64) as usize
}

pub fn slot_of_address(addr: usize) -> usize {
    slot_of_name(&addr.to_le_bytes())
}

/// Whether locks must be taken across ranks: inside an active region's team.
fn cross_rank(s: &State) -> bool {
    s.team.levels.iter().any(|l| l.active) && s.team.region.as_ref().is_some_and(|r| r.in_team)
}

/// Takes lock `slot` (returns false when no cross-rank lock is needed: outside active regions).
pub fn enter(s: &mut State, slot: usize) -> Result<bool, String> {
    if !cross_rank(s) {
        return Ok(false);
    }
    let (Some(rt), Some(r)) = (s.rt.as_mut(), s.team.region.as_mut()) else {
        return Ok(false);
    };
    if let Some(h) = r.locks.held.iter_mut().find(|h| h.slot == slot) {
        h.depth += 1;
        return Ok(true);
    }
    let (ticket, log_len) = mpi_lock::acquire(slot).ok_or_else(|| {
        "internal error: a cross-rank lock without its window (the program did not register \
         its critical sections)"
            .to_string()
    })?;
    let from = r.locks.seen.get(&slot).copied().unwrap_or(0);
    let log = mpi_lock::read_log(slot, from, log_len)?;
    apply_log(rt.same_program, &log, &mut r.excluded)?;
    r.locks.seen.insert(slot, log_len);
    let mut shared = shared_ranges(rt, r.sp);
    shared.extend_from_slice(super::tasks::targets(&s.team.spread, s.team.levels.len()));
    if r.locks.held.is_empty() {
        r.locks.check_period = crate::sys::check_flag::get();
        crate::sys::check_flag::set(0);
    }
    r.locks.held.push(Held {
        slot,
        ticket,
        depth: 1,
        log_len,
        shared,
        stores: Vec::new(),
    });
    Ok(true)
}

/// Writes the log entries of other holders into memory; their bytes leave the diff (every
/// rank writes the final values after the merge from the sections' records).
pub(super) fn apply_log(
    program: SameProgram,
    mut log: &[u8],
    excluded: &mut Vec<(usize, usize)>,
) -> Result<(), String> {
    let word = |b: &[u8]| -> Option<usize> {
        Some(u64::from_le_bytes(b.get(..8)?.try_into().ok()?) as usize)
    };
    while !log.is_empty() {
        let (Some(addr), Some(len)) = (word(log), log.get(8..).and_then(word)) else {
            return Err("internal error: a malformed lock log".into());
        };
        let bytes = log
            .get(16..16 + len)
            .ok_or("internal error: a truncated lock log")?;
        program.object(addr, len).write(bytes);
        excluded.push((addr, addr + len));
        log = log.get(16 + len.next_multiple_of(8)..).unwrap_or(&[]);
    }
    Ok(())
}

/// Whether this rank holds lock `slot` across ranks.
pub fn holds(s: &State, slot: usize) -> bool {
    cross_rank(s)
        && s.team
            .region
            .as_ref()
            .is_some_and(|r| r.locks.held.iter().any(|h| h.slot == slot))
}

/// A nest lock set (`delta` 1) or unset (-1) again inside a section of it on this rank: the
/// depth after the change, or None when this rank does not hold it across ranks.
pub fn nest(s: &mut State, slot: usize, delta: i32) -> Result<Option<u32>, String> {
    if !cross_rank(s) {
        return Ok(None);
    }
    let Some(r) = s.team.region.as_mut() else {
        return Ok(None);
    };
    let Some(h) = r.locks.held.iter_mut().find(|h| h.slot == slot) else {
        return Ok(None);
    };
    if delta > 0 {
        h.depth += 1;
        return Ok(Some(h.depth));
    }
    if h.depth > 1 {
        h.depth -= 1;
        return Ok(Some(h.depth));
    }
    exit(s, slot)?;
    Ok(Some(0))
}

/// A store of the program inside a section: `[addr, addr + len)` goes with the lock(s) held.
pub fn store(s: &mut State, addr: usize, len: usize) {
    let Some(r) = s.team.region.as_mut() else {
        return;
    };
    for h in &mut r.locks.held {
        if h.shared
            .iter()
            .any(|&(lo, hi)| addr >= lo && addr + len <= hi)
        {
            h.stores.push((addr, len));
        }
    }
}

/// Releases lock `slot`: the section's bytes go into the log and into a merge record.
pub fn exit(s: &mut State, slot: usize) -> Result<(), String> {
    let (Some(rt), Some(r)) = (s.rt.as_mut(), s.team.region.as_mut()) else {
        return Ok(());
    };
    let Some(at) = r.locks.held.iter().rposition(|h| h.slot == slot) else {
        return Err("a critical section or lock released that this thread does not hold".into());
    };
    if let Some(h) = r.locks.held.get_mut(at) {
        h.depth -= 1;
        if h.depth > 0 {
            return Ok(());
        }
    }
    let h = r.locks.held.remove(at);
    if r.locks.held.is_empty() {
        crate::sys::check_flag::set(r.locks.check_period);
    }
    let (entries, written) = section_bytes(rt.same_program, h.stores, &mut r.excluded);
    mpi_lock::release(slot, h.log_len, &entries)?;
    r.locks.seen.insert(slot, h.log_len + entries.len());
    r.records.push(Record::Section {
        slot,
        seq: h.ticket,
        runs: written,
    });
    Ok(())
}

/// The bytes a section wrote (its stores, coalesced, read now): as log entries and as the runs
/// of its merge record; they leave the rank's diff (`excluded`).
pub(super) fn section_bytes(
    program: SameProgram,
    stores: Vec<(usize, usize)>,
    excluded: &mut Vec<(usize, usize)>,
) -> (Vec<u8>, Vec<(usize, Vec<u8>)>) {
    let runs = coalesce(stores);
    let mut entries = Vec::new();
    let mut written = Vec::with_capacity(runs.len());
    for (addr, len) in runs {
        let bytes = program.object(addr, len).read();
        entries.extend_from_slice(&(addr as u64).to_le_bytes());
        entries.extend_from_slice(&(len as u64).to_le_bytes());
        entries.extend_from_slice(&bytes);
        entries.resize(entries.len().next_multiple_of(8), 0);
        excluded.push((addr, addr + len));
        written.push((addr, bytes));
    }
    (entries, written)
}

/// Sorted, overlapping and adjacent runs joined.
fn coalesce(mut runs: Vec<(usize, usize)>) -> Vec<(usize, usize)> {
    runs.sort_unstable();
    let mut out: Vec<(usize, usize)> = Vec::with_capacity(runs.len());
    for (addr, len) in runs {
        match out.last_mut() {
            Some((a, l)) if addr <= *a + *l => *l = (*l).max(addr + len - *a),
            _ => out.push((addr, len)),
        }
    }
    out
}

/// After a merge point whose records held locks `slots`: their tickets and logs start again
/// (rank 0 empties them, then the team synchronises so nobody takes a ticket before).
pub(super) fn after_merge(rt: &Runtime, team_size: u32, slots: &[usize]) {
    if rt.rank == 0 {
        mpi_lock::reset(slots);
    }
    if let Some(comm) = rt.comm.as_ref() {
        comm.team_barrier(team_size);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_coalesce() {
        assert_eq!(
            coalesce(vec![(16, 8), (0, 4), (2, 4), (8, 8), (40, 1)]),
            vec![(0, 6), (8, 16), (40, 1)]
        );
        assert!(coalesce(Vec::new()).is_empty());
    }

    #[test]
    fn slots_spread() {
        let a = slot_of_name(b"");
        assert!(a < LOCK_SLOTS);
        let distinct: std::collections::HashSet<usize> = (0..64)
            .map(|i| slot_of_name(format!("name{i}").as_bytes()))
            .collect();
        assert!(distinct.len() > 30);
    }
}
