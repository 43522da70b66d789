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
//!
//! The replayed values are ones the program may never have had: a division `x /= e` replayed
//! from one of them could trap (the type's minimum divided by -1). The translated combiners
//! test for the operations that trap and ask `__cape_combine_undefined`, which answers yes
//! during the replay: the combiner then leaves the variable, and the variable merges as the
//! rank's store (which is right whatever the replay would have given).
//!
//! Stores inside a general `critical` section (or lock pair) are merged after every rank's
//! updates, as section records in ticket order (`lock.rs`): a section's store to a variable
//! the rank then updates (`critical { x = 5; }` then `atomic x += 1`) would overwrite the
//! update. So a variable that one of the rank's sections stored to, or whose updates came
//! after a section of the rank (whose lock may have brought another rank's store of it), is
//! merged as a store too, and its final value also goes at the end of the rank's latest
//! such section: the join writes it where the ticket order puts that section.

use super::memory::{Memory, Program};
use super::records::Record;
use super::ActiveRegion;
use crate::runtime::Runtime;
use std::cell::Cell;
use std::collections::HashSet;

thread_local! {
    /// Set while this thread replays updates (`replay`).
    static REPLAYING: Cell<bool> = const { Cell::new(false) };
    /// A replayed combiner met an operation that would trap.
    static UNDEFINED: Cell<bool> = const { Cell::new(false) };
}

/// A combiner met an operation that would trap (`__cape_combine_undefined`): true when this
/// thread replays updates, which then takes the variable as stored; false elsewhere, where
/// the combiner makes the operation as the program would.
pub fn undefined_in_replay() -> bool {
    let replaying = REPLAYING.with(Cell::get);
    if replaying {
        UNDEFINED.with(|u| u.set(true));
    }
    replaying
}

/// Replaces the updates of the variables the rank also stored to plainly in the epoch with
/// a store of their final value (see the module documentation).
pub(super) fn settle(rt: &mut Runtime, r: &mut ActiveRegion) {
    if r.before.is_empty() {
        return;
    }
    let mut targets: Vec<usize> = r.before.keys().copied().collect();
    targets.sort_unstable();
    let (replay_differs, trapped) = replay(rt, r, &targets);
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
        let stored_after = (replay_differs.contains(&addr) && !r.several_threads.contains(&addr))
            || trapped.contains(&addr);
        let section = latest_section(r.records.as_slice(), addr, before.len());
        let in_section = section.is_some_and(|(_, touches)| touches);
        if stored_before || stored_after || in_section {
            let now = rt.same_program.object(addr, before.len()).read();
            if let Some((at, _)) = section {
                r.records.store_in_section(at, addr, now.clone());
            }
            r.records.replace_updates(addr, now);
        }
    }
}

/// The index of the rank's latest section record (in program order) that stored to
/// `[addr, addr + len)` or came before the rank's last update of it, and whether any of its
/// sections stored there.
fn latest_section(records: &[Record], addr: usize, len: usize) -> Option<(usize, bool)> {
    let overlaps = |a: usize, n: usize| a < addr + len && addr < a + n;
    let last_update = records
        .iter()
        .rposition(|r| matches!(r, Record::Combine { target, .. } if *target == addr));
    let mut latest = None;
    let mut touches = false;
    for (at, record) in records.iter().enumerate() {
        if let Record::Section { runs, .. } = record {
            let stores = runs.iter().any(|(a, bytes)| overlaps(*a, bytes.len()));
            touches |= stores;
            if stores || last_update.is_some_and(|u| at < u) {
                latest = Some(at);
            }
        }
    }
    latest.map(|at| (at, touches))
}

/// The targets whose value differs from their value before the rank's first update with
/// the rank's updates replayed on it, in the order of its log, and those whose replay met an
/// operation that would trap. Replayed in place, then the values put back.
fn replay(
    rt: &mut Runtime,
    r: &ActiveRegion,
    targets: &[usize],
) -> (HashSet<usize>, HashSet<usize>) {
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
    // a replayed operation that would have trapped: the variable is taken as stored
    let mut trapped = HashSet::new();
    REPLAYING.with(|r| r.set(true));
    for record in r.records.as_slice() {
        if let Record::Combine {
            target,
            combiner,
            operand,
        } = record
        {
            match r.before.get(target) {
                Some(before) if before.len() == operand.len() => {
                    UNDEFINED.with(|u| u.set(false));
                    program.combine(*target, operand, *combiner);
                    if UNDEFINED.with(Cell::get) {
                        trapped.insert(*target);
                    }
                }
                Some(_) => {
                    unknown.insert(*target);
                }
                // a reduction's partial: its variable is not touched before the merge
                None => {}
            }
        }
    }
    REPLAYING.with(|r| r.set(false));
    let mut differs = HashSet::new();
    for (&addr, value) in targets.iter().zip(&now) {
        let replayed = program.0.same_program.object(addr, value.len()).read();
        if replayed != *value && !unknown.contains(&addr) {
            differs.insert(addr);
        }
        program.restore(addr, value);
    }
    (differs, trapped)
}
