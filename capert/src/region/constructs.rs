//! Constructs inside a region: barrier, single, master/masked, copyprivate, reductions,
//! atomic updates and `atomic capture`.

use super::epoch::{merge_point, shared_ranges};
use super::records::Record;
use super::team::{omp_thread_num, team, worksharing_end};
use crate::runtime;
use crate::sys::mpi::CAPTURE_SLOTS;
use crate::sys::raw::{combine, read_memory, write_memory};

/// `__cape_barrier`: a merge point of the innermost active region (no-op in a team of one).
pub fn barrier() -> Result<(), String> {
    let region = {
        let mut t = team();
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
        t.region.take()
    };
    let Some(mut r) = region else {
        return Ok(());
    };
    let result = runtime::with(|rt| merge_point(rt, &mut r, false)).unwrap_or(Ok(()));
    team().region = Some(r);
    result
}

/// `__cape_single_begin`: thread 0 of the team runs the block.
pub fn single_begin() -> bool {
    let t = team();
    let runs = t.levels.last().is_none_or(|l| l.thread_num == 0);
    if runs && t.levels.last().is_some_and(|l| l.active) {
        crate::region_heap::block_begin(t.levels.len());
    }
    runs
}

/// `__cape_single_end`, before its barrier.
pub fn single_end() {
    worksharing_end();
    crate::region_heap::block_end(team().levels.len());
}

/// `__cape_master_begin`: this thread runs a `master`/`masked` block with this filter.
pub fn master_begin(filter: i32) -> bool {
    let runs = omp_thread_num() == filter;
    let t = team();
    if runs && t.levels.last().is_some_and(|l| l.active) {
        crate::region_heap::block_begin(t.levels.len());
    }
    runs
}

/// `__cape_master_end`: the thread that ran the block leaves it.
pub fn master_end() {
    crate::region_heap::block_end(team().levels.len());
}

/// `__cape_copyprivate`: team rank 0's `size` bytes at `addr` on every rank of the team.
pub fn copyprivate(addr: usize, size: usize) {
    let team_size = {
        let t = team();
        match t.levels.last() {
            Some(l) if l.active => l.team_size,
            _ => return,
        }
    };
    let mut bytes = read_memory(addr, size);
    runtime::with(|rt| {
        if let Some(comm) = rt.comm.as_ref() {
            comm.broadcast_in_team(team_size, &mut bytes);
        }
    });
    write_memory(addr, &bytes);
}

/// `__cape_reduce`: inside an active region record it; otherwise (a team of one) combine now.
pub fn reduce(shared: usize, combiner: usize, partial: Vec<u8>) {
    let mut t = team();
    let active = t.levels.last().is_some_and(|l| l.active);
    match t.region.as_mut() {
        Some(r) if active => {
            r.excluded.push((shared, shared + partial.len()));
            r.records.push(Record::Combine {
                target: shared,
                combiner,
                operand: partial,
            });
        }
        _ => {
            drop(t);
            combine(shared, &partial, combiner);
        }
    }
}

/// `[addr, addr + len)` is shared memory of an active region in progress (so updates of it are
/// merged, not just applied).
fn is_shared_in_active_region(addr: usize, len: usize) -> bool {
    let sp = {
        let t = team();
        match (t.levels.iter().any(|l| l.active), t.region.as_ref()) {
            (true, Some(r)) => Some(r.sp),
            _ => None,
        }
    };
    sp.is_some_and(|sp| {
        runtime::with(|rt| {
            shared_ranges(rt, sp)
                .iter()
                .any(|&(s, e)| addr >= s && addr + len <= e)
        })
        .unwrap_or(false)
    })
}

/// `__cape_atomic_update`: applied now; inside an active region on shared memory also logged
/// for the next merge point (see the module documentation).
pub fn atomic_update(addr: usize, combiner: usize, operand: Vec<u8>) {
    if is_shared_in_active_region(addr, operand.len()) {
        let mut t = team();
        if let Some(r) = t.region.as_mut() {
            if let std::collections::hash_map::Entry::Vacant(slot) = r.before.entry(addr) {
                slot.insert(read_memory(addr, operand.len()));
                r.excluded.push((addr, addr + operand.len()));
            }
            r.records.push(Record::Combine {
                target: addr,
                combiner,
                operand: operand.clone(),
            });
        }
    }
    combine(addr, &operand, combiner);
}

/// `__cape_atomic_fetch_add` (`atomic capture` of `x += delta` and its forms): the value of
/// `x` when the epoch started (`size` bytes) and the sum of every delta other updates of `x`
/// took before this one, from any rank (an MPI fetch-and-add on rank 0). The update itself is
/// then applied and logged as an ordinary atomic update. Outside an active region, or on
/// private memory: the current value and 0.
pub fn capture_fetch_add(addr: usize, size: usize, delta: i64) -> Result<(Vec<u8>, i64), String> {
    if !is_shared_in_active_region(addr, size) {
        return Ok((read_memory(addr, size), 0));
    }
    let x0 = {
        let mut t = team();
        let Some(r) = t.region.as_mut() else {
            return Ok((read_memory(addr, size), 0));
        };
        if r.captured.insert(addr) {
            // a capture record tells every rank which cells to empty at the merge
            r.records.push(Record::Capture { target: addr });
        }
        r.before
            .get(&addr)
            .cloned()
            .unwrap_or_else(|| read_memory(addr, size))
    };
    let earlier = runtime::with(|rt| {
        rt.comm
            .as_ref()
            .map_or(0, |c| c.capture_fetch_add(addr % CAPTURE_SLOTS, delta))
    })
    .unwrap_or(0);
    Ok((x0, earlier))
}
