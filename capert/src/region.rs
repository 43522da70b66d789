//! The region protocol: begin / run / end (diff) / merge / inject / reductions, plus the
//! team state behind the OpenMP API and the worksharing loop state.
//!
//! A parallel region with a team of more than one runs on the first `team` ranks; all ranks
//! take part in the merge. Everything written to shared memory (user globals, the used
//! arena, the user stack above the region's stack pointer) is diffed against the twins
//! kept by the tracker, stamped with (1 + the largest iteration this rank ran, rank) so that
//! overlapping writes resolve as sequential execution would, merged with the recursive-doubling
//! allreduce and injected. Reductions are combined after the merge, in rank order, on every
//! rank, so the result is deterministic and identical everywhere.

use crate::allreduce::allreduce;
use crate::ffi::abi::cape_sched;

const CAPE_SCHED_STATIC: i32 = cape_sched::CAPE_SCHED_STATIC as i32;
const CAPE_SCHED_DYNAMIC: i32 = cape_sched::CAPE_SCHED_DYNAMIC as i32;
use crate::diff::diff_into;
use crate::merge::Race;
use crate::runtime::{self, Runtime};
use crate::schedule::static_chunks;
use crate::tickpt::{Stamp, Tickpt};
use crate::track::PAGE_SIZE;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// True while this rank is inside an active (tracked, multi-rank) region. Heap calls then go
/// to libc: ranks run different iterations, so the arena allocator state must not change.
static IN_ACTIVE_REGION: AtomicBool = AtomicBool::new(false);

pub fn in_active_region() -> bool {
    IN_ACTIVE_REGION.load(Ordering::Relaxed)
}

#[derive(Debug, Clone, Copy)]
struct Level {
    thread_num: u32,
    team_size: u32,
    active: bool,
}

/// OpenMP "internal control variables" and the state of the current region.
#[derive(Debug)]
struct Team {
    levels: Vec<Level>,
    /// `omp_set_num_threads`; overrides `OMP_NUM_THREADS`.
    num_threads: Option<u32>,
    dynamic: bool,
    nested: bool,
    /// `omp_set_schedule`: (omp_sched_t kind, chunk).
    schedule: (i32, i32),
    /// Largest iteration index this rank ran in the current active region's loops.
    max_iter: Option<u64>,
    /// Reduction records of the current active region: (shared addr, combine addr, partial).
    reductions: Vec<(usize, usize, Vec<u8>)>,
}

static TEAM: Mutex<Team> = Mutex::new(Team {
    levels: Vec::new(),
    num_threads: None,
    dynamic: false,
    nested: false,
    schedule: (1, 0),
    max_iter: None,
    reductions: Vec::new(),
});

fn team() -> MutexGuard<'static, Team> {
    TEAM.lock().unwrap_or_else(|e| e.into_inner())
}

/// Per-run counters for `CAPE_STATS`.
#[derive(Debug, Default, Clone)]
pub struct Stats {
    pub regions: u64,
    pub pages_written: u64,
    pub bytes_diffed: u64,
    pub runs_local: u64,
    pub bytes_local: u64,
    pub bytes_sent: u64,
    pub bytes_injected: u64,
    pub t_track: Duration,
    pub t_diff: Duration,
    pub t_merge: Duration,
    pub t_inject: Duration,
    pub t_reduce: Duration,
}

impl Stats {
    pub fn line(&self, label: &str) -> String {
        format!(
            "capert: stats: {label}: regions={} pages_written={} bytes_diffed={} runs={} run_bytes={} bytes_sent={} bytes_injected={} track_us={} diff_us={} merge_us={} inject_us={} reduce_us={}",
            self.regions,
            self.pages_written,
            self.bytes_diffed,
            self.runs_local,
            self.bytes_local,
            self.bytes_sent,
            self.bytes_injected,
            self.t_track.as_micros(),
            self.t_diff.as_micros(),
            self.t_merge.as_micros(),
            self.t_inject.as_micros(),
            self.t_reduce.as_micros(),
        )
    }

    fn add(&mut self, o: &Stats) {
        self.regions += o.regions;
        self.pages_written += o.pages_written;
        self.bytes_diffed += o.bytes_diffed;
        self.runs_local += o.runs_local;
        self.bytes_local += o.bytes_local;
        self.bytes_sent += o.bytes_sent;
        self.bytes_injected += o.bytes_injected;
        self.t_track += o.t_track;
        self.t_diff += o.t_diff;
        self.t_merge += o.t_merge;
        self.t_inject += o.t_inject;
        self.t_reduce += o.t_reduce;
    }
}

/// What the caller must do after a region.
#[derive(Debug, PartialEq, Eq)]
pub enum RegionOutcome {
    Done,
    /// `CAPE_CHECK=races` found data races (already reported): shut down with a failure.
    RacesFound,
}

/// `__cape_parallel`. `run` calls the outlined function.
pub fn parallel(
    run: impl FnOnce(),
    num_threads: i32,
    if_clause: bool,
    sp: usize,
) -> Result<RegionOutcome, String> {
    let (rank, size, default_threads) =
        runtime::with(|rt| (rt.rank, rt.size, rt.cfg.num_threads)).unwrap_or((0, 1, None));
    let mut t = team();
    let nested = t.levels.iter().any(|l| l.active);
    let requested = if num_threads > 0 {
        num_threads as u32
    } else {
        t.num_threads.or(default_threads).unwrap_or(size as u32)
    };
    let team_size = requested.min(size as u32).max(1);
    if !if_clause || nested || team_size == 1 {
        // A team of one: every rank runs it identically, nothing to merge.
        t.levels.push(Level {
            thread_num: 0,
            team_size: 1,
            active: false,
        });
        drop(t);
        run();
        team().levels.pop();
        return Ok(RegionOutcome::Done);
    }
    t.levels.push(Level {
        thread_num: rank as u32,
        team_size,
        active: true,
    });
    t.max_iter = None;
    t.reductions.clear();
    drop(t);

    runtime::with(|rt| begin(rt, sp)).unwrap_or(Ok(()))?;
    IN_ACTIVE_REGION.store(true, Ordering::Relaxed);
    if (rank as u32) < team_size {
        run();
    }
    IN_ACTIVE_REGION.store(false, Ordering::Relaxed);
    let (max_iter, reductions) = {
        let mut t = team();
        t.levels.pop();
        (t.max_iter.take(), std::mem::take(&mut t.reductions))
    };
    let outcome =
        runtime::with(|rt| end(rt, sp, max_iter, reductions)).unwrap_or(Ok(RegionOutcome::Done))?;
    Ok(outcome)
}

fn begin(rt: &mut Runtime, sp: usize) -> Result<(), String> {
    let t0 = Instant::now();
    rt.io.enter_region();
    // Track the user stack down to the page holding this region's stack pointer.
    let sp_page = sp & !(PAGE_SIZE - 1);
    if sp_page >= rt.stack_lo && sp_page < rt.stack_tracked_lo {
        rt.tracker
            .0
            .add_range(sp_page, rt.stack_tracked_lo - sp_page)
            .map_err(|e| e.to_string())?;
        rt.stack_tracked_lo = sp_page;
    }
    if let Some((start, len)) = rt.arena.take_untracked() {
        rt.tracker
            .0
            .add_range(start, len)
            .map_err(|e| e.to_string())?;
    }
    rt.tracker.0.begin_region().map_err(|e| e.to_string())?;
    rt.region_no += 1;
    rt.current.t_track += t0.elapsed();
    Ok(())
}

/// The byte ranges of shared memory, ascending, non-overlapping.
fn shared_ranges(rt: &Runtime, sp: usize) -> Vec<(usize, usize)> {
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
fn subtract(lo: usize, hi: usize, excluded: &[(usize, usize)], out: &mut Vec<(usize, usize)>) {
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

fn end(
    rt: &mut Runtime,
    sp: usize,
    max_iter: Option<u64>,
    reductions: Vec<(usize, usize, Vec<u8>)>,
) -> Result<RegionOutcome, String> {
    let t0 = Instant::now();
    let mut written = Vec::new();
    rt.tracker
        .0
        .end_region(&mut written)
        .map_err(|e| e.to_string())?;
    let t1 = Instant::now();

    let stamp = Stamp {
        order: max_iter.map_or(0, |m| m.saturating_add(1)),
        rank: rt.rank as u32,
    };
    let ranges = shared_ranges(rt, sp);
    let mut excluded: Vec<(usize, usize)> = reductions
        .iter()
        .map(|(addr, _, bytes)| (*addr, addr + bytes.len()))
        .collect();
    excluded.sort_unstable();
    let mut local = Tickpt::new(rt.region_no);
    let mut pieces = Vec::new();
    let mut diffed = 0u64;
    for &page in &written {
        let page_end = page + PAGE_SIZE;
        let mem = rt.tracker.0.memory(page);
        let twin = rt.tracker.0.twin(page);
        for &(s, e) in &ranges {
            let (lo, hi) = (s.max(page), e.min(page_end));
            if lo >= hi {
                continue;
            }
            pieces.clear();
            subtract(lo, hi, &excluded, &mut pieces);
            for &(a, b) in &pieces {
                let (i, j) = (a - page, b - page);
                diff_into(&mem[i..j], &twin[i..j], a as u64, stamp, &mut local);
                diffed += (b - a) as u64;
            }
        }
    }
    rt.tracker.0.commit(&written);
    rt.tracker.0.finish_region();
    let t2 = Instant::now();

    let mut region = Stats {
        regions: 1,
        pages_written: written.len() as u64,
        bytes_diffed: diffed,
        runs_local: local.run_count() as u64,
        bytes_local: local.data_bytes() as u64,
        ..Stats::default()
    };
    let check = rt.cfg.check_races;
    let mut races: Vec<Race> = Vec::new();
    let comm = rt
        .comm
        .as_mut()
        .ok_or_else(|| "internal error: a parallel region without MPI".to_string())?;
    let sent_before = comm.bytes_sent;
    let merged = allreduce(comm, local, if check { Some(&mut races) } else { None })
        .map_err(|e| e.to_string())?;
    region.bytes_sent = comm.bytes_sent - sent_before;
    let t3 = Instant::now();

    let me = rt.rank as u32;
    for run in merged.runs() {
        if run.stamp.rank != me {
            rt.tracker.0.inject(run.addr as usize, run.bytes);
            region.bytes_injected += run.bytes.len() as u64;
        }
    }
    let t4 = Instant::now();

    let outcome = if check {
        report_races(rt, &races)
    } else {
        RegionOutcome::Done
    };
    apply_reductions(rt, &reductions);
    let t5 = Instant::now();
    rt.io.leave_region();

    region.t_track = rt.current.t_track + (t1 - t0);
    region.t_diff = t2 - t1;
    region.t_merge = t3 - t2;
    region.t_inject = t4 - t3;
    region.t_reduce = t5 - t4;
    rt.current = Stats::default();
    if rt.cfg.stats >= 2 && rt.rank == 0 {
        crate::io::eprint_line(&region.line(&format!("region {}", rt.region_no)));
    }
    rt.totals.add(&region);
    Ok(outcome)
}

/// Gathers every rank's race findings; rank 0 prints each distinct race once.
fn report_races(rt: &mut Runtime, races: &[Race]) -> RegionOutcome {
    let Some(comm) = rt.comm.as_ref() else {
        return RegionOutcome::Done;
    };
    let mut mine = Vec::with_capacity(races.len() * 24);
    for r in races {
        mine.extend_from_slice(&r.addr.to_le_bytes());
        mine.extend_from_slice(&r.len.to_le_bytes());
        mine.extend_from_slice(&r.ranks.0.to_le_bytes());
        mine.extend_from_slice(&r.ranks.1.to_le_bytes());
    }
    let all = comm.all_gather_bytes(&mine);
    let mut found: Vec<(u64, u64, u32, u32)> = Vec::new();
    for bytes in &all {
        for rec in bytes.chunks_exact(24) {
            let word = |i: usize| u64::from_le_bytes(rec[i..i + 8].try_into().unwrap_or([0; 8]));
            let half = |i: usize| u32::from_le_bytes(rec[i..i + 4].try_into().unwrap_or([0; 4]));
            let (a, b) = (half(16), half(20));
            found.push((word(0), word(8), a.min(b), a.max(b)));
        }
    }
    found.sort_unstable();
    found.dedup();
    if found.is_empty() {
        return RegionOutcome::Done;
    }
    if rt.rank == 0 {
        for (addr, len, a, b) in &found {
            let name = crate::runtime::describe_address(rt, *addr as usize);
            crate::io::eprint_line(&format!(
                "capert: error: data race in parallel region {}: {len} byte(s) at {addr:#x}{name} written with different values by ranks {a} and {b}",
                rt.region_no
            ));
        }
        crate::io::eprint_line(&format!(
            "capert: error: {} data race(s) found: make the conflicting writes private, or protect them with `reduction`/`critical`",
            found.len()
        ));
    }
    RegionOutcome::RacesFound
}

/// Reductions: every rank's partial values, combined in rank order into the shared variable.
fn apply_reductions(rt: &mut Runtime, mine: &[(usize, usize, Vec<u8>)]) {
    let Some(comm) = rt.comm.as_ref() else {
        return;
    };
    // Skip the collective when no rank of the team recorded anything: all ranks agree on that
    // only through communication, so a one-byte flag would cost as much; always gather.
    let mut buf = Vec::new();
    for (shared, combine, partial) in mine {
        buf.extend_from_slice(&(*shared as u64).to_le_bytes());
        buf.extend_from_slice(&(*combine as u64).to_le_bytes());
        buf.extend_from_slice(&(partial.len() as u64).to_le_bytes());
        buf.extend_from_slice(partial);
    }
    let all = comm.all_gather_bytes(&buf);
    for bytes in &all {
        let mut rest = &bytes[..];
        while rest.len() >= 24 {
            let word = |b: &[u8], i: usize| {
                u64::from_le_bytes(b[i..i + 8].try_into().unwrap_or([0; 8])) as usize
            };
            let (shared, combine, len) = (word(rest, 0), word(rest, 8), word(rest, 16));
            let Some(partial) = rest.get(24..24 + len) else {
                break;
            };
            crate::ffi::combine(shared, partial, combine);
            rest = &rest[24 + len..];
        }
    }
}

/// `__cape_reduce`: inside an active region record it; otherwise (a team of one) combine now.
pub fn reduce(shared: usize, combine: usize, partial: Vec<u8>) {
    let mut t = team();
    if t.levels.iter().any(|l| l.active) {
        t.reductions.push((shared, combine, partial));
    } else {
        drop(t);
        crate::ffi::combine(shared, &partial, combine);
    }
}

/// The worksharing loop state (`__cape_loop` in C). Opaque to C code: it is declared on the
/// stack of the outlined function and used only through the `__cape_loop_*` functions.
#[repr(C)]
#[allow(non_camel_case_types)]
#[derive(Debug, Clone, Copy, Default)]
pub struct __cape_loop {
    n: u64,
    chunk: u64,
    team: u64,
    tid: u64,
    /// Number of chunks handed out so far.
    taken: u64,
    schedule: i32,
    flags: u32,
    /// Room for the dynamic schedules (window handles, counters).
    reserved: [u64; 4],
}

const LOOP_LAST: u32 = 1;

impl __cape_loop {
    /// `__cape_loop_init`. Dynamic, guided, runtime and auto run as static schedules for now:
    /// any assignment of iterations is a valid one for them.
    pub fn init(&mut self, n: u64, schedule: i32, chunk: i64) {
        let (tid, team) = {
            let t = team();
            t.levels
                .last()
                .map_or((0, 1), |l| (l.thread_num as u64, l.team_size as u64))
        };
        let chunk = match schedule {
            CAPE_SCHED_STATIC | CAPE_SCHED_DYNAMIC => chunk.max(0) as u64,
            _ => 0,
        };
        // schedule(dynamic) without a chunk means chunks of 1.
        let chunk = if schedule == CAPE_SCHED_DYNAMIC && chunk == 0 {
            1
        } else {
            chunk
        };
        *self = __cape_loop {
            n,
            chunk,
            team,
            tid,
            taken: 0,
            schedule,
            flags: 0,
            reserved: [0; 4],
        };
    }

    /// `__cape_loop_next`: the next `[lo, hi)` of this thread, or None when done.
    pub fn next_block(&mut self) -> Option<(u64, u64)> {
        let range = if self.chunk == 0 {
            if self.taken > 0 {
                None
            } else {
                static_chunks(self.n, self.team, self.tid, 0).next()
            }
        } else {
            // Chunk k of this thread is global chunk tid + k * team.
            self.taken
                .checked_mul(self.team)
                .and_then(|x| x.checked_add(self.tid))
                .and_then(|c| c.checked_mul(self.chunk))
                .filter(|&lo| lo < self.n)
                .map(|lo| (lo, lo.saturating_add(self.chunk).min(self.n)))
        };
        self.taken += 1;
        let (lo, hi) = range?;
        if hi == self.n {
            self.flags |= LOOP_LAST;
        }
        let mut t = team();
        t.max_iter = Some(t.max_iter.map_or(hi - 1, |m| m.max(hi - 1)));
        Some((lo, hi))
    }

    /// `__cape_loop_is_last`: this thread ran iteration n-1.
    pub fn is_last(&self) -> bool {
        self.flags & LOOP_LAST != 0
    }
}

// ---- OpenMP API state --------------------------------------------------------------------

pub fn omp_thread_num() -> i32 {
    team().levels.last().map_or(0, |l| l.thread_num as i32)
}

pub fn omp_num_threads() -> i32 {
    team().levels.last().map_or(1, |l| l.team_size as i32)
}

pub fn omp_max_threads() -> i32 {
    let (size, env) = runtime::with(|rt| (rt.size, rt.cfg.num_threads)).unwrap_or((1, None));
    let t = team();
    t.num_threads
        .or(env)
        .unwrap_or(size as u32)
        .min(size as u32)
        .max(1) as i32
}

pub fn omp_num_procs() -> i32 {
    runtime::with(|rt| rt.size as i32).unwrap_or(1)
}

pub fn omp_in_parallel() -> bool {
    team().levels.iter().any(|l| l.active)
}

pub fn omp_set_num_threads(n: i32) {
    if n > 0 {
        team().num_threads = Some(n as u32);
    }
}

pub fn omp_level() -> i32 {
    team().levels.len() as i32
}

pub fn omp_active_level() -> i32 {
    team().levels.iter().filter(|l| l.active).count() as i32
}

pub fn omp_ancestor_thread_num(level: i32) -> i32 {
    let t = team();
    match level {
        0 => 0,
        l if l > 0 && (l as usize) <= t.levels.len() => t.levels[l as usize - 1].thread_num as i32,
        _ => -1,
    }
}

pub fn omp_team_size(level: i32) -> i32 {
    let t = team();
    match level {
        0 => 1,
        l if l > 0 && (l as usize) <= t.levels.len() => t.levels[l as usize - 1].team_size as i32,
        _ => -1,
    }
}

pub fn omp_set_dynamic(on: bool) {
    team().dynamic = on;
}

pub fn omp_dynamic() -> bool {
    team().dynamic
}

pub fn omp_set_nested(on: bool) {
    team().nested = on;
}

pub fn omp_nested() -> bool {
    team().nested
}

pub fn omp_set_schedule(kind: i32, chunk: i32) {
    team().schedule = (kind, chunk);
}

pub fn omp_schedule() -> (i32, i32) {
    team().schedule
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schedule::static_chunks;

    fn chunks_of(n: u64, team: u64, tid: u64, chunk: u64) -> (Vec<(u64, u64)>, bool) {
        let mut l = __cape_loop {
            n,
            chunk,
            team,
            tid,
            ..Default::default()
        };
        let mut v = Vec::new();
        while let Some(r) = l.next_block() {
            v.push(r);
        }
        (v, l.is_last())
    }

    #[test]
    fn loop_matches_the_static_schedule() {
        for n in [0u64, 1, 2, 7, 10, 64, 101] {
            for team in 1..=9u64 {
                for chunk in [0u64, 1, 2, 3, 16] {
                    for tid in 0..team {
                        let (got, last) = chunks_of(n, team, tid, chunk);
                        let want: Vec<_> = static_chunks(n, team, tid, chunk).collect();
                        assert_eq!(got, want, "n={n} team={team} tid={tid} chunk={chunk}");
                        assert_eq!(last, got.last().is_some_and(|r| r.1 == n));
                    }
                }
            }
        }
    }

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
