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
//!
//! The steps live in submodules that own their data: `team` (levels, ICVs, `omp_*` state),
//! `epoch` (one merge point: track -> diff -> exchange -> merge -> inject), `records`
//! (reductions, atomic updates, captures, output and heap notes carried in the merge
//! message), `constructs` (barrier, single, master, copyprivate, reductions, atomics),
//! `threadprivate`, and `replay` (fault tolerance: logged regions, replay, the log's payload).

mod checks;
pub mod constructs;
pub mod cooperative;
mod epoch;
mod lazy_point;
pub mod lock;
mod memory;
pub mod plain_writes;
#[cfg(test)]
mod protocol_tests;
mod rank_locks;
mod records;
pub mod replay;
mod scope;
mod split_diff;
mod state;
pub mod tasks;
pub mod team;
pub mod threadprivate;
pub mod threads;

pub use scope::WriteSpan;
pub use state::{try_with_state, with_state, State};

use crate::arena::set_in_active_region;
use crate::config::WriteScopeMode;
use crate::merge::Race;
use crate::runtime::Runtime;
use crate::sys::mpi::COUNTER_SLOTS;
use crate::sys::signals::{errno, set_errno};
use crate::tickpt::Tickpt;
use crate::track::PAGE_SIZE;
use epoch::{end_tracking_unchanged, merge_point, track_new_memory};
use replay::{
    ft_begin, ft_end, overlay, replay, serial_begin, serial_end, serial_resume, serial_suspend,
    LoggedSerial,
};
use std::collections::{HashMap, HashSet};
use std::time::Instant;
use team::{Counters, Level};
use threadprivate::Threadprivates;

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
    /// Reduction, atomic and capture records of the epoch, in program order.
    records: records::EpochRecords,
    /// Byte ranges excluded from the epoch's diff (reduction and atomic targets).
    excluded: Vec<(usize, usize)>,
    /// Values of atomically updated variables before this rank's first update in the epoch.
    before: HashMap<usize, Vec<u8>>,
    /// Targets of `before` that several threads of this rank updated in the epoch.
    several_threads: HashSet<usize>,
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
    /// Its merge points use the demand-driven merge (`CAPE_MERGE`, `lazy_point::choose`).
    lazy: bool,
    /// Cross-rank locks held and their logs read in the epoch (`lock.rs`).
    locks: lock::EpochLocks,
    /// This rank's threads of the team (1: the rank alone): the last merge point's diff may
    /// use them (`split_diff.rs`).
    threads: u32,
    /// `errno` of this rank's thread 0 after its share of the region; after the region's end,
    /// world rank 0's (the OpenMP initial thread's), which every rank then takes.
    errno: i32,
}

impl ActiveRegion {
    fn new(sp: usize, team_size: u32, in_team: bool) -> ActiveRegion {
        ActiveRegion {
            sp,
            team_size,
            in_team,
            epoch: 0,
            max_iter: None,
            records: records::EpochRecords::default(),
            excluded: Vec::new(),
            before: HashMap::new(),
            several_threads: HashSet::new(),
            accumulated: None,
            races: Vec::new(),
            logged: None,
            collect: false,
            captured: HashSet::new(),
            lazy: false,
            locks: lock::EpochLocks::default(),
            threads: 1,
            errno: 0,
        }
    }

    fn next_epoch(&mut self) {
        self.epoch += 1;
        self.max_iter = None;
        self.records.clear();
        self.excluded.clear();
        self.before.clear();
        self.several_threads.clear();
        self.captured.clear();
        self.locks = lock::EpochLocks::default();
    }
}

/// What the caller must do after a region.
#[derive(Debug, PartialEq, Eq)]
pub enum RegionOutcome {
    Done,
    /// `CAPE_CHECK=races` found data races (already reported): shut down with a failure.
    RacesFound,
}

/// How a region runs, decided at its start.
enum Plan {
    /// Replayed from the checkpoint log: not run.
    Replayed,
    /// A team of one rank (every rank runs it identically); `logged`: its number in the
    /// log; `threads`: the threads of a team that one rank runs alone (one rank in the world).
    Serial {
        logged: Option<u64>,
        threads: Option<Threads>,
    },
    /// An active team; `outer_serial_sp`: nested in a logged team-of-one region.
    Active {
        in_team: bool,
        outer_serial_sp: Option<usize>,
        threads: Option<Threads>,
    },
}

/// This rank's threads of a team with several threads in some rank.
struct Threads {
    count: u32,
    base: u32,
    ranks: u32,
    snapshot: threads::WorkerTeam,
}

/// The region's body: the outlined function and its argument (an address, for the threads).
#[derive(Clone, Copy)]
pub struct Body {
    pub func: extern "C" fn(*mut std::ffi::c_void),
    pub data: usize,
}

impl Body {
    fn call(self) {
        (self.func)(self.data as *mut std::ffi::c_void)
    }
}

/// Runs `body` on this rank's threads of the team (just here without `threads`).
fn run_body(body: Body, threads: Option<Threads>) -> Result<(), String> {
    match threads {
        Some(t) if t.count > 1 => {
            // thread 0's `errno` after its share, not what waiting for the others left
            let after = std::cell::Cell::new(0);
            let result = threads::run(
                t.count,
                t.base,
                t.ranks,
                t.snapshot,
                move || body.call(),
                || {
                    body.call();
                    after.set(errno());
                },
            );
            set_errno(after.get());
            result
        }
        _ => {
            body.call();
            Ok(())
        }
    }
}

/// `__cape_parallel`. `body` is the outlined function (user code): the state is borrowed
/// before and after it, never across it. `scope`: the compiler's write scope of the region
/// (None: it may write anywhere). The outlined function identifies the region for
/// `CAPE_MERGE=auto`.
pub fn parallel(
    body: Body,
    num_threads: i32,
    if_clause: bool,
    sp: usize,
    scope: Option<&[WriteSpan]>,
) -> Result<RegionOutcome, String> {
    let site = body.func as usize;
    let run = move |threads| run_body(body, threads);
    parallel_running(site, run, num_threads, if_clause, sp, scope)
}

/// A `num_threads` clause whose value is negative (libgomp stops there too, out of memory):
/// every rank evaluates it alike, so rank 0 prints one line naming the region.
pub fn refuse_negative_num_threads(num_threads: i32) -> ! {
    let rank = try_with_state(|s| s.rank_size().0).unwrap_or(0);
    crate::runtime::fatal_at_merge(
        rank,
        &format!(
            "the {} has `num_threads({num_threads})`: the number of threads must be positive",
            crate::objects::region_what()
        ),
    )
}

/// [`parallel`] with the rank's share given as code: `run(threads)` runs it on this rank's
/// threads of the team (a closure that cannot run on several threads must be given a team
/// of one thread per rank).
fn parallel_running(
    site: usize,
    run: impl FnOnce(Option<Threads>) -> Result<(), String>,
    num_threads: i32,
    if_clause: bool,
    sp: usize,
    scope: Option<&[WriteSpan]>,
) -> Result<RegionOutcome, String> {
    // the program's `errno` as the runtime's work around its code found it: the body starts
    // with the caller's, and the caller goes on with the initial thread's (world rank 0's
    // thread 0), given to every rank at the join
    let caller_errno = errno();
    let plan = with_state(|s| start(s, site, num_threads, if_clause, sp, scope))?;
    set_errno(caller_errno);
    match plan {
        Plan::Replayed => Ok(RegionOutcome::Done),
        Plan::Serial { logged, threads } => {
            run(threads)?;
            let after = errno();
            let outcome = with_state(|s| finish_serial(s, sp, logged));
            set_errno(after);
            outcome
        }
        Plan::Active {
            in_team,
            outer_serial_sp,
            threads,
        } => {
            if in_team {
                run(threads)?;
            }
            let after = errno();
            let (outcome, joined) = with_state(|s| {
                if let Some(r) = s.team.region.as_mut() {
                    r.errno = after;
                }
                finish_active(s, outer_serial_sp)
            })?;
            set_errno(joined);
            Ok(outcome)
        }
    }
}

fn start(
    s: &mut State,
    site: usize,
    num_threads: i32,
    if_clause: bool,
    sp: usize,
    scope: Option<&[WriteSpan]>,
) -> Result<Plan, String> {
    let (rank, size) = s.rank_size();
    let default_team = team::default_team_size(s);
    let threads_allowed = threads::allowed(s);
    // Checkpointing numbers every top-level region, whatever its team size, so that the
    // numbering does not depend on the rank count.
    let numbered = match s.rt.as_mut().and_then(|rt| rt.ft.as_mut()) {
        Some(ft) if s.team.levels.is_empty() => Some(ft.next_region()),
        _ => None,
    };
    if let (Some(k), Some(rt)) = (numbered, s.rt.as_mut()) {
        if rt.ft.as_ref().is_some_and(|f| f.is_replay(k)) {
            replay(rt, &mut s.threadprivates, k, sp)?;
            return Ok(Plan::Replayed);
        }
    }
    let t = &mut s.team;
    let nested = t.levels.iter().any(|l| l.active) || t.cooperative.is_some();
    let requested = if num_threads > 0 {
        num_threads as u32
    } else {
        default_team
    };
    let requested = if threads_allowed {
        threads::bounded(requested, size as u32, rank)
    } else {
        threads::capped(requested, size as u32, rank)
    };
    let spread = threads::spread(requested, size as u32, rank as u32);
    let team_size = spread.ranks;
    if !if_clause || nested || requested == 1 || team_size == 1 {
        // one rank runs the team: alone (the world is one rank) or a team of one thread
        let alone = if_clause && !nested && requested > 1;
        t.levels.push(Level {
            thread_num: 0,
            team_size: if alone { requested } else { 1 },
            ranks: 1,
            active: alone,
        });
        let threads = if alone {
            Some(Threads {
                count: requested,
                base: 0,
                ranks: 1,
                snapshot: threads::WorkerTeam::of(s),
            })
        } else {
            None
        };
        if let Some(k) = numbered {
            if let Some(rt) = s.rt.as_mut() {
                serial_begin(rt, sp, k)?;
            }
            // The arena must stay as the log will rebuild it: allocations go to libc.
            set_in_active_region(true);
            s.logged_serial = Some(LoggedSerial {
                sp,
                change: None,
                threads: threads.as_ref().map_or(1, |t| t.count),
            });
        }
        return Ok(Plan::Serial {
            logged: numbered,
            threads,
        });
    }
    let in_team = spread.count > 0;
    t.levels.push(Level {
        thread_num: spread.base,
        team_size: requested,
        ranks: team_size,
        active: true,
    });
    let threads = if requested > team_size {
        Some(Threads {
            count: spread.count,
            base: spread.base,
            ranks: team_size,
            snapshot: threads::WorkerTeam::of(s),
        })
    } else {
        None
    };
    let mut active = ActiveRegion::new(sp, team_size, in_team);
    active.logged = numbered;
    active.threads = threads.as_ref().map_or(1, |t| t.count);
    let hybrid = threads.is_some();
    let outer_serial_sp = s.logged_serial.as_ref().map(|l| l.sp);
    active.collect = outer_serial_sp.is_some();
    s.team.region = Some(active);
    if let Some(rt) = s.rt.as_mut() {
        if let Some(outer_sp) = outer_serial_sp {
            serial_suspend(rt, &mut s.logged_serial, outer_sp)?;
        }
        begin(rt, &mut s.threadprivates, sp, team_size, numbered, scope)?;
        if let Some(region) = s.team.region.as_mut() {
            // several threads in a rank: eager, on valid pages only (a page the fetch thread
            // installs for one thread must not be touched by another meanwhile)
            region.lazy = if hybrid {
                threads::validate_shared(rt, sp);
                false
            } else {
                lazy_point::choose(rt, region, site)
            };
        }
        checks::region_begin(rt, &s.threadprivates, sp, in_team);
    }
    set_in_active_region(true);
    Ok(Plan::Active {
        in_team,
        outer_serial_sp,
        threads,
    })
}

fn finish_serial(s: &mut State, sp: usize, logged: Option<u64>) -> Result<RegionOutcome, String> {
    if logged.is_none() {
        s.team.levels.pop();
        return Ok(RegionOutcome::Done);
    }
    let (before_nested, threads) = s
        .logged_serial
        .take()
        .map_or((None, 1), |l| (l.change, l.threads));
    set_in_active_region(false);
    s.team.levels.pop();
    if let Some(rt) = s.rt.as_mut() {
        serial_end(rt, &s.threadprivates, sp, before_nested, threads)?;
    }
    Ok(RegionOutcome::Done)
}

/// The end of an active region: its outcome and the `errno` every rank goes on with.
fn finish_active(
    s: &mut State,
    outer_serial_sp: Option<usize>,
) -> Result<(RegionOutcome, i32), String> {
    set_in_active_region(false);
    crate::region_heap::region_end();
    s.team.levels.pop();
    let Some(mut region) = s.team.region.take() else {
        return Err("internal error: the state of the parallel region was lost".into());
    };
    let outcome = end(s, &mut region)?;
    if let (Some(outer_sp), Some(rt)) = (outer_serial_sp, s.rt.as_mut()) {
        serial_resume(rt, outer_sp)?;
        set_in_active_region(true);
    }
    Ok((outcome, region.errno))
}

fn begin(
    rt: &mut Runtime,
    threadprivates: &mut Threadprivates,
    sp: usize,
    team_size: u32,
    logged: Option<u64>,
    scope: Option<&[WriteSpan]>,
) -> Result<(), String> {
    let t0 = Instant::now();
    rt.io.enter_region();
    if let Some(comm) = rt.comm.as_mut() {
        // Collective on the world the first time a team of this size appears.
        comm.ensure_team(team_size);
    }
    threadprivates.begin(rt.rank);
    track_new_memory(rt, sp)?;
    if let Some(target) = scope.and_then(|spans| scope::unshared_target(rt, spans)) {
        // every rank finds it: one line, from rank 0
        crate::runtime::fatal_at_merge(rt.rank, &unshared_write_error(target));
    }
    use_write_scope(rt, scope, sp);
    rt.tracker.begin_region().map_err(|e| e.to_string())?;
    rt.region_no += 1;
    if let Some(k) = logged {
        ft_begin(rt, k, sp);
    }
    rt.current.t_track += t0.elapsed();
    Ok(())
}

fn unshared_write_error(target: usize) -> String {
    let pointer = crate::objects::region_pointer_to(target, crate::sys::raw::read_listed_word)
        .map_or(String::new(), |name| format!(" `{name}`"));
    format!(
        "the {} writes through the pointer{pointer} to {target:#x}, memory the ranks do not share (not from the program's malloc, nor a global or a local: a string of the environment (`getenv`), a buffer the C library allocated, as for `asprintf`, `getline` or `strndup`, memory from `mmap`, or from a library built without capecc), so the other ranks' writes there would be lost: copy the data into memory from `malloc` first",
        crate::objects::region_what()
    )
}

/// Resolves the region's write scope (`CAPE_WRITE_SCOPE`) and limits the tracker's scans to
/// it; not with a log of every region (its fingerprint needs every write; snapshot mode
/// computes none and reads a snapshot's image from memory).
fn use_write_scope(rt: &mut Runtime, scope: Option<&[WriteSpan]>, sp: usize) {
    let mode = rt.cfg.write_scope;
    let mut resolved = std::mem::take(&mut rt.write_scope);
    rt.write_scope_known = false;
    match scope {
        Some(spans)
            if mode != WriteScopeMode::Ignore
                && rt.ft.as_ref().is_none_or(|f| f.snapshot_mode()) =>
        {
            scope::resolve(rt, spans, sp, &mut resolved);
            rt.write_scope_known = true;
            let scanned = (mode == WriteScopeMode::Scan).then_some(resolved.as_slice());
            rt.tracker.set_scope(scanned);
        }
        _ => rt.tracker.set_scope(None),
    }
    rt.write_scope = resolved;
}

/// Region end: the final merge point, then (small teams) the outsiders catch up, the
/// threadprivate copies switch to thread 0's, races are reported.
fn end(s: &mut State, r: &mut ActiveRegion) -> Result<RegionOutcome, String> {
    let State {
        rt,
        team,
        threadprivates,
        logged_serial,
    } = s;
    let Some(rt) = rt.as_mut() else {
        return Ok(RegionOutcome::Done);
    };
    if r.in_team {
        merge_point(rt, threadprivates, r, true)?;
    } else {
        end_tracking_unchanged(rt)?;
    }
    rt.tracker.set_scope(None);
    rt.write_scope_known = false;
    let t0 = Instant::now();
    let change = if rt.rank == 0 {
        r.accumulated.take()
    } else {
        None
    };
    if (r.team_size as usize) < rt.size {
        share_with_outsiders(rt, &mut team.counters, r, change.as_ref())?;
    }
    threadprivates.end(rt);
    rt.current.t_merge += t0.elapsed();
    if r.collect {
        if let Some(l) = logged_serial.as_mut() {
            l.change = Some(overlay(
                l.change.take(),
                change.clone().unwrap_or_else(|| Tickpt::new(0)),
            ));
        }
    }
    if r.logged.is_some() {
        let t1 = Instant::now();
        ft_end(rt, threadprivates, change, r.sp)?;
        rt.current.t_log += t1.elapsed();
    }
    let outcome = checks::region_end(rt, &r.races);
    rt.io.leave_region();

    if let Some(lazy) = rt.lazy.as_mut() {
        // fetches of the region and of the sequential code before it
        let (pages, waited) = lazy.take_fetch_counts();
        rt.current.lazy_fetched += pages;
        rt.current.t_fetch += waited;
    }
    let mut region = std::mem::take(&mut rt.current);
    region.regions = 1;
    if rt.cfg.stats >= 2 && rt.rank == 0 {
        crate::diag::eprint_line(&region.line(&format!("region {}", rt.region_no), None));
    }
    rt.totals.add(&region);
    Ok(outcome)
}

/// A team smaller than the world: world rank 0 broadcasts the region's accumulated changes
/// and the chunk counter bookkeeping; the ranks outside the team apply them.
fn share_with_outsiders(
    rt: &mut Runtime,
    counters: &mut Counters,
    r: &mut ActiveRegion,
    change: Option<&Tickpt>,
) -> Result<(), String> {
    let mut msg = Vec::new();
    if rt.rank == 0 {
        msg.extend_from_slice(&r.errno.to_le_bytes());
        msg.extend_from_slice(&counters.next_instance.to_le_bytes());
        for b in &counters.base {
            msg.extend_from_slice(&b.to_le_bytes());
        }
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
    let (errno_bytes, msg) = msg
        .split_at_checked(4)
        .ok_or_else(|| "internal error: short region broadcast".to_string())?;
    r.errno = i32::from_le_bytes(errno_bytes.try_into().unwrap_or([0; 4]));
    let counters_len = 8 * (COUNTER_SLOTS + 1);
    let (counter_bytes, changes) = msg
        .split_at_checked(counters_len)
        .ok_or_else(|| "internal error: short region broadcast".to_string())?;
    let word =
        |i: usize| u64::from_le_bytes(counter_bytes[i * 8..i * 8 + 8].try_into().unwrap_or([0; 8]));
    counters.next_instance = word(0);
    for slot in 0..COUNTER_SLOTS {
        counters.base[slot] = word(slot + 1);
    }
    let changes = Tickpt::decode(changes).map_err(|e| format!("bad region broadcast: {e}"))?;
    if changes.runs().next().is_some() {
        // the team may have changed the allocator in a `single` block
        rt.arena.forget_all_blocks();
    }
    // the pages the runs change that are invalid here, fetched as one batch first
    rt.tracker.fetch_invalid(changes.runs().flat_map(|run| {
        let (from, to) = (run.addr as usize, run.addr as usize + run.bytes.len());
        ((from & !(PAGE_SIZE - 1))..to).step_by(PAGE_SIZE)
    }));
    for run in changes.runs() {
        crate::region_heap::inject(rt, run.addr as usize, run.bytes);
        rt.current.bytes_injected += run.bytes.len() as u64;
    }
    Ok(())
}
