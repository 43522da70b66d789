//! One epoch of an active region on a team rank: track -> diff -> exchange -> merge -> inject.
//!
//! Stamps are `(epoch << EPOCH_SHIFT | 1 + the largest iteration this rank ran in the epoch,
//! rank)`, so that overlapping writes resolve as sequential execution would.

use super::memory::{Memory, Program};
use super::records::{self, capture_slots, Applied, Record, BLOCK_BASE};
use super::threadprivate::Threadprivates;
use super::ActiveRegion;
use crate::allreduce::allreduce;
use crate::diff::diff_into;
use crate::merge::merge;
use crate::runtime::{self, Runtime};
use crate::sys::raw::SameProgram;
use crate::tickpt::{Stamp, Tickpt};
use crate::track::PAGE_SIZE;
use std::collections::HashMap;
use std::time::Instant;

/// Stamp orders: `epoch << EPOCH_SHIFT | order within the epoch`.
pub(super) const EPOCH_SHIFT: u32 = 40;
const ORDER_MASK: u64 = (1 << EPOCH_SHIFT) - 1;

/// Tracks the user stack down to the page holding `sp` and the arena claimed so far.
pub(super) fn track_new_memory(rt: &mut Runtime, sp: usize) -> Result<(), String> {
    let sp_page = sp & !(PAGE_SIZE - 1);
    if sp_page >= rt.stack_lo && sp_page < rt.stack_tracked_lo {
        rt.tracker
            .add_range(sp_page, rt.stack_tracked_lo - sp_page)
            .map_err(|e| e.to_string())?;
        rt.stack_tracked_lo = sp_page;
    }
    if let Some((start, len)) = rt.arena.take_untracked() {
        rt.tracker
            .add_range(start, len)
            .map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// Ends the tracking of an epoch whose writes are not diffed here (a rank outside the team,
/// a replayed region): the twins take the written pages as they are.
pub(super) fn end_tracking_unchanged(rt: &mut Runtime) -> Result<(), String> {
    let mut written = Vec::new();
    rt.tracker
        .end_region(&mut written)
        .map_err(|e| e.to_string())?;
    rt.tracker.commit(&written);
    rt.tracker.finish_region();
    Ok(())
}

/// Diffs the written pages against their twins inside `ranges` minus `excluded` (sorted) into
/// `out`; returns the bytes compared.
pub(super) fn diff_written(
    rt: &Runtime,
    written: &[usize],
    ranges: &[(usize, usize)],
    excluded: &[(usize, usize)],
    stamp: Stamp,
    out: &mut Tickpt,
) -> u64 {
    let mut pieces = Vec::new();
    let mut diffed = 0u64;
    for &page in written {
        let page_end = page + PAGE_SIZE;
        let mem = rt.tracker.memory(page);
        let twin = rt.tracker.twin(page);
        for &(s, e) in ranges {
            let (lo, hi) = (s.max(page), e.min(page_end));
            if lo >= hi {
                continue;
            }
            pieces.clear();
            subtract(lo, hi, excluded, &mut pieces);
            for &(a, b) in &pieces {
                let (i, j) = (a - page, b - page);
                diff_into(&mem[i..j], &twin[i..j], a as u64, stamp, out);
                diffed += (b - a) as u64;
            }
        }
    }
    diffed
}

/// The byte ranges of shared memory, ascending: user globals, the whole used arena (a
/// `single`/`master` block may have grown the heap) and the user stack above `sp`. The arena
/// is our own fixed mapping for application data only, so this admits no runtime or library
/// memory; a logged region's payload must lie inside these ranges.
pub(super) fn shared_ranges(rt: &Runtime, sp: usize) -> Vec<(usize, usize)> {
    let mut ranges = rt.globals.clone();
    ranges.push(rt.arena.used_range());
    if sp >= rt.stack_lo && sp < rt.stack_top {
        ranges.push((sp, rt.stack_top));
    }
    ranges.retain(|&(s, e)| e > s);
    ranges.sort_unstable();
    ranges
}

/// `[lo, hi)` minus the excluded ranges (sorted), as ascending pieces.
pub(super) fn subtract(
    lo: usize,
    hi: usize,
    excluded: &[(usize, usize)],
    out: &mut Vec<(usize, usize)>,
) {
    let mut cur = lo;
    for &(s, e) in excluded {
        if e <= cur || s >= hi {
            continue;
        }
        if s > cur {
            out.push((cur, s));
        }
        cur = cur.max(e);
        if cur >= hi {
            return;
        }
    }
    if cur < hi {
        out.push((cur, hi));
    }
}

/// The merge message id of an epoch: ranks in different epochs must never pair up.
fn message_id(region_no: u64, epoch: u64) -> u64 {
    region_no << 24 | (epoch & 0xff_ffff)
}

/// Ends the current epoch of `r` on a rank of its team: diff, one allreduce over the team,
/// inject, apply every rank's reduction/atomic records. Unless `last`, tracking restarts so
/// that the next epoch diffs against the merged state.
pub(super) fn merge_point(
    rt: &mut Runtime,
    threadprivates: &Threadprivates,
    r: &mut ActiveRegion,
    last: bool,
) -> Result<(), String> {
    let t0 = Instant::now();
    let mut written = Vec::new();
    rt.tracker
        .end_region(&mut written)
        .map_err(|e| e.to_string())?;
    let t1 = Instant::now();

    let me = rt.rank as u32;
    let order = r
        .max_iter
        .map_or(0, |m| m.saturating_add(1).min(ORDER_MASK));
    let stamp = Stamp {
        order: r.epoch << EPOCH_SHIFT | order,
        rank: me,
    };
    let ranges = shared_ranges(rt, r.sp);
    let mut excluded = std::mem::take(&mut r.excluded);
    excluded.extend(threadprivates.ranges());
    excluded.sort_unstable();
    let id = message_id(rt.region_no, r.epoch);
    let mut local = Tickpt::new(id);
    let mut diffed = diff_written(rt, &written, &ranges, &excluded, stamp, &mut local);
    // arena pages this rank claimed in a `single`/`master` block: not tracked yet
    diffed += crate::region_heap::diff_fresh_pages(rt, stamp, &mut local);
    rt.current.pages_written += written.len() as u64;
    rt.current.bytes_diffed += diffed;
    rt.current.runs_local += local.run_count() as u64;
    rt.current.bytes_local += local.data_bytes() as u64;
    let printed = rt.io.take_printed();
    if !printed.is_empty() {
        r.records.push(Record::Output(printed));
    }
    if crate::region_heap::take_epoch_use() {
        r.records.push(Record::HeapUse);
    }
    records::attach(&mut local, me, &r.records);
    rt.tracker.commit(&written);
    rt.tracker.finish_region();
    let t2 = Instant::now();

    let check = rt.cfg.check_races;
    let comm = rt
        .comm
        .as_mut()
        .ok_or_else(|| "internal error: a parallel region without MPI".to_string())?;
    let sent_before = comm.bytes_sent;
    let mut link = comm
        .link(r.team_size)
        .ok_or_else(|| "internal error: no team communicator for a team rank".to_string())?;
    let merged = allreduce(
        &mut link,
        local,
        if check { Some(&mut r.races) } else { None },
    )
    .map_err(|e| e.to_string())?;
    rt.current.bytes_sent += comm.bytes_sent - sent_before;
    let t3 = Instant::now();

    // Memory runs first (other ranks' bytes), then the record blocks in rank order.
    let others = merged
        .runs()
        .filter(|run| run.addr < BLOCK_BASE && run.stamp.rank != me);
    rt.tracker
        .expect_injections(others.map(|run| (run.addr as usize, run.bytes.len())));
    rt.current.bytes_injected += inject_others(&mut Program(rt), me, &merged);
    // before the records' combiners write: their writes must be seen by the next scan
    rt.tracker.protect_injected();
    let t4 = Instant::now();
    let mut applied = apply_records(&mut Program(rt), &merged, &r.before);
    if applied.heap_users.len() > 1 {
        runtime::fatal_at_merge(
            rt.rank,
            &crate::region_heap::several_users(&applied.heap_users),
        );
    }
    // the arena pages claimed in the epoch (by the rank that allocated) are now the same
    // everywhere: track them from here on
    track_new_memory(rt, r.sp)?;
    if rt.rank == 0 {
        rt.io.print_for_others(&applied.printed);
    }
    if !applied.captured.is_empty() {
        // every rank of the team saw the same records, so every one of them gets here
        let slots = capture_slots(&mut applied.captured)?;
        if let Some(comm) = rt.comm.as_ref() {
            comm.capture_reset(r.team_size, &slots);
        }
    }
    let t5 = Instant::now();

    let world = rt.size;
    if rt.rank == 0 && ((r.team_size as usize) < world || r.logged.is_some() || r.collect) {
        accumulate(r, &merged, &mut applied.targets, id, rt.same_program);
    }
    rt.current.t_track += t1 - t0;
    rt.current.t_diff += t2 - t1;
    rt.current.t_merge += t3 - t2;
    rt.current.t_inject += t4 - t3;
    rt.current.t_reduce += t5 - t4;
    if !last {
        rt.tracker.begin_region().map_err(|e| e.to_string())?;
        r.next_epoch();
    }
    Ok(())
}

/// Writes the merged memory runs of the other ranks; returns the bytes written.
pub(super) fn inject_others<M: Memory>(mem: &mut M, me: u32, merged: &Tickpt) -> u64 {
    let mut injected = 0;
    for run in merged.runs().filter(|run| run.addr < BLOCK_BASE) {
        if run.stamp.rank != me {
            mem.inject(run.addr as usize, run.bytes);
            injected += run.bytes.len() as u64;
        }
    }
    injected
}

/// Atomically updated variables back to their value before the epoch (`before`), then every
/// rank's records applied in rank order: the same result on every rank.
pub(super) fn apply_records<M: Memory>(
    mem: &mut M,
    merged: &Tickpt,
    before: &HashMap<usize, Vec<u8>>,
) -> Applied {
    for (&addr, bytes) in before {
        mem.restore(addr, bytes);
    }
    records::apply(&records::blocks(merged), mem)
}

/// Team rank 0 of a small team: folds the epoch's merged memory runs and the final values of
/// the reduction/atomic targets into the region's accumulated changes.
fn accumulate(
    r: &mut ActiveRegion,
    merged: &Tickpt,
    targets: &mut [(usize, usize)],
    id: u64,
    program: SameProgram,
) {
    let mut epoch_runs = Tickpt::new(id);
    for run in merged.runs().filter(|run| run.addr < BLOCK_BASE) {
        epoch_runs.push(run.addr, run.stamp, run.bytes);
    }
    let latest = Stamp {
        order: r.epoch << EPOCH_SHIFT | ORDER_MASK,
        rank: u32::MAX,
    };
    let finals = records::final_values(targets, latest, id, program);
    let step = merge(&epoch_runs, &finals, None);
    r.accumulated = Some(match r.accumulated.take() {
        Some(acc) => merge(&acc, &step, None),
        None => step,
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subtract_ranges() {
        let mut out = Vec::new();
        subtract(0, 100, &[(10, 20), (30, 40), (95, 200)], &mut out);
        assert_eq!(out, vec![(0, 10), (20, 30), (40, 95)]);
        out.clear();
        subtract(10, 20, &[(0, 30)], &mut out);
        assert!(out.is_empty());
        out.clear();
        subtract(10, 20, &[], &mut out);
        assert_eq!(out, vec![(10, 20)]);
    }
}
