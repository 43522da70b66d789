//! Regions whose threads wait for each other through shared flags (`while (flag[k - 1] == 0)
//! { #pragma omp flush(flag) }`, the NAS LU pipeline). Processes see each other's writes at
//! merge points only, so such a wait would never end across ranks. The compiler knows which
//! regions contain a waiting loop (or call a function that does); each of them runs on every
//! rank as a team of user-level threads (sys/coroutine.rs) that take turns: a thread gives
//! the processor to the next one at each spin of a waiting loop and at each barrier. Every
//! rank so computes the whole region, identically, and nothing needs merging: the region
//! runs like sequential code, with no speed-up but with gcc's answer.
//!
//! The team's level is a team of one to the rest of the runtime (reductions, atomic updates
//! and `single` act at once, on thread 0 for `single`), except that it reports its real size
//! and the running thread's number; loops with a dynamic or guided schedule are shared out
//! statically (any assignment is a legal schedule). A nested region runs with a team of one.
//! When every thread spins on unchanged values for `wait_watch::LIMIT` of CPU time, no
//! thread can ever change them: the job stops with the error of wait_watch.rs.

use super::{with_state, RegionOutcome, State};
use crate::sys::coroutine;
use std::time::Duration;

/// A pause this long (CPU time) between two spins means the team is working, not spinning.
const PAUSE: Duration = Duration::from_millis(100);

/// The cooperative team in progress.
#[derive(Debug)]
pub struct Cooperative {
    /// nesting depth of its level
    depth: usize,
    size: u32,
    /// barrier: threads arrived, and how many barriers completed
    arrived: u32,
    generation: u64,
    /// each thread's last spin (site, hash of the watched bytes)
    spins: Vec<Option<(usize, u64)>>,
    /// spins without progress: since when, and the last one (the thread's CPU time: a
    /// preempted process is not a spinning one)
    idle: Option<(Duration, Duration)>,
}

impl Cooperative {
    fn progress(&mut self) {
        self.idle = None;
    }
}

/// What a spin of a waiting loop must do.
pub enum Spin {
    /// not in a cooperative team: the ordinary wait watch applies
    NotCooperative,
    /// give the processor to the next thread
    Yield,
    /// every thread has spun on unchanged values for this long
    Stuck(Duration),
}

/// The cooperative team of the innermost level, if any.
fn here(s: &mut State) -> Option<&mut Cooperative> {
    let depth = s.team.levels.len();
    s.team.cooperative.as_mut().filter(|c| c.depth == depth)
}

/// Whether a cooperative team is running (nested regions then get a team of one).
pub fn in_cooperative(s: &State) -> bool {
    s.team.cooperative.is_some()
}

/// Whether the innermost level is a cooperative team (its loops are shared out statically).
pub fn innermost(s: &mut State) -> bool {
    here(s).is_some()
}

/// `__cape_parallel_cooperative`: the region runs as a cooperative team on every rank.
pub fn parallel(
    run: &dyn Fn(),
    site: usize,
    num_threads: i32,
    if_clause: bool,
    sp: usize,
) -> Result<RegionOutcome, String> {
    let size = with_state(|s| {
        if !if_clause || s.team.levels.iter().any(|l| l.active) || in_cooperative(s) {
            return 1;
        }
        // every rank runs the whole team, so its size is not bounded by the ranks
        if num_threads > 0 {
            num_threads as u32
        } else {
            super::team::default_team_size(s)
        }
    });
    // a team of one thread per rank to the region protocol (numbering, checkpoint log,
    // replay): the user-level threads share it
    if size <= 1 {
        let once = |_| {
            run();
            Ok(())
        };
        return super::parallel_running(site, once, 1, false, sp, None);
    }
    let team = |_| run_team(run, size);
    super::parallel_running(site, team, 1, true, sp, None)
}

fn run_team(run: &dyn Fn(), size: u32) -> Result<(), String> {
    with_state(|s| {
        let depth = s.team.levels.len();
        if let Some(level) = s.team.levels.last_mut() {
            level.team_size = size;
        }
        s.team.cooperative = Some(Cooperative {
            depth,
            size,
            arrived: 0,
            generation: 0,
            spins: vec![None; size as usize],
            idle: None,
        });
    });
    let mut last = size as usize - 1;
    let result = coroutine::run_team(size as usize, &|_| run(), &mut |done| {
        // round robin over the threads still running
        let n = done.len();
        let k = (1..=n).map(|i| (last + i) % n).find(|&k| !done[k])?;
        last = k;
        with_state(|s| {
            if let Some(level) = s.team.levels.last_mut() {
                level.thread_num = k as u32;
            }
            if let Some(c) = here(s) {
                c.progress_if_finished(done);
            }
        });
        Some(k)
    });
    with_state(|s| {
        if let Some(level) = s.team.levels.last_mut() {
            level.thread_num = 0;
            level.team_size = 1;
        }
        s.team.cooperative = None;
    });
    result
}

impl Cooperative {
    /// A thread that returned leaves the barrier count: the others may go on.
    fn progress_if_finished(&mut self, done: &[bool]) {
        let live = done.iter().filter(|d| !**d).count() as u32;
        if live < self.size {
            self.size = live;
            self.progress();
            if self.arrived > 0 && self.arrived >= live {
                self.arrived = 0;
                self.generation += 1;
            }
        }
    }
}

/// `__cape_barrier` (after the protocol's own, a no-op here): wait until every thread of a
/// cooperative team arrived; nothing outside one.
pub fn barrier() {
    let arrived = with_state(|s| {
        let c = here(s)?;
        let generation = c.generation;
        c.arrived += 1;
        c.progress();
        if c.arrived >= c.size {
            c.arrived = 0;
            c.generation += 1;
        }
        Some(generation)
    });
    let Some(generation) = arrived else { return };
    while with_state(|s| here(s).is_some_and(|c| c.generation == generation)) {
        coroutine::yield_now();
    }
}

/// One spin of a waiting loop at `site` whose watched bytes hash to `hash`.
pub fn spin(site: usize, hash: u64) -> Spin {
    let now = coroutine::thread_cpu_time();
    with_state(|s| {
        let thread = s.team.omp_thread_num() as usize;
        let Some(c) = here(s) else {
            return Spin::NotCooperative;
        };
        let previous = c.spins.get_mut(thread).map(|p| p.replace((site, hash)));
        if previous != Some(Some((site, hash))) {
            c.progress();
            return Spin::Yield;
        }
        match c.idle {
            Some((since, last)) if now.saturating_sub(last) < PAUSE => {
                c.idle = Some((since, now));
                let waited = now.saturating_sub(since);
                if waited > crate::wait_watch::LIMIT {
                    return Spin::Stuck(waited);
                }
            }
            _ => c.idle = Some((now, now)),
        }
        Spin::Yield
    })
}

/// `__cape_copyprivate` in a cooperative team: its threads cannot receive the value.
pub fn refuse_copyprivate(s: &mut State) -> Result<(), String> {
    match here(s) {
        Some(_) => Err(
            "`copyprivate` ran in a parallel region whose threads wait on flags (a flush in a \
             loop), which capecc runs as a team of user-level threads without it; broadcast \
             the value through a shared variable and a barrier instead"
                .into(),
        ),
        None => Ok(()),
    }
}
