//! The region protocol: begin / run / merge points (barriers and the region end: diff, merge,
//! inject, reductions and atomic updates) plus the team state behind the OpenMP API.
//!
//! A parallel region with a team of `n > 1` runs on the first `n` ranks. Each merge point ends
//! an *epoch*: everything written to shared memory since the previous one (user globals, the
//! used arena, the user stack above the region's stack pointer) is diffed against the twins,
//! stamped with `(epoch << 40 | 1 + the largest iteration this rank ran in the epoch, rank)` so
//! that overlapping writes resolve as sequential execution would, merged with the
//! recursive-doubling allreduce over the team and injected. Reduction partials and atomic
//! updates travel inside the same merge message (as runs above every user address, one block
//! per rank), so a merge point is one collective whatever it carries; every rank then applies
//! all ranks' records in rank order: deterministic and identical everywhere.
//!
//! When the team is smaller than the world, barriers use a cached team communicator; team
//! rank 0 (world rank 0) accumulates the region's merged changes and the region end
//! broadcasts them so that the ranks outside the team end with the same memory.

use crate::allreduce::allreduce;
use crate::diff::diff_into;
use crate::merge::{merge, Race};
use crate::runtime::{self, Runtime};
use crate::sys::mpi::{CAPTURE_SLOTS, COUNTER_SLOTS};
use crate::tickpt::{Stamp, Tickpt};
use crate::track::PAGE_SIZE;
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

pub use crate::worksharing::__cape_loop;

/// Runs at or above this address carry a rank's reduction/atomic records, not memory.
const LOG_BASE: u64 = 1 << 62;
/// A rank's record block starts at `LOG_BASE + (rank << LOG_RANK_SHIFT)`.
const LOG_RANK_SHIFT: u32 = 40;
/// Stamp orders: `epoch << EPOCH_SHIFT | order within the epoch`.
const EPOCH_SHIFT: u32 = 40;
const ORDER_MASK: u64 = (1 << EPOCH_SHIFT) - 1;
/// Record header: u64 target address, u64 combiner address, u32 operand size.
const RECORD_HEADER: usize = 20;

/// True while this rank is inside an active (tracked, multi-rank) region. Heap calls then go
/// to libc: ranks run different iterations, so the arena allocator state must not change.
static IN_ACTIVE_REGION: AtomicBool = AtomicBool::new(false);
/// A logged region with a team of one in progress (every rank runs it, tracked as a whole).
/// An active region nested in it (libgomp gives it a full team) suspends that tracking:
/// world rank 0 keeps the serial part's changes so far in `change`, and the nested region's
/// merged changes are folded in after it.
struct LoggedSerial {
    sp: usize,
    change: Option<Tickpt>,
}

static LOGGED_SERIAL: Mutex<Option<LoggedSerial>> = Mutex::new(None);

fn logged_serial() -> MutexGuard<'static, Option<LoggedSerial>> {
    LOGGED_SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

pub fn in_active_region() -> bool {
    IN_ACTIVE_REGION.load(Ordering::Relaxed)
}

#[derive(Debug, Clone, Copy)]
struct Level {
    thread_num: u32,
    team_size: u32,
    active: bool,
}

/// The state of the active region in progress on this rank.
#[derive(Debug)]
struct ActiveRegion {
    /// Stack pointer at the region's entry: the stack above it is shared.
    sp: usize,
    team_size: u32,
    /// This rank runs the region (rank < team size).
    in_team: bool,
    /// Merge points passed in this region.
    epoch: u64,
    /// Largest loop iteration this rank ran in the current epoch.
    max_iter: Option<u64>,
    /// Reduction and atomic records of the epoch, in program order (see `push_record`).
    records: Vec<u8>,
    /// Byte ranges excluded from the epoch's diff (reduction and atomic targets).
    excluded: Vec<(usize, usize)>,
    /// Values of atomically updated variables before this rank's first update in the epoch.
    before: HashMap<usize, Vec<u8>>,
    /// World rank 0 of a team smaller than the world, or of a logged region: the merged
    /// changes of the region so far.
    accumulated: Option<Tickpt>,
    races: Vec<Race>,
    /// The region's number in the checkpoint log (None: not logged).
    logged: Option<u64>,
    /// Nested in a logged region with a team of one: world rank 0 collects the merged
    /// changes for that region's record.
    collect: bool,
    /// Variables this rank updated with `atomic capture` in the epoch.
    captured: HashSet<usize>,
}

impl ActiveRegion {
    fn new(sp: usize, team_size: u32, in_team: bool) -> ActiveRegion {
        ActiveRegion {
            sp,
            team_size,
            in_team,
            epoch: 0,
            max_iter: None,
            records: Vec::new(),
            excluded: Vec::new(),
            before: HashMap::new(),
            accumulated: None,
            races: Vec::new(),
            logged: None,
            collect: false,
            captured: HashSet::new(),
        }
    }

    fn next_epoch(&mut self) {
        self.epoch += 1;
        self.max_iter = None;
        self.records.clear();
        self.excluded.clear();
        self.before.clear();
        self.captured.clear();
    }
}

/// Chunk counter bookkeeping, identical on every rank: each dynamic/guided loop instance uses
/// slot `instance % COUNTER_SLOTS`, and consumes exactly `chunks + team` tickets from it (every
/// chunk once, plus one failed ticket per thread), so every rank knows each slot's next base.
#[derive(Debug)]
struct Counters {
    next_instance: u64,
    base: [u64; COUNTER_SLOTS],
}

/// OpenMP "internal control variables" and the state of the current region.
#[derive(Debug)]
struct Team {
    levels: Vec<Level>,
    /// `omp_set_num_threads`; overrides `OMP_NUM_THREADS`.
    num_threads: Option<u32>,
    dynamic: bool,
    nested: bool,
    /// `omp_set_schedule`: (omp_sched_t kind, chunk); overrides `OMP_SCHEDULE`.
    schedule: Option<(i32, i32)>,
    region: Option<ActiveRegion>,
    counters: Counters,
    /// A loop with the `ordered` clause running in an active team: (nesting depth of its
    /// level, the thread that owns the chunk being run). Thread 0 runs every chunk in order;
    /// `omp_get_thread_num()` answers the owner the schedule gives the chunk.
    ordered: Option<(usize, u32)>,
    /// Nesting depth of the level whose worksharing construct (`for`, `sections`, `single`)
    /// is running in an active team: a barrier or another worksharing construct inside it is
    /// reached by some threads only, a deadlock (orphaned code the compiler cannot see).
    worksharing: Option<usize>,
}

static TEAM: Mutex<Team> = Mutex::new(Team {
    levels: Vec::new(),
    num_threads: None,
    dynamic: false,
    nested: false,
    schedule: None,
    region: None,
    counters: Counters {
        next_instance: 0,
        base: [0; COUNTER_SLOTS],
    },
    ordered: None,
    worksharing: None,
});

fn team() -> MutexGuard<'static, Team> {
    TEAM.lock().unwrap_or_else(|e| e.into_inner())
}

/// A threadprivate variable: `stash` is this rank's own copy while sequential code shows
/// thread 0's; `master` is thread 0's value at the current region's start (for `copyin`).
#[derive(Debug)]
struct Threadprivate {
    addr: usize,
    stash: Vec<u8>,
    master: Vec<u8>,
}

static THREADPRIVATE: Mutex<Vec<Threadprivate>> = Mutex::new(Vec::new());

fn threadprivates() -> MutexGuard<'static, Vec<Threadprivate>> {
    THREADPRIVATE.lock().unwrap_or_else(|e| e.into_inner())
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
    /// Bytes of region payloads appended to the checkpoint log (rank 0).
    pub bytes_logged: u64,
    pub t_track: Duration,
    pub t_diff: Duration,
    pub t_merge: Duration,
    pub t_inject: Duration,
    pub t_reduce: Duration,
    /// Logging a region (payload, append, fsync), rank 0.
    pub t_log: Duration,
}

impl Stats {
    pub fn line(&self, label: &str) -> String {
        format!(
            "capert: stats: {label}: regions={} pages_written={} bytes_diffed={} runs={} run_bytes={} bytes_sent={} bytes_injected={} bytes_logged={} track_us={} diff_us={} merge_us={} inject_us={} reduce_us={} log_us={}",
            self.regions,
            self.pages_written,
            self.bytes_diffed,
            self.runs_local,
            self.bytes_local,
            self.bytes_sent,
            self.bytes_injected,
            self.bytes_logged,
            self.t_track.as_micros(),
            self.t_diff.as_micros(),
            self.t_merge.as_micros(),
            self.t_inject.as_micros(),
            self.t_reduce.as_micros(),
            self.t_log.as_micros(),
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
        self.bytes_logged += o.bytes_logged;
        self.t_log += o.t_log;
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
    let (rank, size, default_threads, ft_on) =
        runtime::with(|rt| (rt.rank, rt.size, rt.cfg.num_threads, rt.ft.is_some()))
            .unwrap_or((0, 1, None, false));
    // Checkpointing numbers every top-level region, whatever its team size, so that the
    // numbering does not depend on the rank count.
    let numbered = if ft_on && team().levels.is_empty() {
        runtime::with(|rt| rt.ft.as_mut().map(|f| f.next_region())).flatten()
    } else {
        None
    };
    if let Some(k) = numbered {
        let replayed = runtime::with(|rt| rt.ft.as_ref().is_some_and(|f| f.is_replay(k)));
        if replayed == Some(true) {
            return runtime::with(|rt| replay(rt, k, sp))
                .unwrap_or(Ok(()))
                .map(|()| RegionOutcome::Done);
        }
    }
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
        if let Some(k) = numbered {
            runtime::with(|rt| serial_begin(rt, sp, k)).unwrap_or(Ok(()))?;
            // The arena must stay as the log will rebuild it: allocations go to libc.
            IN_ACTIVE_REGION.store(true, Ordering::Relaxed);
            *logged_serial() = Some(LoggedSerial { sp, change: None });
            run();
            let before_nested = logged_serial().take().and_then(|l| l.change);
            IN_ACTIVE_REGION.store(false, Ordering::Relaxed);
            team().levels.pop();
            runtime::with(|rt| serial_end(rt, sp, before_nested)).unwrap_or(Ok(()))?;
            return Ok(RegionOutcome::Done);
        }
        run();
        team().levels.pop();
        return Ok(RegionOutcome::Done);
    }
    let in_team = (rank as u32) < team_size;
    t.levels.push(Level {
        thread_num: rank as u32,
        team_size,
        active: true,
    });
    let mut active = ActiveRegion::new(sp, team_size, in_team);
    active.logged = numbered;
    let outer_serial_sp = logged_serial().as_ref().map(|l| l.sp);
    active.collect = outer_serial_sp.is_some();
    t.region = Some(active);
    drop(t);

    if let Some(outer_sp) = outer_serial_sp {
        runtime::with(|rt| serial_suspend(rt, outer_sp)).unwrap_or(Ok(()))?;
    }
    runtime::with(|rt| begin(rt, sp, team_size, numbered)).unwrap_or(Ok(()))?;
    IN_ACTIVE_REGION.store(true, Ordering::Relaxed);
    if in_team {
        run();
    }
    IN_ACTIVE_REGION.store(false, Ordering::Relaxed);
    crate::region_heap::region_end();
    let region = {
        let mut t = team();
        t.levels.pop();
        t.region.take()
    };
    let Some(mut region) = region else {
        return Err("internal error: the state of the parallel region was lost".into());
    };
    let outcome = runtime::with(|rt| end(rt, &mut region)).unwrap_or(Ok(RegionOutcome::Done));
    if let Some(outer_sp) = outer_serial_sp {
        runtime::with(|rt| serial_resume(rt, outer_sp)).unwrap_or(Ok(()))?;
        IN_ACTIVE_REGION.store(true, Ordering::Relaxed);
    }
    outcome
}

/// Tracks the user stack down to the page holding `sp` and the arena claimed so far.
fn track_new_memory(rt: &mut Runtime, sp: usize) -> Result<(), String> {
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
    Ok(())
}

// ---- fault tolerance -----------------------------------------------------------------------

/// Rank 0: the fingerprint of shared memory now (globals + used arena; see `ft::fingerprint`).
fn fingerprint_now(rt: &mut Runtime) -> u64 {
    let mut valid = rt.globals.clone();
    valid.push(rt.arena.used_range());
    valid.retain(|&(s, e)| e > s);
    valid.sort_unstable();
    let dirty = rt.tracker.0.take_dirty();
    let full = !rt.tracker.0.sees_all_writes();
    let tracker = &rt.tracker.0;
    let Some(ft) = rt.ft.as_mut() else {
        return 0;
    };
    ft.fingerprint.update(&valid, &dirty, full, |page| {
        tracker.contains(page).then(|| tracker.memory(page))
    })
}

/// Region begin of a logged region, after the tracker's begin: rank 0 notes the fingerprint.
fn ft_begin(rt: &mut Runtime, k: u64) {
    if rt.ft.as_ref().is_some_and(|f| f.rank0()) {
        let fp = fingerprint_now(rt);
        if let Some(ft) = rt.ft.as_mut() {
            ft.begin_logged(k, fp);
        }
    }
}

/// Region end of a logged region (rank 0): the net change plus thread 0's threadprivate
/// values go to the log.
fn ft_end(rt: &mut Runtime, change: Option<Tickpt>, sp: usize) -> Result<(), String> {
    if !rt.ft.as_ref().is_some_and(|f| f.rank0()) {
        crate::sys::ft::take_signal_request();
        return Ok(());
    }
    let ranges = shared_ranges(rt, sp);
    let Some(ft) = rt.ft.as_mut() else {
        return Ok(());
    };
    let mut change = compact(&change.unwrap_or_else(|| Tickpt::new(0)), &ranges);
    let tps = threadprivates();
    if !tps.is_empty() {
        let mut values = Tickpt::new(0);
        let latest = Stamp {
            order: u64::MAX,
            rank: u32::MAX,
        };
        for tp in tps.iter() {
            values.push(
                tp.addr as u64,
                latest,
                &read_memory(tp.addr, tp.stash.len()),
            );
        }
        change = merge(&change, &values, None);
    }
    drop(tps);
    rt.current.bytes_logged += change.encoded_len() as u64;
    ft.end_logged(&change)
}

/// Joins runs separated by fewer than `GAP` bytes of the same shared range, filling the gap
/// with current memory (the gap did not change, so replaying it writes what is already
/// there): a run header costs 24 bytes in TICKPT v1, and diffs of floating-point arrays
/// give many short runs.
fn compact(change: &Tickpt, shared: &[(usize, usize)]) -> Tickpt {
    const GAP: usize = 32;
    let mut out = Tickpt::new(change.region);
    let stamp = Stamp { order: 0, rank: 0 };
    let mut cur: Option<(usize, Vec<u8>)> = None;
    for run in change.runs() {
        let addr = run.addr as usize;
        if let Some((start, bytes)) = cur.as_mut() {
            let end = *start + bytes.len();
            let same_range = shared.iter().any(|&(s, e)| s <= end && addr <= e);
            if addr >= end && addr - end < GAP && same_range {
                bytes.extend_from_slice(&read_memory(end, addr - end));
                bytes.extend_from_slice(run.bytes);
                continue;
            }
            out.push(*start as u64, stamp, bytes);
        }
        cur = Some((addr, run.bytes.to_vec()));
    }
    if let Some((start, bytes)) = cur {
        out.push(start as u64, stamp, &bytes);
    }
    out
}

/// A region of the log: not run; every rank injects its logged net change after rank 0
/// checked the fingerprint of the state before it.
fn replay(rt: &mut Runtime, k: u64, sp: usize) -> Result<(), String> {
    // Keep the tracker's bookkeeping as if the region ran (twins synced, ranges added).
    track_new_memory(rt, sp)?;
    rt.tracker.0.begin_region().map_err(|e| e.to_string())?;
    let mut written = Vec::new();
    rt.tracker
        .0
        .end_region(&mut written)
        .map_err(|e| e.to_string())?;
    rt.tracker.0.commit(&written);
    rt.tracker.0.finish_region();
    let mut msg = Vec::new();
    if rt.rank == 0 {
        let fp = fingerprint_now(rt);
        let shared = replay_ranges(rt, sp);
        let Some(ft) = rt.ft.as_mut() else {
            return Ok(());
        };
        match ft.replay_payload(k, fp, &shared) {
            Ok(payload) => {
                msg.push(0);
                msg.extend_from_slice(payload);
            }
            Err(e) => {
                msg.push(1);
                msg.extend_from_slice(e.as_bytes());
            }
        }
        if k == ft.replay_count() {
            ft.replay_done();
        }
    }
    if let Some(comm) = rt.comm.as_ref() {
        comm.broadcast_from_root(&mut msg);
    }
    if msg.first() != Some(&0) {
        let text = String::from_utf8_lossy(msg.get(1..).unwrap_or(&[])).into_owned();
        runtime::stop_all(rt.comm.as_mut(), rt.rank, &text);
    }
    let change = Tickpt::decode(&msg[1..]).map_err(|e| format!("bad replayed region: {e}"))?;
    // Rank 0 checked every run against the shared ranges. A logged `single`/`master` block may
    // have grown the heap: those pages are not tracked yet and are written directly.
    for run in change.runs() {
        crate::region_heap::inject(rt, run.addr as usize, run.bytes);
    }
    // Threadprivate copies of other threads are not logged: they restart as thread 0's.
    for tp in threadprivates().iter_mut() {
        tp.stash = read_memory(tp.addr, tp.stash.len());
    }
    Ok(())
}

/// A logged region with a team of one (every rank runs it): tracked like an active region.
fn serial_begin(rt: &mut Runtime, sp: usize, k: u64) -> Result<(), String> {
    let t0 = Instant::now();
    crate::ft::output::direct();
    track_new_memory(rt, sp)?;
    rt.tracker.0.begin_region().map_err(|e| e.to_string())?;
    ft_begin(rt, k);
    rt.current.t_track += t0.elapsed();
    Ok(())
}

/// The changes of a logged team-of-one region's serial part since its tracking (re)started:
/// world rank 0 diffs them, every rank ends the tracking.
fn serial_diff(rt: &mut Runtime, sp: usize) -> Result<Tickpt, String> {
    let t0 = Instant::now();
    let mut written = Vec::new();
    rt.tracker
        .0
        .end_region(&mut written)
        .map_err(|e| e.to_string())?;
    let mut change = Tickpt::new(0);
    if rt.rank == 0 {
        let ranges = shared_ranges(rt, sp);
        let stamp = Stamp { order: 0, rank: 0 };
        rt.current.bytes_diffed += diff_written(rt, &written, &ranges, &[], stamp, &mut change);
    }
    rt.tracker.0.commit(&written);
    rt.tracker.0.finish_region();
    rt.current.t_diff += t0.elapsed();
    Ok(change)
}

/// `later` over `earlier`, whatever their stamps (they come from separate merges).
fn overlay(earlier: Option<Tickpt>, later: Tickpt) -> Tickpt {
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
fn serial_suspend(rt: &mut Runtime, sp: usize) -> Result<(), String> {
    let change = serial_diff(rt, sp)?;
    if let Some(l) = logged_serial().as_mut() {
        l.change = Some(overlay(l.change.take(), change));
    }
    Ok(())
}

/// The nested active region ended: the serial part's tracking starts again.
fn serial_resume(rt: &mut Runtime, sp: usize) -> Result<(), String> {
    track_new_memory(rt, sp)?;
    rt.tracker.0.begin_region().map_err(|e| e.to_string())
}

fn serial_end(rt: &mut Runtime, sp: usize, before_nested: Option<Tickpt>) -> Result<(), String> {
    let change = overlay(before_nested, serial_diff(rt, sp)?);
    crate::ft::output::piped();
    ft_end(rt, Some(change), sp)?;
    let mut region = std::mem::take(&mut rt.current);
    region.regions = 1;
    rt.totals.add(&region);
    Ok(())
}

/// `cape_checkpoint_now`.
pub fn checkpoint_now() -> i32 {
    let inside = !team().levels.is_empty();
    let result = runtime::with(|rt| {
        let rank0 = rt.rank == 0;
        let ft = rt.ft.as_mut()?;
        if inside {
            ft.request();
            return Some(Ok(1));
        }
        if !rank0 {
            return Some(Ok(0));
        }
        Some(ft.flush().map(|()| 0))
    })
    .flatten();
    match result {
        None => -1,
        Some(Ok(v)) => v,
        Some(Err(e)) => runtime::fatal(&e),
    }
}

/// `cape_checkpoint_regions`.
pub fn checkpoint_regions() -> i64 {
    let inside = !team().levels.is_empty();
    runtime::with(|rt| {
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
    .flatten()
    .unwrap_or(-1)
}

fn begin(rt: &mut Runtime, sp: usize, team_size: u32, logged: Option<u64>) -> Result<(), String> {
    let t0 = Instant::now();
    rt.io.enter_region();
    if let Some(comm) = rt.comm.as_mut() {
        // Collective on the world the first time a team of this size appears.
        comm.ensure_team(team_size);
    }
    threadprivate_begin(rt.rank);
    track_new_memory(rt, sp)?;
    rt.tracker.0.begin_region().map_err(|e| e.to_string())?;
    rt.region_no += 1;
    if let Some(k) = logged {
        ft_begin(rt, k);
    }
    rt.current.t_track += t0.elapsed();
    Ok(())
}

/// Diffs the written pages against their twins inside `ranges` minus `excluded` (sorted) into
/// `out`; returns the bytes compared.
fn diff_written(
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
        let mem = rt.tracker.0.memory(page);
        let twin = rt.tracker.0.twin(page);
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

/// Where a logged region may write: shared memory as it is now, except that the whole arena
/// counts (a logged `single`/`master` block may have grown the heap). The arena is our own
/// fixed mapping for application data only, so this admits no runtime or library memory.
fn replay_ranges(rt: &Runtime, sp: usize) -> Vec<(usize, usize)> {
    let base = rt.arena.base();
    let mut ranges = shared_ranges(rt, sp);
    ranges.retain(|&(s, _)| s != base);
    ranges.push((base, rt.arena.limit()));
    ranges.sort_unstable();
    ranges
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

/// The merge message id of an epoch: ranks in different epochs must never pair up.
fn message_id(region_no: u64, epoch: u64) -> u64 {
    region_no << 24 | (epoch & 0xff_ffff)
}

/// Ends the current epoch of `r` on a rank of its team: diff, one allreduce over the team,
/// inject, apply every rank's reduction/atomic records. Unless `last`, tracking restarts so
/// that the next epoch diffs against the merged state.
fn merge_point(rt: &mut Runtime, r: &mut ActiveRegion, last: bool) -> Result<(), String> {
    let t0 = Instant::now();
    let mut written = Vec::new();
    rt.tracker
        .0
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
    excluded.extend(threadprivate_ranges());
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
        push_record(&mut r.records, 0, OUTPUT_RECORD, &printed);
    }
    if crate::region_heap::take_epoch_use() {
        push_record(&mut r.records, 0, HEAP_RECORD, &[]);
    }
    if !r.records.is_empty() {
        let at = LOG_BASE + (u64::from(me) << LOG_RANK_SHIFT);
        local.push(at, Stamp { order: 0, rank: me }, &r.records);
    }
    rt.tracker.0.commit(&written);
    rt.tracker.0.finish_region();
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
    let mut records: Vec<(u64, Vec<u8>)> = Vec::new();
    for run in merged.runs() {
        if run.addr >= LOG_BASE {
            let from = (run.addr - LOG_BASE) >> LOG_RANK_SHIFT;
            match records.last_mut() {
                Some((rank, bytes)) if *rank == from => bytes.extend_from_slice(run.bytes),
                _ => records.push((from, run.bytes.to_vec())),
            }
        } else if run.stamp.rank != me {
            crate::region_heap::inject(rt, run.addr as usize, run.bytes);
            rt.current.bytes_injected += run.bytes.len() as u64;
        }
    }
    let t4 = Instant::now();
    // Atomic updates: back to the value before the epoch, then every rank's updates in order.
    for (&addr, bytes) in &r.before {
        write_memory(addr, bytes);
    }
    let mut targets = Vec::new();
    let mut captured = Vec::new();
    let mut printed = Vec::new();
    let mut heap_users = Vec::new();
    for (rank, block) in &records {
        if apply_records(block, &mut targets, &mut captured, &mut printed) {
            heap_users.push(*rank);
        }
    }
    if heap_users.len() > 1 {
        runtime::fatal_at_merge(rt.rank, &crate::region_heap::several_users(&heap_users));
    }
    // the arena pages claimed in the epoch (by the rank that allocated) are now the same
    // everywhere: track them from here on
    track_new_memory(rt, r.sp)?;
    if rt.rank == 0 {
        rt.io.print_for_others(&printed);
    }
    if !captured.is_empty() {
        // every rank of the team saw the same records, so every one of them gets here
        let slots = capture_slots(&mut captured)?;
        if let Some(comm) = rt.comm.as_ref() {
            comm.capture_reset(r.team_size, &slots);
        }
    }
    let t5 = Instant::now();

    let world = rt.size;
    if rt.rank == 0 && ((r.team_size as usize) < world || r.logged.is_some() || r.collect) {
        accumulate(r, &merged, &mut targets, id);
    }
    rt.current.t_track += t1 - t0;
    rt.current.t_diff += t2 - t1;
    rt.current.t_merge += t3 - t2;
    rt.current.t_inject += t4 - t3;
    rt.current.t_reduce += t5 - t4;
    if !last {
        rt.tracker.0.begin_region().map_err(|e| e.to_string())?;
        r.next_epoch();
    }
    Ok(())
}

/// Team rank 0 of a small team: folds the epoch's merged memory runs and the final values of
/// the reduction/atomic targets into the region's accumulated changes.
fn accumulate(r: &mut ActiveRegion, merged: &Tickpt, targets: &mut [(usize, usize)], id: u64) {
    let mut epoch_runs = Tickpt::new(id);
    for run in merged.runs().filter(|run| run.addr < LOG_BASE) {
        epoch_runs.push(run.addr, run.stamp, run.bytes);
    }
    targets.sort_unstable();
    let mut hulls: Vec<(usize, usize)> = Vec::new();
    for &(s, e) in targets.iter() {
        match hulls.last_mut() {
            Some(last) if s <= last.1 => last.1 = last.1.max(e),
            _ => hulls.push((s, e)),
        }
    }
    let mut finals = Tickpt::new(id);
    let latest = Stamp {
        order: r.epoch << EPOCH_SHIFT | ORDER_MASK,
        rank: u32::MAX,
    };
    for (s, e) in hulls {
        finals.push(s as u64, latest, &read_memory(s, e - s));
    }
    let step = merge(&epoch_runs, &finals, None);
    r.accumulated = Some(match r.accumulated.take() {
        Some(acc) => merge(&acc, &step, None),
        None => step,
    });
}

use crate::ffi::{read_memory, write_memory};

/// The "combiner" of a record that carries what a rank printed in the epoch (no function
/// lives at address 1).
const OUTPUT_RECORD: usize = 1;
/// The "combiner" of the record of a rank that changed the arena allocator in the epoch.
const HEAP_RECORD: usize = 2;

/// Appends one reduction/atomic record: target, combiner, operand.
fn push_record(records: &mut Vec<u8>, addr: usize, combine: usize, operand: &[u8]) {
    records.extend_from_slice(&(addr as u64).to_le_bytes());
    records.extend_from_slice(&(combine as u64).to_le_bytes());
    records.extend_from_slice(&(operand.len() as u32).to_le_bytes());
    records.extend_from_slice(operand);
}

/// Splits a record block into (target, combiner, operand); stops at a malformed tail.
fn parse_records(mut block: &[u8]) -> Vec<(usize, usize, &[u8])> {
    let mut out = Vec::new();
    while block.len() >= RECORD_HEADER {
        let word =
            |i: usize| u64::from_le_bytes(block[i..i + 8].try_into().unwrap_or([0; 8])) as usize;
        let (addr, combine) = (word(0), word(8));
        let len = u32::from_le_bytes(block[16..20].try_into().unwrap_or([0; 4])) as usize;
        let Some(operand) = block.get(RECORD_HEADER..RECORD_HEADER + len) else {
            break;
        };
        out.push((addr, combine, operand));
        block = &block[RECORD_HEADER + len..];
    }
    out
}

/// Applies one rank's records in order; collects the target byte ranges, the variables
/// updated by `atomic capture` (records without combiner) and the rank's printed output.
/// Returns whether the rank changed the arena allocator.
fn apply_records(
    block: &[u8],
    targets: &mut Vec<(usize, usize)>,
    captured: &mut Vec<usize>,
    printed: &mut Vec<u8>,
) -> bool {
    let mut heap_used = false;
    for (addr, combine, operand) in parse_records(block) {
        match combine {
            0 => captured.push(addr),
            OUTPUT_RECORD => printed.extend_from_slice(operand),
            HEAP_RECORD => heap_used = true,
            _ => {
                crate::ffi::combine(addr, operand, combine);
                targets.push((addr, addr + operand.len()));
            }
        }
    }
    heap_used
}

/// Region end: the final merge point, then (small teams) the outsiders catch up, the
/// threadprivate copies switch to thread 0's, races are reported.
fn end(rt: &mut Runtime, r: &mut ActiveRegion) -> Result<RegionOutcome, String> {
    if r.in_team {
        merge_point(rt, r, true)?;
    } else {
        let mut written = Vec::new();
        rt.tracker
            .0
            .end_region(&mut written)
            .map_err(|e| e.to_string())?;
        rt.tracker.0.commit(&written);
        rt.tracker.0.finish_region();
    }
    let t0 = Instant::now();
    let change = if rt.rank == 0 {
        r.accumulated.take()
    } else {
        None
    };
    if (r.team_size as usize) < rt.size {
        share_with_outsiders(rt, r, change.as_ref())?;
    }
    threadprivate_end(rt);
    rt.current.t_merge += t0.elapsed();
    if r.collect {
        if let Some(l) = logged_serial().as_mut() {
            l.change = Some(overlay(
                l.change.take(),
                change.clone().unwrap_or_else(|| Tickpt::new(0)),
            ));
        }
    }
    if r.logged.is_some() {
        let t1 = Instant::now();
        ft_end(rt, change, r.sp)?;
        rt.current.t_log += t1.elapsed();
    }
    let outcome = if rt.cfg.check_races {
        report_races(rt, &r.races)
    } else {
        RegionOutcome::Done
    };
    rt.io.leave_region();

    let mut region = std::mem::take(&mut rt.current);
    region.regions = 1;
    if rt.cfg.stats >= 2 && rt.rank == 0 {
        crate::io::eprint_line(&region.line(&format!("region {}", rt.region_no)));
    }
    rt.totals.add(&region);
    Ok(outcome)
}

/// A team smaller than the world: world rank 0 broadcasts the region's accumulated changes
/// and the chunk counter bookkeeping; the ranks outside the team apply them.
fn share_with_outsiders(
    rt: &mut Runtime,
    r: &mut ActiveRegion,
    change: Option<&Tickpt>,
) -> Result<(), String> {
    let mut msg = Vec::new();
    if rt.rank == 0 {
        let t = team();
        msg.extend_from_slice(&t.counters.next_instance.to_le_bytes());
        for b in &t.counters.base {
            msg.extend_from_slice(&b.to_le_bytes());
        }
        drop(t);
        match change {
            Some(c) => c.encode_into(&mut msg),
            None => Tickpt::new(rt.region_no).encode_into(&mut msg),
        }
    }
    let Some(comm) = rt.comm.as_mut() else {
        return Ok(());
    };
    comm.broadcast_from_root(&mut msg);
    if r.in_team {
        return Ok(());
    }
    let counters_len = 8 * (COUNTER_SLOTS + 1);
    let (counters, changes) = msg
        .split_at_checked(counters_len)
        .ok_or_else(|| "internal error: short region broadcast".to_string())?;
    let word =
        |i: usize| u64::from_le_bytes(counters[i * 8..i * 8 + 8].try_into().unwrap_or([0; 8]));
    {
        let mut t = team();
        t.counters.next_instance = word(0);
        for slot in 0..COUNTER_SLOTS {
            t.counters.base[slot] = word(slot + 1);
        }
    }
    let changes = Tickpt::decode(changes).map_err(|e| format!("bad region broadcast: {e}"))?;
    for run in changes.runs() {
        crate::region_heap::inject(rt, run.addr as usize, run.bytes);
        rt.current.bytes_injected += run.bytes.len() as u64;
    }
    Ok(())
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

// ---- constructs inside a region ------------------------------------------------------------

/// True when the innermost region is active (a team of more than one rank).
fn innermost_active() -> bool {
    team().levels.last().is_some_and(|l| l.active)
}

/// A worksharing construct starts on this thread (`what` names it for the error).
pub fn worksharing_begin(what: &str) -> Result<(), String> {
    let mut t = team();
    let depth = t.levels.len();
    if !t.levels.last().is_some_and(|l| l.active) {
        return Ok(());
    }
    if t.worksharing == Some(depth) {
        return Err(format!(
            "{what} ran inside another worksharing construct (`for`, `sections` or `single`) \
             of the same parallel region, which OpenMP forbids: not every thread reaches it; \
             move it out of the enclosing construct"
        ));
    }
    t.worksharing = Some(depth);
    Ok(())
}

/// The worksharing construct of the innermost level ended (before its barrier).
pub fn worksharing_end() {
    let mut t = team();
    if t.worksharing == Some(t.levels.len()) {
        t.worksharing = None;
    }
}

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

/// An `ordered` loop starts in an active team (thread 0 will run all of it).
pub fn ordered_loop_begin() {
    let mut t = team();
    let depth = t.levels.len();
    t.ordered = Some((depth, 0));
}

/// Thread 0 of an `ordered` loop runs a chunk that the schedule gives to thread `owner`.
pub fn ordered_owner(owner: u32) {
    let mut t = team();
    if let Some((_, tid)) = t.ordered.as_mut() {
        *tid = owner;
    }
}

/// The `ordered` loop of the innermost level ended.
pub fn ordered_loop_end() {
    team().ordered = None;
}

/// `#pragma omp ordered` may run here: outside an active team (a team of one, sequential
/// code), or inside a loop with the `ordered` clause of the innermost level.
pub fn ordered_construct_allowed() -> bool {
    let t = team();
    let depth = t.levels.len();
    match t.levels.last() {
        Some(l) if l.active => t.ordered.is_some_and(|(d, _)| d == depth),
        _ => true,
    }
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
pub fn reduce(shared: usize, combine: usize, partial: Vec<u8>) {
    let mut t = team();
    let active = t.levels.last().is_some_and(|l| l.active);
    match t.region.as_mut() {
        Some(r) if active => {
            push_record(&mut r.records, shared, combine, &partial);
            r.excluded.push((shared, shared + partial.len()));
        }
        _ => {
            drop(t);
            crate::ffi::combine(shared, &partial, combine);
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
pub fn atomic_update(addr: usize, combine: usize, operand: Vec<u8>) {
    if is_shared_in_active_region(addr, operand.len()) {
        let mut t = team();
        if let Some(r) = t.region.as_mut() {
            if let std::collections::hash_map::Entry::Vacant(slot) = r.before.entry(addr) {
                slot.insert(read_memory(addr, operand.len()));
                r.excluded.push((addr, addr + operand.len()));
            }
            push_record(&mut r.records, addr, combine, &operand);
        }
    }
    crate::ffi::combine(addr, &operand, combine);
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
            // a record without combiner tells every rank which cells to empty at the merge
            push_record(&mut r.records, addr, 0, &[]);
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

/// The capture cells of an epoch, from every rank's records: the slots to empty, or an error
/// when two variables share one (their addresses differ by a multiple of CAPTURE_SLOTS).
fn capture_slots(addrs: &mut Vec<usize>) -> Result<Vec<usize>, String> {
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

/// Inside a region of more than one rank (where locks cannot exclude across processes).
pub fn in_team_region() -> bool {
    team().levels.iter().any(|l| l.active)
}

/// The calling thread's team: (thread number, team size) of the innermost region.
pub fn current_team() -> (u64, u64) {
    team().levels.last().map_or((0, 1), |l| {
        (u64::from(l.thread_num), u64::from(l.team_size))
    })
}

/// A loop of this rank ran iteration `iter` (for the epoch's stamp).
pub fn note_iteration(iter: u64) {
    let mut t = team();
    if let Some(r) = t.region.as_mut() {
        r.max_iter = Some(r.max_iter.map_or(iter, |m| m.max(iter)));
    }
}

/// A new dynamic/guided loop instance of `chunks` chunks in a team of `team_size`:
/// (counter slot, ticket base).
pub fn counter_instance(chunks: u64, team_size: u64) -> (usize, u64) {
    let mut t = team();
    let slot = (t.counters.next_instance % COUNTER_SLOTS as u64) as usize;
    t.counters.next_instance += 1;
    let base = t.counters.base[slot];
    t.counters.base[slot] = base.wrapping_add(chunks).wrapping_add(team_size);
    (slot, base)
}

/// The next ticket of counter `slot` (one-sided fetch-and-add on rank 0).
pub fn fetch_ticket(slot: usize) -> u64 {
    runtime::with(|rt| rt.comm.as_ref().map_or(0, |c| c.fetch_ticket(slot))).unwrap_or(0)
}

/// `schedule(runtime)`: `omp_set_schedule`, else `OMP_SCHEDULE`, else static.
pub fn runtime_schedule() -> (i32, i32) {
    let env = runtime::with(|rt| rt.cfg.schedule).flatten();
    team().schedule.or(env).unwrap_or((1, 0))
}

// ---- threadprivate -------------------------------------------------------------------------

/// `__cape_threadprivate`: may run before start-up (from a C constructor).
pub fn threadprivate(addr: usize, size: usize) {
    let mut tps = threadprivates();
    if size == 0 || tps.iter().any(|tp| tp.addr == addr) {
        return;
    }
    // Every thread's copy starts with the variable's initial value.
    let stash = read_memory(addr, size);
    tps.push(Threadprivate {
        addr,
        master: stash.clone(),
        stash,
    });
    tps.sort_by_key(|tp| tp.addr);
}

fn threadprivate_ranges() -> Vec<(usize, usize)> {
    threadprivates()
        .iter()
        .map(|tp| (tp.addr, tp.addr + tp.stash.len()))
        .collect()
}

/// Region begin: remember thread 0's values; ranks other than 0 get their own copies back.
fn threadprivate_begin(rank: usize) {
    for tp in threadprivates().iter_mut() {
        tp.master = read_memory(tp.addr, tp.stash.len());
        if rank != 0 {
            write_memory(tp.addr, &tp.stash);
        }
    }
}

/// Region end: every rank keeps its own copy aside and shows thread 0's.
fn threadprivate_end(rt: &mut Runtime) {
    let mut tps = threadprivates();
    if tps.is_empty() {
        return;
    }
    let mut values = Vec::new();
    for tp in tps.iter() {
        values.extend_from_slice(&read_memory(tp.addr, tp.stash.len()));
    }
    if let Some(comm) = rt.comm.as_ref() {
        comm.broadcast_from_root(&mut values);
    }
    if rt.rank == 0 {
        return;
    }
    let mut at = 0;
    for tp in tps.iter_mut() {
        let len = tp.stash.len();
        tp.stash = read_memory(tp.addr, len);
        if let Some(v) = values.get(at..at + len) {
            write_memory(tp.addr, v);
        }
        at += len;
    }
}

/// `__cape_copyin`: thread 0's value at the region's start, on this thread.
pub fn copyin(addr: usize, size: usize) {
    let rank = runtime::with(|rt| rt.rank).unwrap_or(0);
    if rank == 0 || !innermost_active() {
        return;
    }
    let tps = threadprivates();
    for tp in tps.iter() {
        let end = tp.addr + tp.master.len();
        if addr >= tp.addr && addr + size <= end {
            let from = addr - tp.addr;
            write_memory(addr, &tp.master[from..from + size]);
            return;
        }
    }
}

// ---- OpenMP API state --------------------------------------------------------------------

pub fn omp_thread_num() -> i32 {
    let t = team();
    match t.ordered {
        Some((depth, owner)) if depth == t.levels.len() => owner as i32,
        _ => t.levels.last().map_or(0, |l| l.thread_num as i32),
    }
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
    // Drop the `omp_sched_monotonic` modifier bit.
    let kind = kind & 0x7fff_ffff;
    if (1..=4).contains(&kind) {
        team().schedule = Some((kind, chunk.max(0)));
    }
}

pub fn omp_schedule() -> (i32, i32) {
    runtime_schedule()
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
