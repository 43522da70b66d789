//! Constructs inside a region: barrier, single, master/masked, copyprivate, reductions,
//! atomic updates and `atomic capture`.
//!
//! Reduction and atomic combiners are user code: the functions here only record them; the
//! FFI layer runs them after releasing the state.

use super::epoch::{merge_point, shared_ranges};
use super::records::Record;
use super::State;
use crate::sys::mpi::CAPTURE_SLOTS;
use crate::sys::raw::{Combiner, ProgramBytes};

/// `__cape_barrier`: a merge point of the innermost active region (no-op in a team of one).
pub fn barrier(s: &mut State) -> Result<(), String> {
    {
        let t = &mut s.team;
        if !t.levels.last().is_some_and(|l| l.active) {
            return Ok(());
        }
        if t.worksharing == Some(t.levels.len()) {
            return Err(
                "a barrier ran inside a worksharing construct (`for`, `sections` or `single`), \
                 which OpenMP forbids: not every thread reaches it; move it out of the construct"
                    .to_string(),
            );
        }
    }
    merge_now(s)
}

/// A merge point of the innermost active region, reached by every thread of its team.
pub fn merge_now(s: &mut State) -> Result<(), String> {
    let Some(mut r) = s.team.region.take() else {
        return Ok(());
    };
    let result = match s.rt.as_mut() {
        Some(rt) => merge_point(rt, &s.threadprivates, &mut r, false),
        None => Ok(()),
    };
    s.team.region = Some(r);
    result
}

/// `__cape_single_begin`: thread 0 of the team runs the block.
pub fn single_begin(s: &State) -> bool {
    let t = &s.team;
    let runs = t.levels.last().is_none_or(|l| l.thread_num == 0);
    if runs && t.levels.last().is_some_and(|l| l.active) && owns_heap_blocks() {
        crate::region_heap::block_begin(t.levels.len());
    }
    runs
}

/// `__cape_single_end`, before its barrier.
pub fn single_end(s: &mut State) {
    super::tasks::single_end(s);
    s.team.worksharing_end();
    if owns_heap_blocks() {
        crate::region_heap::block_end(s.team.levels.len());
    }
}

/// The arena's owner of a `single`/`master` block is a rank's thread 0: the other threads of
/// a rank (region/threads.rs) allocate from libc and must not end the block of their thread 0.
fn owns_heap_blocks() -> bool {
    !super::threads::is_worker()
}

/// `__cape_master_begin`: this thread runs a `master`/`masked` block with this filter.
pub fn master_begin(s: &State, filter: i32) -> bool {
    let t = &s.team;
    let runs = t.omp_thread_num() == filter;
    // also when a worker runs it: its heap calls are made by its rank's thread 0, in the arena
    if runs && t.levels.last().is_some_and(|l| l.active) {
        crate::region_heap::block_begin(t.levels.len());
    }
    runs
}

/// `__cape_master_end`: the thread that ran the block leaves it.
pub fn master_end(s: &State) {
    crate::region_heap::block_end(s.team.levels.len());
}

/// `__cape_copyprivate`: team rank 0's value of `var` on every rank of the team.
pub fn copyprivate(s: &State, var: ProgramBytes) {
    let team_size = match s.team.levels.last() {
        Some(l) if l.active => l.ranks,
        _ => return,
    };
    let mut bytes = var.read();
    if let Some(comm) = s.rt.as_ref().and_then(|rt| rt.comm.as_ref()) {
        comm.broadcast_in_team(team_size, &mut bytes);
    }
    var.write(&bytes);
}

/// `__cape_reduce`: inside an active region record it (and return None); otherwise (a team
/// of one) return the partial value for the caller to combine now.
pub fn reduce(
    s: &mut State,
    shared: ProgramBytes,
    combiner: Combiner,
    partial: Vec<u8>,
) -> Option<Vec<u8>> {
    let t = &mut s.team;
    let active = t.levels.last().is_some_and(|l| l.active);
    match t.region.as_mut() {
        Some(r) if active => {
            let at = shared.addr();
            r.excluded.push((at, at + partial.len()));
            r.records.push(Record::Combine {
                target: at,
                combiner: combiner.address(),
                operand: partial,
            });
            None
        }
        _ => Some(partial),
    }
}

/// `[addr, addr + len)` is shared memory of an active region in progress (so updates of it are
/// merged, not just applied).
pub(super) fn is_shared_in_active_region(s: &State, addr: usize, len: usize) -> bool {
    within(&active_shared_ranges(s), addr, len)
}

/// Whether `len` bytes at `addr` lie inside one of `ranges` (`[lo, hi)` each).
pub(super) fn within(ranges: &[(usize, usize)], addr: usize, len: usize) -> bool {
    ranges
        .iter()
        .any(|&(lo, hi)| addr >= lo && addr + len <= hi)
}

/// The shared memory of the active region between ranks (empty without one), with the locals
/// of generating code a spread task updates.
pub(super) fn active_shared_ranges(s: &State) -> Vec<(usize, usize)> {
    let t = &s.team;
    match (
        t.levels.iter().any(|l| l.active),
        t.region.as_ref(),
        s.rt.as_ref(),
    ) {
        (true, Some(r), Some(rt)) => {
            let mut ranges = shared_ranges(rt, r.sp);
            ranges.extend_from_slice(super::tasks::update_targets(s));
            ranges
        }
        _ => Vec::new(),
    }
}

/// `__cape_atomic_update`, before the caller applies it: inside an active region on shared
/// memory it is also logged for the next merge point (see the module documentation).
/// With `folds` (see `__cape_atomic_update_folding`) an update is combined into the latest
/// record of the same variable and combiner (`EpochRecords::fold`).
pub fn atomic_update(
    s: &mut State,
    target: ProgramBytes,
    combiner: Combiner,
    operand: &[u8],
    folds: bool,
) {
    let addr = target.addr();
    if is_shared_in_active_region(s, addr, operand.len()) {
        if let Some(r) = s.team.region.as_mut() {
            if let std::collections::hash_map::Entry::Vacant(slot) = r.before.entry(addr) {
                slot.insert(target.read());
                r.excluded.push((addr, addr + operand.len()));
            }
            if !folds {
                r.records.push(Record::Combine {
                    target: addr,
                    combiner: combiner.address(),
                    operand: operand.to_vec(),
                });
            } else if !r.records.fold(addr, combiner, operand) {
                r.records.push_folding(addr, combiner, operand);
            }
        }
    }
}

/// `__cape_atomic_fetch_add` (`atomic capture` of `x += delta` and its forms): the value of
/// `x` when the epoch started and the sum of every delta other updates of `x`
/// took before this one, from any rank (an MPI fetch-and-add on rank 0). The update itself is
/// then applied and logged as an ordinary atomic update. Outside an active region, or on
/// private memory: the current value and 0.
pub fn capture_fetch_add(
    s: &mut State,
    x: ProgramBytes,
    delta: i64,
) -> Result<(Vec<u8>, i64), String> {
    let addr = x.addr();
    if !is_shared_in_active_region(s, addr, x.len()) {
        return Ok((x.read(), 0));
    }
    let x0 = {
        let Some(r) = s.team.region.as_mut() else {
            return Ok((x.read(), 0));
        };
        if r.captured.insert(addr) {
            // a capture record tells every rank which cells to empty at the merge
            r.records.push(Record::Capture { target: addr });
        }
        r.before.get(&addr).cloned().unwrap_or_else(|| x.read())
    };
    let earlier =
        s.rt.as_ref()
            .and_then(|rt| rt.comm.as_ref())
            .map_or(0, |c| c.capture_fetch_add(addr % CAPTURE_SLOTS, delta));
    Ok((x0, earlier))
}
