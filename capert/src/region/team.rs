//! The team: nesting levels, the internal control variables (ICVs) and the state behind the
//! `omp_*` API, worksharing and `ordered` bookkeeping, the dynamic-loop ticket counters.

use super::{ActiveRegion, State};
use crate::config::SCHED_MONOTONIC;
use crate::sys::mpi::COUNTER_SLOTS;

#[derive(Debug, Clone, Copy)]
pub(super) struct Level {
    pub(super) thread_num: u32,
    pub(super) team_size: u32,
    /// Ranks that run the team's threads (fewer than `team_size` with several threads per
    /// rank, region/threads.rs).
    pub(super) ranks: u32,
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

/// `omp_get_supported_active_levels`: libgomp's.
pub const SUPPORTED_ACTIVE_LEVELS: i32 = 255;

/// OpenMP "internal control variables" and the state of the current region.
#[derive(Debug)]
pub struct Team {
    pub(super) levels: Vec<Level>,
    /// `omp_set_num_threads`; overrides `OMP_NUM_THREADS`.
    pub(super) num_threads: Option<u32>,
    pub(super) dynamic: bool,
    /// `omp_set_max_active_levels` (`omp_set_nested` sets it too, as libgomp does); nesting
    /// is on when it is above 1
    pub(super) max_active_levels: i32,
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
    /// the `single` that spreads its tasks over the team (region/tasks.rs)
    pub(super) spread: super::tasks::Spread,
    /// the cooperative team in progress (region/cooperative.rs)
    pub(super) cooperative: Option<super::cooperative::Cooperative>,
}

impl Default for Team {
    fn default() -> Team {
        Team::new()
    }
}

impl Team {
    pub const fn new() -> Team {
        Team {
            levels: Vec::new(),
            num_threads: None,
            dynamic: false,
            max_active_levels: 1,
            schedule: None,
            region: None,
            counters: Counters {
                next_instance: 0,
                base: [0; COUNTER_SLOTS],
            },
            ordered: None,
            worksharing: None,
            spread: super::tasks::Spread::new(),
            cooperative: None,
        }
    }

    /// True when the innermost region is active (a team of more than one rank).
    pub(super) fn innermost_active(&self) -> bool {
        self.levels.last().is_some_and(|l| l.active)
    }

    /// A worksharing construct starts on this thread (`what` names it for the error).
    pub fn worksharing_begin(&mut self, what: &str) -> Result<(), String> {
        let depth = self.levels.len();
        if !self.levels.last().is_some_and(|l| l.active) {
            return Ok(());
        }
        if self.worksharing == Some(depth) {
            return Err(format!(
                "{what} ran inside another worksharing construct (`for`, `sections` or `single`) \
                 of the same parallel region, which OpenMP forbids: not every thread reaches it; \
                 move it out of the enclosing construct"
            ));
        }
        self.worksharing = Some(depth);
        Ok(())
    }

    /// The worksharing construct of the innermost level ended (before its barrier).
    pub fn worksharing_end(&mut self) {
        if self.worksharing == Some(self.levels.len()) {
            self.worksharing = None;
        }
    }

    /// An `ordered` loop starts in an active team (thread 0 will run all of it).
    pub fn ordered_loop_begin(&mut self) {
        let depth = self.levels.len();
        self.ordered = Some((depth, 0));
    }

    /// Thread 0 of an `ordered` loop runs a chunk that the schedule gives to thread `owner`.
    pub fn ordered_owner(&mut self, owner: u32) {
        if let Some((_, tid)) = self.ordered.as_mut() {
            *tid = owner;
        }
    }

    /// The `ordered` loop of the innermost level ended.
    pub fn ordered_loop_end(&mut self) {
        self.ordered = None;
    }

    /// `#pragma omp ordered` may run here: outside an active team (a team of one, sequential
    /// code), or inside a loop with the `ordered` clause of the innermost level.
    pub fn ordered_construct_allowed(&self) -> bool {
        let depth = self.levels.len();
        match self.levels.last() {
            Some(l) if l.active => self.ordered.is_some_and(|(d, _)| d == depth),
            _ => true,
        }
    }

    /// The innermost region runs several threads in some rank (its loops' dynamic and guided
    /// schedules then hand out chunks statically, the same on every rank).
    pub fn innermost_hybrid(&self) -> bool {
        self.levels
            .last()
            .is_some_and(|l| l.active && l.team_size > l.ranks)
    }

    /// Inside a region of more than one rank (where locks cannot exclude across processes).
    pub fn in_team_region(&self) -> bool {
        self.levels.iter().any(|l| l.active)
    }

    /// The calling thread's team: (thread number, team size) of the innermost region.
    pub fn current_team(&self) -> (u64, u64) {
        self.levels.last().map_or((0, 1), |l| {
            (u64::from(l.thread_num), u64::from(l.team_size))
        })
    }

    /// A loop of this rank ran iteration `iter` (for the epoch's stamp).
    pub fn note_iteration(&mut self, iter: u64) {
        match self.region.as_mut() {
            Some(r) => r.max_iter = Some(r.max_iter.map_or(iter, |m| m.max(iter))),
            // a worker thread of the rank: its thread 0 takes it at the merge point
            None => super::threads::note_iteration(iter),
        }
    }

    /// A new dynamic/guided loop instance of `chunks` chunks in a team of `team_size`:
    /// (counter slot, ticket base).
    pub fn counter_instance(&mut self, chunks: u64, team_size: u64) -> (usize, u64) {
        let slot = (self.counters.next_instance % COUNTER_SLOTS as u64) as usize;
        self.counters.next_instance += 1;
        let base = self.counters.base[slot];
        self.counters.base[slot] = base.wrapping_add(chunks).wrapping_add(team_size);
        (slot, base)
    }

    pub fn omp_thread_num(&self) -> i32 {
        match self.ordered {
            Some((depth, owner)) if depth == self.levels.len() => owner as i32,
            _ => self.levels.last().map_or(0, |l| l.thread_num as i32),
        }
    }

    pub fn omp_num_threads(&self) -> i32 {
        self.levels.last().map_or(1, |l| l.team_size as i32)
    }

    pub fn omp_in_parallel(&self) -> bool {
        self.levels.iter().any(|l| l.active) || self.cooperative.is_some()
    }

    pub fn omp_set_num_threads(&mut self, n: i32) {
        if n > 0 {
            self.num_threads = Some(n as u32);
        }
    }

    pub fn omp_level(&self) -> i32 {
        self.levels.len() as i32
    }

    pub fn omp_active_level(&self) -> i32 {
        self.levels.iter().filter(|l| l.active).count() as i32
    }

    pub fn omp_ancestor_thread_num(&self, level: i32) -> i32 {
        match level {
            0 => 0,
            l if l > 0 && (l as usize) <= self.levels.len() => {
                self.levels[l as usize - 1].thread_num as i32
            }
            _ => -1,
        }
    }

    pub fn omp_team_size(&self, level: i32) -> i32 {
        match level {
            0 => 1,
            l if l > 0 && (l as usize) <= self.levels.len() => {
                self.levels[l as usize - 1].team_size as i32
            }
            _ => -1,
        }
    }

    pub fn omp_set_dynamic(&mut self, on: bool) {
        self.dynamic = on;
    }

    pub fn omp_dynamic(&self) -> bool {
        self.dynamic
    }

    pub fn omp_set_nested(&mut self, on: bool) {
        self.max_active_levels = if on { SUPPORTED_ACTIVE_LEVELS } else { 1 };
    }

    /// A negative value is ignored, as OpenMP says; above the supported levels, those.
    pub fn omp_set_max_active_levels(&mut self, levels: i32) {
        if levels >= 0 {
            self.max_active_levels = levels.min(SUPPORTED_ACTIVE_LEVELS);
        }
    }

    pub fn omp_max_active_levels(&self) -> i32 {
        self.max_active_levels
    }

    pub fn omp_nested(&self) -> bool {
        self.max_active_levels > 1
    }

    /// libgomp's `omp_set_schedule`: the kind kept with its modifier bit; a chunk below 1 is 0
    /// for `static` and 1 for `dynamic` and `guided`; `auto` keeps the chunk (`current`: the
    /// run-sched-var before the call).
    pub fn omp_set_schedule(&mut self, kind: i32, chunk: i32, current: (i32, i32)) {
        let chunk = match kind & !SCHED_MONOTONIC {
            1 => chunk.max(0),
            2 | 3 => chunk.max(1),
            4 => current.1,
            _ => return,
        };
        self.schedule = Some((kind, chunk));
    }
}

/// The next ticket of counter `slot` (one-sided fetch-and-add on rank 0).
pub fn fetch_ticket(s: &State, slot: usize) -> u64 {
    s.rt.as_ref()
        .and_then(|rt| rt.comm.as_ref())
        .map_or(0, |c| c.fetch_ticket(slot))
}

/// libgomp's default run-sched-var, what `omp_get_schedule` answers when neither
/// `omp_set_schedule` nor `OMP_SCHEDULE` set one: `dynamic` with chunks of 1.
const DEFAULT_SCHEDULE: (i32, i32) = (2, 1);

/// The run-sched-var (`omp_get_schedule`): `omp_set_schedule`, else `OMP_SCHEDULE`, else
/// libgomp's default.
pub fn schedule_var(s: &State) -> (i32, i32) {
    schedule_set(s).unwrap_or(DEFAULT_SCHEDULE)
}

/// The run-sched-var that `omp_set_schedule` or `OMP_SCHEDULE` set, if one did.
pub fn schedule_set(s: &State) -> Option<(i32, i32)> {
    let env = s.rt.as_ref().and_then(|rt| rt.cfg.schedule);
    s.team.schedule.or(env)
}

/// How `schedule(runtime)` splits a loop: (kind without the modifier bit, chunk). The default
/// `dynamic,1` runs as the static blocks (each thread taking its chunks of 1 in a row is one
/// way a dynamic schedule hands them out, and the ranks then write disjoint pages, with no
/// shared counter to ask per iteration); `auto` too.
pub fn runtime_schedule(s: &State) -> (i32, i32) {
    match schedule_set(s) {
        None => (1, 0),
        Some((kind, chunk)) => match kind & !SCHED_MONOTONIC {
            4 => (1, 0),
            kind => (kind, chunk),
        },
    }
}

/// The default team: `omp_set_num_threads`, else `OMP_NUM_THREADS` threads in every rank
/// (one when unset).
pub fn default_team_size(s: &State) -> u32 {
    let size = s.rank_size().1 as u32;
    let per_rank = s.rt.as_ref().and_then(|rt| rt.cfg.num_threads).unwrap_or(1);
    s.team
        .num_threads
        .unwrap_or(size.saturating_mul(per_rank))
        .max(1)
}

pub fn omp_max_threads(s: &State) -> i32 {
    default_team_size(s).min(i32::MAX as u32) as i32
}

pub fn omp_num_procs(s: &State) -> i32 {
    s.rank_size().1 as i32
}
