//! One epoch of an active region on a team rank: track -> diff -> exchange -> merge -> inject.
//!
//! Stamps are `(epoch << EPOCH_SHIFT | 1 + the largest iteration this rank ran in the epoch,
//! rank)`, so that overlapping writes resolve as sequential execution would.

use super::memory::{Memory, Program};
use super::records::{self, capture_slots, Applied, Record};
use super::split_diff::{diff_threads, diff_written_split};
use super::threadprivate::Threadprivates;
use super::ActiveRegion;
use crate::allreduce::allreduce;
use crate::config::WriteScopeMode;
use crate::diff::diff_page;
use crate::merge::merge;
use crate::runs::subtract_from;
use crate::runtime::{self, Runtime};
use crate::sys::raw::SameProgram;
use crate::tickpt::Stamp;
use crate::track::{Tracker, PAGE_SIZE};
use cape_format::changeset::{to_tickpt_where, ChangeSet, Writer, LINE};
use cape_format::log_compact::covers;
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

/// Diffs the written pages against their twins into `out` (records of `rank`): only bytes
/// inside `ranges` minus `excluded` (both sorted) are recorded, and every changed byte is
/// copied into the twin; pages where nothing changed are told to the tracker. Returns the
/// bytes compared, the bytes recorded and the records.
pub(super) fn diff_written(
    tracker: &mut Tracker,
    written: &[usize],
    ranges: &[(usize, usize)],
    excluded: &[(usize, usize)],
    rank: u32,
    out: &mut Writer<'_>,
) -> (u64, u64, u64) {
    let mut pieces = Vec::new();
    let (mut recorded, mut records) = (0u64, 0u64);
    for &page in written {
        let (mem, twin) = tracker.pair_mut(page);
        let (n, differed) =
            diff_written_page(page, mem, twin, ranges, excluded, rank, &mut pieces, out);
        recorded += n as u64;
        records += u64::from(n > 0);
        if !differed {
            // a page left writable on a guess that it would be written: it was not
            tracker.unchanged(&[page]);
        }
    }
    ((written.len() * PAGE_SIZE) as u64, recorded, records)
}

/// One page of [`diff_written`]: its memory `mem` and twin `twin`; `pieces` is scratch.
/// Returns the bytes recorded and whether any byte differed.
#[allow(clippy::too_many_arguments)]
pub(super) fn diff_written_page(
    page: usize,
    mem: &[u8],
    twin: &mut [u8],
    ranges: &[(usize, usize)],
    excluded: &[(usize, usize)],
    rank: u32,
    pieces: &mut Vec<(usize, usize)>,
    out: &mut Writer<'_>,
) -> (usize, bool) {
    let page_end = page + PAGE_SIZE;
    let first = ranges.partition_point(|&(_, e)| e <= page);
    let inside = ranges
        .get(first)
        .is_some_and(|&(s, e)| s <= page && page_end <= e);
    if inside && !excluded.iter().any(|&(s, e)| s < page_end && page < e) {
        // the whole page is shared: no pieces to compute
        return diff_page(mem, twin, page as u64, rank, None, out);
    }
    pieces.clear();
    for &(s, e) in ranges[first..].iter().take_while(|&&(s, _)| s < page_end) {
        subtract_from(s.max(page), e.min(page_end), excluded, pieces);
    }
    let allowed = (pieces.as_slice() != [(page, page_end)]).then(|| allowed_lines(page, pieces));
    diff_page(mem, twin, page as u64, rank, allowed.as_ref(), out)
}

/// Per line of the page at `page`, the bytes inside `pieces` (ascending, within the page).
pub(super) fn allowed_lines(page: usize, pieces: &[(usize, usize)]) -> [u64; PAGE_SIZE / LINE] {
    let mut lines = [0u64; PAGE_SIZE / LINE];
    for &(a, b) in pieces {
        let (a, b) = (a - page, b - page);
        let mut at = a;
        while at < b {
            let line = at / LINE;
            let to = b.min((line + 1) * LINE);
            let (lo, hi) = (at % LINE, to - line * LINE);
            lines[line] |= (u64::MAX >> (LINE - (hi - lo))) << lo;
            at = to;
        }
    }
    lines
}

/// The byte ranges of shared memory, ascending: user globals, the whole used arena (a
/// `single`/`master` block may have grown the heap) and the user stack above `sp`. The arena
/// is our own fixed mapping for application data only, so this admits no runtime or library
/// memory; a logged region's payload must lie inside these ranges.
pub(super) fn shared_ranges(rt: &Runtime, sp: usize) -> Vec<(usize, usize)> {
    let mut ranges = Vec::new();
    shared_ranges_into(rt, sp, &mut ranges);
    ranges
}

/// [`shared_ranges`] into `ranges` (cleared first), reusing its allocation.
fn shared_ranges_into(rt: &Runtime, sp: usize, ranges: &mut Vec<(usize, usize)>) {
    ranges.clear();
    ranges.extend_from_slice(&rt.globals);
    ranges.push(rt.arena.used_range());
    if sp >= rt.stack_lo && sp < rt.stack_top {
        ranges.push((sp, rt.stack_top));
    }
    ranges.retain(|&(s, e)| e > s);
    ranges.sort_unstable();
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
    // check builds: the epoch's accesses end here; the runtime's own work is not recorded
    crate::access_check::epoch_end(r.epoch);
    let t0 = Instant::now();
    // a variable this rank also stored to plainly merges as that store, not as updates
    super::plain_writes::settle(rt, r);
    let mut written = std::mem::take(&mut rt.written_pages);
    written.clear();
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
    let mut ranges = std::mem::take(&mut rt.shared_ranges);
    shared_ranges_into(rt, r.sp, &mut ranges);
    let mut excluded = std::mem::take(&mut r.excluded);
    excluded.extend(threadprivates.ranges());
    excluded.sort_unstable();
    let id = message_id(rt.region_no, r.epoch);
    let printed = rt.io.take_printed();
    if !printed.is_empty() {
        r.records.push(Record::Output(printed));
    }
    for (stream, bytes) in rt.io.take_written() {
        r.records.push(Record::FileOutput { stream, bytes });
    }
    if crate::region_heap::take_epoch_use() {
        r.records.push(Record::HeapUse);
    }
    if last && me == 0 && r.errno != 0 {
        // the initial thread's `errno`, every rank's after the region (none sent: 0)
        r.records.push(Record::Errno(r.errno));
    }
    // `CAPE_MERGE=lazy`: pages changed by this rank only go by notice (phase 1)
    let mut lazy = super::lazy_point::notices(rt, r, &written, &ranges, &excluded);
    let to_diff = lazy.as_ref().map_or(written.as_slice(), |(pages, _)| pages);
    let mut ex = std::mem::take(&mut rt.exchange);
    let mut w = Writer::new(ex.local(), id, [stamp]);
    // the last merge point: the rank's other threads are done with the region
    let split = if last {
        diff_threads(
            rt.cfg.split_diff,
            r.threads,
            to_diff.len(),
            rt.size,
            r.team_size == 1,
        )
    } else {
        1
    };
    let (mut diffed, mut recorded, records) = diff_written_split(
        &mut rt.tracker,
        to_diff,
        &ranges,
        &excluded,
        me,
        split,
        r.team_size > 1,
        &mut rt.diff_shares,
        &mut w,
    )?;
    // arena pages this rank claimed in a `single`/`master` block: not tracked yet
    let (fresh, fresh_recorded) = crate::region_heap::diff_fresh_pages(rt, me, &mut w);
    diffed += fresh;
    recorded += fresh_recorded;
    records::attach(&mut w, me, r.records.as_slice());
    w.finish();
    if rt.cfg.write_scope == WriteScopeMode::Check && rt.write_scope_known {
        let local = ex
            .result()
            .map_err(|e| format!("internal error: local change set: {e}"))?;
        check_write_scope(rt, &local)?;
        if let Some(page) = lazy
            .as_ref()
            .and_then(|(_, d)| super::lazy_point::published_outside_scope(rt, d))
        {
            return Err(scope_error(rt, page));
        }
    }
    rt.current.pages_written += written.len() as u64;
    rt.current.bytes_diffed += diffed;
    rt.current.runs_local += records;
    rt.current.bytes_local += recorded;
    rt.tracker.commit_diffed(&written);
    rt.tracker.finish_region();
    rt.written_pages = written;
    rt.shared_ranges = ranges;
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
    allreduce(
        &mut link,
        &mut ex,
        if check { Some(&mut r.races) } else { None },
    )
    .map_err(|e| e.to_string())?;
    rt.current.bytes_sent += comm.bytes_sent - sent_before;
    let t3 = Instant::now();

    let merged = ex
        .result()
        .map_err(|e| format!("internal error: merged checkpoint: {e}"))?;
    // Memory first (other ranks' bytes), then the record blocks in rank order. The runs
    // apply to this rank's previous version of each page: the pages still invalid here
    // (homed elsewhere by earlier lazy merge points) are fetched first, as one batch, rather
    // than by a fault each inside the injection.
    let others = merged.records().filter(|r| r.rank != me);
    rt.tracker
        .fetch_invalid(others.clone().map(|r| r.page as usize));
    rt.tracker
        .expect_injections(others.map(|r| (r.page as usize, PAGE_SIZE)));
    rt.current.bytes_injected += inject_others(&mut Program(rt), me, &merged);
    // before the records' combiners write: their writes must be seen by the next scan
    rt.tracker.settle_injected();
    let t4 = Instant::now();
    let mut applied = apply_records(&mut Program(rt), &merged, &r.before);
    if last {
        r.errno = applied.errno.unwrap_or(0);
    }
    if !applied.heap_users.is_empty() {
        // the allocator changed on one rank only: block extents are no longer known
        rt.arena.forget_all_blocks();
    }
    if applied.heap_users.len() > 1 {
        runtime::fatal_at_merge(
            rt.rank,
            &crate::region_heap::several_users(&applied.heap_users),
        );
    }
    if let Some((_, decided)) = &mut lazy {
        super::lazy_point::settle(rt, r, decided)?;
    }
    // the arena pages claimed in the epoch (by the rank that allocated) are now the same
    // everywhere: track them from here on
    track_new_memory(rt, r.sp)?;
    if rt.rank == 0 {
        rt.io.print_for_others(&applied.printed);
        rt.io.write_for_others(&applied.written);
    }
    if !applied.captured.is_empty() {
        // every rank of the team saw the same records, so every one of them gets here
        let slots = capture_slots(&mut applied.captured)?;
        if let Some(comm) = rt.comm.as_ref() {
            comm.capture_reset(r.team_size, &slots);
        }
    }
    if !applied.lock_slots.is_empty() {
        // every rank of the team saw the same records: empty the locks' logs for the next epoch
        super::lock::after_merge(rt, r.team_size, &applied.lock_slots);
    }
    let t5 = Instant::now();

    let world = rt.size;
    if rt.rank == 0 && ((r.team_size as usize) < world || r.logged.is_some() || r.collect) {
        let thinned = super::replay::thinned_ranges(rt, r.team_size as usize, r.collect);
        accumulate(
            r,
            &merged,
            &mut applied.targets,
            id,
            rt.same_program,
            &thinned,
        );
    }
    if let Some((_, decided)) = &mut lazy {
        super::lazy_point::log_published(r, decided);
    }
    rt.current.t_track += t1 - t0;
    rt.current.t_diff += t2 - t1;
    rt.current.t_merge += t3 - t2;
    rt.current.t_inject += t4 - t3;
    rt.current.t_reduce += t5 - t4;
    rt.exchange = ex;
    if !last {
        rt.tracker.begin_region().map_err(|e| e.to_string())?;
        r.next_epoch();
        crate::access_check::epoch_resume();
    }
    Ok(())
}

/// `CAPE_WRITE_SCOPE=check`: every page this rank changed must lie in the region's write scope.
fn check_write_scope(rt: &Runtime, local: &ChangeSet<'_>) -> Result<(), String> {
    match local
        .records()
        .find(|r| !crate::runs::holds(&rt.write_scope, r.page as usize))
    {
        None => Ok(()),
        Some(r) => Err(scope_error(rt, r.page as usize)),
    }
}

fn scope_error(rt: &Runtime, page: usize) -> String {
    format!(
        "parallel region {} changed shared memory at {:#x}{}, outside the write scope the compiler computed for it (`CAPE_WRITE_SCOPE=check`): this is a capecc bug, please report it; `CAPE_WRITE_SCOPE=0` runs the program correctly meanwhile",
        rt.region_no,
        page,
        runtime::describe_address(rt, page)
    )
}

/// Writes the changes of the other ranks into memory; returns the bytes changed.
pub(super) fn inject_others<M: Memory>(mem: &mut M, me: u32, merged: &ChangeSet<'_>) -> u64 {
    crate::inject::inject_others(mem, me, merged)
}

/// Atomically updated variables back to their value before the epoch (`before`), then every
/// rank's records applied in rank order: the same result on every rank.
pub(super) fn apply_records<M: Memory>(
    mem: &mut M,
    merged: &ChangeSet<'_>,
    before: &HashMap<usize, Vec<u8>>,
) -> Applied {
    for (&addr, bytes) in before {
        mem.restore(addr, bytes);
    }
    records::apply(&records::blocks(merged), mem)
}

/// Team rank 0 of a small team: folds the epoch's merged memory runs and the final values of
/// the reduction/atomic targets into the region's accumulated changes; pages wholly inside
/// `thinned` are left out (a snapshot will hold them).
fn accumulate(
    r: &mut ActiveRegion,
    merged: &ChangeSet<'_>,
    targets: &mut [(usize, usize)],
    id: u64,
    program: SameProgram,
    thinned: &[(u64, u64)],
) {
    let page = crate::track::PAGE_SIZE as u64;
    let epoch_runs = to_tickpt_where(merged, |at| !covers(thinned, at, at + page));
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
