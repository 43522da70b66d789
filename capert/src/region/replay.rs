//! Fault tolerance inside the region protocol: logged regions (fingerprint before, net
//! change after), regions replayed from the log, logged regions with a team of one, and the
//! `cape_checkpoint_*` calls.

use super::epoch::{end_tracking_unchanged, shared_ranges, track_new_memory};
use super::memory::{Memory, Program};
use super::split_diff::{diff_threads, diff_written_runs};
use super::threadprivate::Threadprivates;
use super::State;
use crate::ft::{exact, Taken};
use crate::inject::Target;
use crate::merge::merge;
use crate::runtime::{self, Runtime};
use crate::sys::region_call;
use crate::tickpt::{Stamp, Tickpt};
use std::time::Instant;

/// A logged region with a team of one in progress (every rank runs it, tracked as a whole).
/// An active region nested in it (libgomp gives it a full team) suspends that tracking:
/// world rank 0 keeps the serial part's changes so far in `change`, and the nested region's
/// merged changes are folded in after it.
pub(super) struct LoggedSerial {
    pub(super) sp: usize,
    pub(super) change: Option<Tickpt>,
    /// The threads the rank runs the region with (the pool's are idle at its end).
    pub(super) threads: u32,
}

/// Rank 0: the fingerprint of shared memory now (globals + used arena; see `ft::fingerprint`).
fn fingerprint_now(rt: &mut Runtime) -> u64 {
    let mut valid = rt.globals.clone();
    valid.push(rt.arena.used_range());
    valid.retain(|&(s, e)| e > s);
    valid.sort_unstable();
    let dirty = rt.tracker.take_dirty();
    let stale = rt.ft.as_mut().is_some_and(|f| f.take_fingerprint_stale());
    let full = stale || !rt.tracker.sees_all_writes() || dirty.is_none();
    let dirty = dirty.unwrap_or_default();
    let tracker = &rt.tracker;
    let Some(ft) = rt.ft.as_mut() else {
        return 0;
    };
    ft.fingerprint.update(&valid, &dirty, full, |page| {
        tracker.contains(page).then(|| tracker.memory(page))
    })
}

/// Region begin of a logged region, after the tracker's begin: rank 0 notes the fingerprint
/// (not in snapshot mode, where no fingerprint is logged) and the stack depth.
pub(super) fn ft_begin(rt: &mut Runtime, k: u64, sp: usize) {
    if rt.ft.as_ref().is_some_and(|f| f.rank0()) {
        let fp = if rt.ft.as_ref().is_some_and(|f| f.snapshot_mode()) {
            rt.tracker.take_dirty();
            0
        } else {
            fingerprint_now(rt)
        };
        if let Some(ft) = rt.ft.as_mut() {
            ft.note_region(k, sp);
            ft.begin_logged(k, fp);
        }
    }
}

/// What a snapshot holds: the user globals and the used arena, sorted. The stack is not in
/// it: the frames above `main` hold values of this process only, like its original stack
/// pointer.
fn image_ranges(rt: &Runtime) -> Vec<(u64, u64)> {
    let mut ranges: Vec<(u64, u64)> = rt
        .globals
        .iter()
        .map(|&(s, e)| (s as u64, e as u64))
        .collect();
    let (s, e) = rt.arena.used_range();
    ranges.push((s as u64, e as u64));
    ranges.retain(|&(s, e)| e > s);
    ranges.sort_unstable();
    ranges
}

/// Rank 0 at a merge point of a logged region: the ranges whose changes it need not keep, as
/// `ft_end` would thin them away (snapshot mode, the whole team being every rank and the change
/// not folded into a team-of-one region's: then only the stack's bytes are logged).
pub(super) fn thinned_ranges(rt: &Runtime, team_size: usize, collect: bool) -> Vec<(u64, u64)> {
    let snapshots = rt.ft.as_ref().is_some_and(|f| f.snapshot_mode());
    if snapshots && team_size >= rt.size && !collect {
        image_ranges(rt)
    } else {
        Vec::new()
    }
}

/// Rank 0 at a logged region's end, when a snapshot is due: the image of `ranges`, the
/// region's stack pointer and the user's control state at the region call (every user frame
/// and the callee-saved registers).
fn snapshot_image(rt: &Runtime, ranges: &[(u64, u64)], sp: usize) -> Option<Taken> {
    let bytes: u64 = ranges.iter().map(|&(s, e)| e - s).sum();
    if !rt.ft.as_ref()?.snapshot_due(bytes as usize) {
        return None;
    }
    let t0 = Instant::now();
    let call = exact::capture(user_top(rt), |at, out| {
        crate::region_heap::read(rt, at, out)
    })?;
    let program = rt.same_program;
    let image = cape_format::log_compact::image(ranges, |at, len, out| {
        program.object(at as usize, len as usize).append_to(out)
    });
    Some(Taken {
        image,
        sp,
        copy: t0.elapsed(),
        call,
    })
}

/// The top of what the user owns on the stack: `main`'s frames and the command line above
/// them (`runtime::command_line`).
fn user_top(rt: &Runtime) -> usize {
    rt.stack_top - crate::sys::stack::MAIN_TOP_GAP
}

/// Every rank at the snapshot's region in a replay, after the image: the user stack and the
/// callee-saved registers of the failed run at this region call, once rank 0 checked that it
/// is the same call; the region call returns with them (see `ft::exact`).
fn resume_call(rt: &mut Runtime, k: u64) -> Result<(), String> {
    let top = user_top(rt);
    let now = region_call::current();
    let now_stack = |rt: &Runtime, entry_sp: usize| {
        let from = (entry_sp + 8).min(top);
        let mut bytes = vec![0u8; top - from];
        if rt.tracker.contains(from) {
            crate::region_heap::read(rt, from, &mut bytes);
        }
        bytes
    };
    let mut msg = Vec::new();
    if let (0, Some(ft)) = (rt.rank, rt.ft.as_ref()) {
        let stack = now.map(|n| now_stack(rt, n.entry_sp)).unwrap_or_default();
        msg = match ft.replay_call(now.map(|n| (n, &stack[..])), top) {
            Ok(call) => [&[0u8][..], &exact::encode(call)].concat(),
            Err(e) => [&[1u8][..], e.as_bytes()].concat(),
        };
    }
    if let Some(comm) = rt.comm.as_ref() {
        comm.broadcast_from_root(&mut msg);
    }
    if msg.first() != Some(&0) {
        let text = String::from_utf8_lossy(msg.get(1..).unwrap_or(&[])).into_owned();
        runtime::stop_all(rt.comm.as_mut(), rt.rank, &text);
    }
    let recorded = exact::decode(&msg[1..]).ok_or("internal error: bad replayed call state")?;
    let from = recorded.entry_sp as usize + 8;
    let now = now
        .filter(|n| n.entry_sp == recorded.entry_sp as usize && rt.tracker.contains(from))
        .ok_or_else(|| {
            format!("internal error: region {k} resumes at another call than rank 0's")
        })?;
    let stack = now_stack(rt, now.entry_sp);
    let (base, limit) = (rt.arena.base(), rt.arena.limit());
    let mut fixed = rt.globals.clone();
    fixed.extend([(rt.stack_lo, rt.stack_top), (base, limit)]);
    let local = exact::local_mappings(&fixed);
    let state = exact::resume_state(&recorded, &stack, &now, region_call::stack_guard(), |a| {
        exact::within(&local, a)
    });
    Program(rt).inject(from, &state.stack);
    region_call::set_registers(state.regs, state.fp_control);
    Ok(())
}

/// Region end of a logged region (rank 0): the net change plus thread 0's threadprivate
/// values go to the log.
pub(super) fn ft_end(
    rt: &mut Runtime,
    tps: &Threadprivates,
    change: Option<Tickpt>,
    sp: usize,
) -> Result<(), String> {
    if !rt.ft.as_ref().is_some_and(|f| f.rank0()) {
        crate::sys::ft::take_signal_request();
        return Ok(());
    }
    // Handed over as it is: encoding happens on the writer thread.
    let mut change = change.unwrap_or_else(|| Tickpt::new(0));
    if !tps.is_empty() {
        let mut values = Tickpt::new(0);
        let latest = Stamp {
            order: u64::MAX,
            rank: u32::MAX,
        };
        for tp in tps.iter() {
            values.push(tp.var.addr() as u64, latest, &tp.var.read());
        }
        change = merge(&change, &values, None);
    }
    let ranges = image_ranges(rt);
    let unseen = rt.arena.unseen_changes();
    if let Some(ft) = rt.ft.as_mut() {
        ft.heap_changed(unseen);
    }
    if rt.ft.as_ref().is_some_and(|f| f.snapshot_mode()) {
        change = cape_format::log_compact::thin_change(&change, &ranges);
    }
    rt.current.bytes_logged += change.encoded_len() as u64;
    let image = snapshot_image(rt, &ranges, sp);
    let Some(ft) = rt.ft.as_mut() else {
        return Ok(());
    };
    ft.end_logged(change, image)
}

/// A region of the log: not run; every rank injects its logged net change after rank 0
/// checked the fingerprint of the state before it.
pub(super) fn replay(
    rt: &mut Runtime,
    tps: &mut Threadprivates,
    k: u64,
    sp: usize,
) -> Result<(), String> {
    let trace = |rt: &Runtime, what: &str| crate::ft::trace(rt.cfg.stats, rt.rank, what);
    if k == 1 {
        trace(rt, "replay begins");
    }
    // Keep the tracker's bookkeeping as if the region ran (twins synced, ranges added).
    track_new_memory(rt, sp)?;
    rt.tracker.begin_region().map_err(|e| e.to_string())?;
    end_tracking_unchanged(rt)?;
    let mut msg = Vec::new();
    if rt.rank == 0 {
        // a region the snapshot thinned is not compared with a fingerprint (its arrays are
        // those of an earlier state): the pages it dirtied wait for the next one computed
        let thinned = rt.ft.as_ref().is_some_and(|f| k <= f.snapshot_at());
        let fp = if thinned { 0 } else { fingerprint_now(rt) };
        let shared = replay_ranges(rt, sp);
        let Some(ft) = rt.ft.as_mut() else {
            return Ok(());
        };
        ft.note_region(k, sp);
        msg = message(ft.replay_payload(k, fp, &shared));
    }
    deliver(rt, msg)?;
    if rt.ft.as_ref().is_some_and(|f| f.snapshot_at() == k) {
        trace(rt, "snapshot region reached");
        let mut msg = Vec::new();
        let mut printed = None;
        if let (0, Some(ft)) = (rt.rank, rt.ft.as_ref()) {
            let r = ft.replay_snapshot(&replay_ranges(rt, sp));
            printed = r.as_ref().ok().map(|&(_, out)| out);
            msg = message(r.map(|_| &[][..]));
        }
        deliver_snapshot(rt, msg)?;
        trace(rt, "snapshot injected");
        resume_call(rt, k)?;
        if let Some(count) = printed {
            crate::ft::output::rebase(count);
        }
    }
    let last = rt.ft.as_ref().is_some_and(|f| k == f.replay_count());
    if let (true, Some(ft)) = (last, rt.ft.as_mut()) {
        ft.replay_done();
        trace(rt, "replay done");
    }
    // Threadprivate copies of other threads are not logged: they restart as thread 0's.
    tps.restart_as_thread_0();
    Ok(())
}

/// Rank 0's broadcast for a replayed region: `0` + payload, or `1` + the refusal.
fn message(decision: Result<&[u8], String>) -> Vec<u8> {
    match decision {
        Ok(payload) => [&[0u8][..], payload].concat(),
        Err(e) => [&[1u8][..], e.as_bytes()].concat(),
    }
}

/// Broadcasts rank 0's message; every rank injects the payload or stops with the refusal.
fn deliver(rt: &mut Runtime, mut msg: Vec<u8>) -> Result<(), String> {
    if let Some(comm) = rt.comm.as_ref() {
        comm.broadcast_from_root(&mut msg);
    }
    match inject_replayed(&mut Program(rt), &msg) {
        Ok(()) => Ok(()),
        Err(ReplayError::Refused(text)) => runtime::stop_all(rt.comm.as_mut(), rt.rank, &text),
        Err(ReplayError::Bad(e)) => Err(format!("bad replayed region: {e}")),
    }
}

/// The snapshot's image on every rank, after rank 0's decision (`message`: `0` or `1` + the
/// refusal): broadcast as the log holds it (no copy on rank 0), checked and injected run by
/// run with the pages unprotected first and protected again after, so that neither the
/// injection (a write fault per page) nor the next region begin (a copy of every page into
/// its twin) pays for it again.
fn deliver_snapshot(rt: &mut Runtime, mut decision: Vec<u8>) -> Result<(), String> {
    if let Some(comm) = rt.comm.as_ref() {
        comm.broadcast_from_root(&mut decision);
    }
    if decision.first() != Some(&0) {
        let text = String::from_utf8_lossy(decision.get(1..).unwrap_or(&[])).into_owned();
        runtime::stop_all(rt.comm.as_mut(), rt.rank, &text);
    }
    let mut image = match (rt.rank, rt.ft.as_mut()) {
        (0, Some(ft)) => ft.take_snapshot_image(),
        _ => Vec::new(),
    };
    if let Some(comm) = rt.comm.as_ref() {
        comm.broadcast_from_root(&mut image);
    }
    let view = Tickpt::view(&image).map_err(|e| format!("bad replayed snapshot: {e}"))?;
    rt.tracker
        .expect_injections(view.runs().map(|r| (r.addr as usize, r.bytes.len())));
    let mut mem = Program(rt);
    for run in view.runs() {
        mem.inject(run.addr as usize, run.bytes);
    }
    rt.tracker.settle_injected();
    Ok(())
}

/// Why a replayed region's message was not injected.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum ReplayError {
    /// Rank 0 refused the restart (the line to print).
    Refused(String),
    /// The payload does not decode.
    Bad(String),
}

/// What every rank makes of rank 0's broadcast for a replayed region: `0` + the logged payload
/// (TICKPT v1), injected; or `1` + why the restart is refused. Rank 0 checked every run
/// against the shared ranges. A logged `single`/`master` block may have grown the heap: those
/// pages are not tracked yet and are written directly (`Memory::inject`).
pub(super) fn inject_replayed<M: Memory>(mem: &mut M, msg: &[u8]) -> Result<(), ReplayError> {
    if msg.first() != Some(&0) {
        let text = String::from_utf8_lossy(msg.get(1..).unwrap_or(&[])).into_owned();
        return Err(ReplayError::Refused(text));
    }
    let change = Tickpt::decode(&msg[1..]).map_err(|e| ReplayError::Bad(e.to_string()))?;
    for run in change.runs() {
        mem.inject(run.addr as usize, run.bytes);
    }
    Ok(())
}

/// A logged region with a team of one (every rank runs it): tracked like an active region.
pub(super) fn serial_begin(rt: &mut Runtime, sp: usize, k: u64) -> Result<(), String> {
    let t0 = Instant::now();
    crate::ft::output::direct();
    track_new_memory(rt, sp)?;
    rt.tracker.begin_region().map_err(|e| e.to_string())?;
    ft_begin(rt, k, sp);
    rt.current.t_track += t0.elapsed();
    Ok(())
}

/// The changes of a logged team-of-one region's serial part since its tracking (re)started:
/// world rank 0 diffs them (on `threads` threads, see `split_diff.rs`), every rank ends the
/// tracking.
fn serial_diff(rt: &mut Runtime, sp: usize, threads: u32) -> Result<Tickpt, String> {
    let t0 = Instant::now();
    let mut written = Vec::new();
    rt.tracker
        .end_region(&mut written)
        .map_err(|e| e.to_string())?;
    let mut change = Tickpt::new(0);
    if rt.rank == 0 {
        let ranges = shared_ranges(rt, sp);
        let split = diff_threads(rt.cfg.split_diff, threads, written.len(), rt.size, true);
        let diffed;
        (diffed, change) = diff_written_runs(
            &mut rt.tracker,
            &written,
            &ranges,
            split,
            &mut rt.diff_shares,
        )?;
        rt.current.bytes_diffed += diffed;
        rt.tracker.commit_diffed(&written);
    } else {
        rt.tracker.commit(&written);
    }
    rt.tracker.finish_region();
    rt.current.t_diff += t0.elapsed();
    Ok(change)
}

/// `later` over `earlier`, whatever their stamps (they come from separate merges).
pub(super) fn overlay(earlier: Option<Tickpt>, later: Tickpt) -> Tickpt {
    let Some(earlier) = earlier else {
        return later;
    };
    let restamp = |t: &Tickpt, order: u64| {
        let mut out = Tickpt::new(t.region);
        for run in t.runs() {
            out.push(run.addr, Stamp { order, rank: 0 }, run.bytes);
        }
        out
    };
    merge(&restamp(&earlier, 0), &restamp(&later, 1), None)
}

/// An active region starts inside a logged team-of-one region: the serial part so far is
/// set aside (rank 0) and its tracking ends, so that the nested region tracks as usual.
pub(super) fn serial_suspend(
    rt: &mut Runtime,
    logged: &mut Option<LoggedSerial>,
    sp: usize,
) -> Result<(), String> {
    // the pool is busy: the region's threads run the body that starts the nested region
    let change = serial_diff(rt, sp, 1)?;
    if let Some(l) = logged.as_mut() {
        l.change = Some(overlay(l.change.take(), change));
    }
    Ok(())
}

/// The nested active region ended: the serial part's tracking starts again.
pub(super) fn serial_resume(rt: &mut Runtime, sp: usize) -> Result<(), String> {
    track_new_memory(rt, sp)?;
    rt.tracker.begin_region().map_err(|e| e.to_string())
}

pub(super) fn serial_end(
    rt: &mut Runtime,
    tps: &Threadprivates,
    sp: usize,
    before_nested: Option<Tickpt>,
    threads: u32,
) -> Result<(), String> {
    let change = overlay(before_nested, serial_diff(rt, sp, threads)?);
    crate::ft::output::piped();
    ft_end(rt, tps, Some(change), sp)?;
    let mut region = std::mem::take(&mut rt.current);
    region.regions = 1;
    rt.totals.add(&region);
    Ok(())
}

/// `cape_checkpoint_now`.
pub fn checkpoint_now(s: &mut State) -> i32 {
    let inside = !s.team.levels.is_empty();
    let result = s.rt.as_mut().and_then(|rt| {
        let rank0 = rt.rank == 0;
        let ft = rt.ft.as_mut()?;
        if inside || ft.snapshot_mode() {
            ft.request();
            return Some(Ok(1));
        }
        if !rank0 {
            return Some(Ok(0));
        }
        Some(ft.flush().map(|()| 0))
    });
    match result {
        None => -1,
        Some(Ok(v)) => v,
        Some(Err(e)) => runtime::fatal(&e),
    }
}

/// `cape_checkpoint_regions`.
pub fn checkpoint_regions(s: &State) -> i64 {
    let inside = !s.team.levels.is_empty();
    s.rt.as_ref()
        .and_then(|rt| {
            let ft = rt.ft.as_ref()?;
            let mut n = ft.durable_regions();
            if !inside {
                if let Some(comm) = rt.comm.as_ref() {
                    let mut bytes = n.to_le_bytes().to_vec();
                    comm.broadcast_from_root(&mut bytes);
                    n = bytes
                        .get(..8)
                        .and_then(|b| b.try_into().ok())
                        .map_or(n, u64::from_le_bytes);
                }
            }
            Some(n as i64)
        })
        .unwrap_or(-1)
}

/// Where a logged region may write: shared memory as it is now, except that the whole arena
/// counts (a logged `single`/`master` block may have grown the heap). The arena is our own
/// fixed mapping for application data only, so this admits no runtime or library memory.
pub(super) fn replay_ranges(rt: &Runtime, sp: usize) -> Vec<(usize, usize)> {
    let base = rt.arena.base();
    let mut ranges = shared_ranges(rt, sp);
    ranges.retain(|&(s, _)| s != base);
    ranges.push((base, rt.arena.limit()));
    ranges.sort_unstable();
    ranges
}
