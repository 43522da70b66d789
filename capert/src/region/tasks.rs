//! Tasks spread over a team. A `single` block whose only effects are creating tasks (the
//! compiler checks it: no calls, no I/O outside the tasks) runs on every thread of the team:
//! each counts the tasks in creation order, and task k runs on thread k mod team size while
//! the others skip it. Tasks with `depend` clauses all run on thread 0, in creation order, so
//! every dependence between them holds. A `taskwait` (or the end of a `taskgroup`) of the
//! generating code is a merge point that every thread reaches, after which all see the
//! tasks' results; the barrier at the end of the `single` is one too. Anything else runs
//! tasks at once on the thread that creates them (depth > 0: inside a running task).

use super::state::State;
use crate::sys::raw::{Combiner, ProgramBytes};

/// The spreading `single` of the innermost level, if one runs.
#[derive(Debug, Default)]
pub struct Spread {
    /// nesting depth of the level whose `single` spreads its tasks
    level: Option<usize>,
    /// tasks created so far by the generating code
    created: u64,
    /// tasks running inside one another on this thread
    depth: u32,
    /// `[lo, hi)` of the locals of the generating code that the running spread task updates
    /// (`__cape_task_updates`): shared by the team while it runs
    update_targets: Vec<(usize, usize)>,
}

impl Spread {
    pub const fn new() -> Spread {
        Spread {
            level: None,
            created: 0,
            depth: 0,
            update_targets: Vec::new(),
        }
    }
}

/// `__cape_task_single_begin`: every thread of an active team runs the block; elsewhere it
/// is a plain `single` (thread 0).
pub fn single_begin(s: &mut State) -> bool {
    let level = s.team.levels.len();
    match s.team.levels.last() {
        // with several threads per rank the block runs on thread 0 with its tasks
        Some(l) if l.active && l.ranks == l.team_size => {
            s.team.spread = Spread {
                level: Some(level),
                ..Spread::new()
            };
            true
        }
        _ => super::constructs::single_begin(s),
    }
}

/// The end of a spreading `single`, before its barrier.
pub fn single_end(s: &mut State) {
    s.team.spread = Spread::default();
}

fn spreading(s: &State) -> Option<(u32, u32)> {
    let spread = &s.team.spread;
    let l = s.team.levels.last()?;
    (spread.level == Some(s.team.levels.len()) && spread.depth == 0 && l.active)
        .then_some((l.thread_num, l.team_size))
}

/// `__cape_task_begin`: whether this thread runs the task now.
pub fn task_begin(s: &mut State, has_depend: bool) -> bool {
    let runs = match spreading(s) {
        Some((me, team)) => {
            let k = s.team.spread.created;
            s.team.spread.created += 1;
            let owner = if has_depend {
                0
            } else {
                (k % u64::from(team)) as u32
            };
            owner == me
        }
        None => true,
    };
    if runs {
        if spreading(s).is_some() {
            // a spread task allocates from the shared heap, like a `single` block
            crate::region_heap::block_begin(s.team.levels.len());
        }
        s.team.spread.depth += 1;
    }
    runs
}

/// `__cape_task_end`, on the thread that ran the task.
pub fn task_end(s: &mut State) {
    s.team.spread.depth = s.team.spread.depth.saturating_sub(1);
    if s.team.spread.depth == 0 {
        s.team.spread.update_targets.clear();
    }
    if spreading(s).is_some() {
        crate::region_heap::block_end(s.team.levels.len());
    }
}

/// A task spread by the generating code is running on this thread (a top-level one, not one
/// inside it).
pub fn spread_task_running(s: &State) -> bool {
    let spread = &s.team.spread;
    let level = s.team.levels.last();
    spread.level == Some(s.team.levels.len())
        && spread.depth == 1
        && level.is_some_and(|l| l.active)
}

/// `__cape_task_result` of a spread task: its result in a local of the generating code (stack
/// memory the merge does not carry) replaces that local on every rank at the next merge
/// point: records that the merge applies in rank order (only the task's owner has one).
pub fn task_result(s: &mut State, pieces: Vec<(ProgramBytes, Combiner, Vec<u8>)>) {
    for (target, combiner, bytes) in pieces {
        // inside an active region the record is kept (None comes back)
        let _ = super::constructs::reduce(s, target, combiner, bytes);
    }
}

/// `__cape_task_updates` at the start of a spread task: the task updates the local of the
/// generating code at `[addr, addr + len)` with `atomic` or inside `critical` sections. The
/// generating code runs alike on every rank, so the local is at the same address on each:
/// while the task runs, its updates are logged like those of shared memory (and merged as
/// updates, combined with the other tasks' ones) and its stores under a cross-rank lock go
/// with the lock. A task run inside another one (deeper in the recursion: its locals are
/// this rank's own) registers nothing.
pub fn task_updates(s: &mut State, addr: usize, len: usize) {
    if len > 0 && spread_task_running(s) {
        s.team.spread.update_targets.push((addr, addr + len));
    }
}

/// The locals of the generating code the running spread task updates (empty otherwise).
pub fn update_targets(s: &State) -> &[(usize, usize)] {
    targets(&s.team.spread, s.team.levels.len())
}

/// [`update_targets`] from the team's fields: `levels`, the nesting depth of the team.
pub(super) fn targets(spread: &Spread, levels: usize) -> &[(usize, usize)] {
    if spread.level == Some(levels) && spread.depth >= 1 {
        &spread.update_targets
    } else {
        &[]
    }
}

/// `__cape_taskwait`: a merge point in the generating code of a spreading `single`.
pub fn taskwait(s: &mut State) -> Result<(), String> {
    if spreading(s).is_none() {
        return Ok(());
    }
    super::constructs::merge_now(s)
}
