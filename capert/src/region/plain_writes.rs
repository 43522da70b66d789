//! Plain stores of a rank to a variable it also updated with mergeable updates in an epoch.
//!
//! The merge of `atomic` (and update-form `critical`) updates puts each updated variable back
//! to its value before the rank's first update and applies every rank's operands. That is
//! the thread's program order only while the updates are all it did to the variable: a plain
//! store by the same thread before its first update (`d = 5; atomic d += 1`) or after one
//! (`atomic c += 1; c *= 10;`) would be lost. The rank's updates of such a variable are
//! replaced by one store record of its final value on the rank (which holds the thread's
//! stores and updates in program order); every rank writes it in the rank order of the
//! records, so all ranks end with the same bytes, the other ranks' updates of it, if any, on
//! top when they come later in that order (a plain store beside another thread's update is
//! a race in OpenMP: any order is one it allows).
//!
//! Told at the merge point, before the diff: a store before the first update left a value at
//! that update (`before`) other than the one the epoch began with (the page's twin); a store
//! after one left a final value other than `before` with the rank's updates replayed. The
//! replay runs all the rank's updates in the order of its log (an update whose operand is
//! wider than its variable reads the scratch word an update just before it wrote), which is
//! the order they were made in except between threads of a hybrid rank: a variable that
//! several of its threads updated is not judged by the replay (a store by one of them would
//! race with the others' updates).

use super::memory::{Memory, Program};
use super::records::Record;
use super::ActiveRegion;
use crate::runtime::Runtime;
use std::collections::HashSet;

/// Replaces the updates of the variables the rank also stored to plainly in the epoch with
/// a store of their final value (see the module documentation).
pub(super) fn settle(rt: &mut Runtime, r: &mut ActiveRegion) {
    if r.before.is_empty() {
        return;
    }
    let mut targets: Vec<usize> = r.before.keys().copied().collect();
    targets.sort_unstable();
    let replay_differs = replay(rt, r, &targets);
    // a local of generating code that a spread task updated (region/tasks.rs) is not shared
    // memory: no value at the epoch's start to compare with (a plain store of the task to it
    // goes as the task's result)
    let shared = super::epoch::shared_ranges(rt, r.sp);
    for addr in targets {
        let before = &r.before[&addr];
        let stored_before = super::constructs::within(&shared, addr, before.len())
            && rt
                .tracker
                .epoch_start_bytes(addr, before.len())
                .is_some_and(|start| start != *before);
        let stored_after = replay_differs.contains(&addr) && !r.several_threads.contains(&addr);
        if stored_before || stored_after {
            let now = rt.same_program.object(addr, before.len()).read();
            r.records.replace_updates(addr, now);
        }
    }
}

/// The targets whose value differs from their value before the rank's first update with
/// the rank's updates replayed on it, in the order of its log. Replayed in place, then the
/// values put back.
fn replay(rt: &mut Runtime, r: &ActiveRegion, targets: &[usize]) -> HashSet<usize> {
    let now: Vec<Vec<u8>> = targets
        .iter()
        .map(|&addr| rt.same_program.object(addr, r.before[&addr].len()).read())
        .collect();
    let mut program = Program(rt);
    for &addr in targets {
        program.restore(addr, &r.before[&addr]);
    }
    // another view of a variable's bytes (a union member): not this variable's replay
    let mut unknown = HashSet::new();
    for record in r.records.as_slice() {
        if let Record::Combine {
            target,
            combiner,
            operand,
        } = record
        {
            match r.before.get(target) {
                Some(before) if before.len() == operand.len() => {
                    program.combine(*target, operand, *combiner);
                }
                Some(_) => {
                    unknown.insert(*target);
                }
                // a reduction's partial: its variable is not touched before the merge
                None => {}
            }
        }
    }
    let mut differs = HashSet::new();
    for (&addr, value) in targets.iter().zip(&now) {
        let replayed = program.0.same_program.object(addr, value.len()).read();
        if replayed != *value && !unknown.contains(&addr) {
            differs.insert(addr);
        }
        program.restore(addr, value);
    }
    differs
}
