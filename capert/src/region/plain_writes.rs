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
//! replay follows the order of the rank's log, which is the order the updates were made in
//! except between threads of a hybrid rank: a variable that several of its threads updated is
//! not replayed (a store by one of them would race with the others' updates).

use super::memory::{Memory, Program};
use super::records::Record;
use super::ActiveRegion;
use crate::runtime::Runtime;

/// Replaces the updates of the variables the rank also stored to plainly in the epoch with
/// a store of their final value (see the module documentation).
pub(super) fn settle(rt: &mut Runtime, r: &mut ActiveRegion) {
    if r.before.is_empty() {
        return;
    }
    let mut targets: Vec<usize> = r.before.keys().copied().collect();
    targets.sort_unstable();
    for addr in targets {
        let before = &r.before[&addr];
        let len = before.len();
        let stored_before = rt
            .tracker
            .epoch_start_bytes(addr, len)
            .is_some_and(|start| start != *before);
        if !stored_before && (r.several_threads.contains(&addr) || !stored_after(rt, r, addr)) {
            continue;
        }
        let now = rt.same_program.object(addr, len).read();
        r.records.replace_updates(addr, now);
    }
}

/// Does the variable at `addr` hold other than its value before the rank's first update with
/// the rank's updates of it replayed? Replayed in place, then the value put back.
fn stored_after(rt: &mut Runtime, r: &ActiveRegion, addr: usize) -> bool {
    let before = &r.before[&addr];
    let len = before.len();
    let updates: Vec<(usize, &[u8])> = r
        .records
        .as_slice()
        .iter()
        .filter_map(|record| match record {
            Record::Combine {
                target,
                combiner,
                operand,
            } if *target == addr => Some((*combiner, operand.as_slice())),
            _ => None,
        })
        .collect();
    if updates.iter().any(|(_, operand)| operand.len() != len) {
        // another view of the bytes (a union member): the replay would not be this variable's
        return false;
    }
    let variable = rt.same_program.object(addr, len);
    let now = variable.read();
    let mut program = Program(rt);
    program.restore(addr, before);
    for (combiner, operand) in updates {
        program.combine(addr, operand, combiner);
    }
    let replayed = variable.read();
    program.restore(addr, &now);
    replayed != now
}
