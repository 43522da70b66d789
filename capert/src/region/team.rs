//! The team: nesting levels, the internal control variables (ICVs) and the state behind the
//! `omp_*` API, worksharing and `ordered` bookkeeping, the dynamic-loop ticket counters.

use super::ActiveRegion;
use crate::runtime;
use crate::sys::mpi::COUNTER_SLOTS;
use std::sync::{Mutex, MutexGuard};

#[derive(Debug, Clone, Copy)]
pub(super) struct Level {
    pub(super) thread_num: u32,
    pub(super) team_size: u32,
    pub(super) active: bool,
}

/// Chunk counter bookkeeping, identical on every rank: each dynamic/guided loop instance uses
/// slot `instance % COUNTER_SLOTS`, and consumes exactly `chunks + team` tickets from it (every
/// chunk once, plus one failed ticket per thread), so every rank knows each slot's next base.
#[derive(Debug)]
pub(super) struct Counters {
    pub(super) next_instance: u64,
    pub(super) base: [u64; COUNTER_SLOTS],
}

/// OpenMP "internal control variables" and the state of the current region.
#[derive(Debug)]
pub(super) struct Team {
    pub(super) levels: Vec<Level>,
    /// `omp_set_num_threads`; overrides `OMP_NUM_THREADS`.
    pub(super) num_threads: Option<u32>,
    pub(super) dynamic: bool,
    pub(super) nested: bool,
    /// `omp_set_schedule`: (omp_sched_t kind, chunk); overrides `OMP_SCHEDULE`.
    pub(super) schedule: Option<(i32, i32)>,
    pub(super) region: Option<ActiveRegion>,
    pub(super) counters: Counters,
    /// A loop with the `ordered` clause running in an active team: (nesting depth of its
    /// level, the thread that owns the chunk being run). Thread 0 runs every chunk in order;
    /// `omp_get_thread_num()` answers the owner the schedule gives the chunk.
    pub(super) ordered: Option<(usize, u32)>,
    /// Nesting depth of the level whose worksharing construct (`for`, `sections`, `single`)
    /// is running in an active team: a barrier or another worksharing construct inside it is
    /// reached by some threads only, a deadlock (orphaned code the compiler cannot see).
    pub(super) worksharing: Option<usize>,
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

pub(super) fn team() -> MutexGuard<'static, Team> {
    TEAM.lock().unwrap_or_else(|e| e.into_inner())
}

/// True when the innermost region is active (a team of more than one rank).
pub(super) fn innermost_active() -> bool {
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
