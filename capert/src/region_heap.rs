//! The application heap inside active parallel regions.
//!
//! Ranks run different code there, so heap calls normally go to libc (private memory) and the
//! arena allocator is left alone. The exception is a `single` block, or a `master`/`masked`
//! block, on the rank that runs it: one rank only, so it allocates from the arena. The
//! allocator's state lives in the arena itself (`sys/heap.rs`), so the merge carries the new
//! state to every rank together with the blocks' contents. Pages the arena claims meanwhile
//! are not tracked yet: the allocating rank diffs them against zero (what they held), every
//! rank writes what it receives there directly and tracks them after the merge.
//!
//! Two ranks using the arena between the same merge points (`master` and `masked filter(1)`
//! with no barrier between) would merge two different allocator states: an error.

use crate::diff::diff_page;
use crate::runtime::Runtime;
use cape_format::changeset::Writer;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Nesting depth of the team level whose `single`/`master` block this rank runs (0: none).
static OWNER_DEPTH: AtomicUsize = AtomicUsize::new(0);
/// This rank changed the arena allocator's state in the current epoch of an active region.
static USED_IN_EPOCH: AtomicBool = AtomicBool::new(false);

/// This rank starts running a `single`/`master` block of the active team at level `depth`.
pub fn block_begin(depth: usize) {
    let _ = OWNER_DEPTH.compare_exchange(0, depth, Ordering::Relaxed, Ordering::Relaxed);
}

/// A `single`/`master` block of level `depth` ended (called by every thread of the team).
pub fn block_end(depth: usize) {
    let _ = OWNER_DEPTH.compare_exchange(depth, 0, Ordering::Relaxed, Ordering::Relaxed);
}

/// This rank runs a `single`/`master` block of an active team: heap calls use the arena.
pub fn owns_arena() -> bool {
    OWNER_DEPTH.load(Ordering::Relaxed) != 0
}

/// The arena allocator's state changes now (noted for the epoch's merge when inside a block).
pub fn note_arena_change() {
    if owns_arena() {
        USED_IN_EPOCH.store(true, Ordering::Relaxed);
    }
}

/// Merge point: did this rank change the arena allocator in the epoch? (Resets the note.)
pub fn take_epoch_use() -> bool {
    USED_IN_EPOCH.swap(false, Ordering::Relaxed)
}

/// The error when several ranks changed the allocator between the same merge points.
pub fn several_users(ranks: &[u64]) -> String {
    let list: Vec<String> = ranks.iter().map(u64::to_string).collect();
    format!(
        "ranks {} allocated or freed heap memory in `single`/`master`/`masked` blocks between \
         the same barriers; their heaps cannot be merged. Put a `#pragma omp barrier` between \
         those blocks",
        list.join(", ")
    )
}

/// The region ended (or was left by `exit`): no block is running any more.
pub fn region_end() {
    OWNER_DEPTH.store(0, Ordering::Relaxed);
    USED_IN_EPOCH.store(false, Ordering::Relaxed);
}

/// Diffs the arena pages claimed since they were last tracked against zero into the change
/// set `out` (records of `rank`); returns the bytes compared and the bytes recorded. Only a
/// rank that allocated in a `single`/`master` block has such pages at a merge point.
pub fn diff_fresh_pages(rt: &Runtime, rank: u32, out: &mut Writer<'_>) -> (u64, u64) {
    let page = crate::track::PAGE_SIZE;
    let Some((start, end)) = rt.arena.untracked() else {
        return (0, 0);
    };
    let mut recorded = 0;
    let mut zero = [0u8; crate::track::PAGE_SIZE];
    for at in (start..end).step_by(page) {
        zero.fill(0);
        let mem = rt.arena.bytes(at, at + page);
        recorded += diff_page(mem, &mut zero, at as u64, rank, None, out).0 as u64;
    }
    ((end - start) as u64, recorded)
}

/// Reads `out.len()` bytes at `addr` of shared memory: tracked pages, or arena pages another
/// rank claimed since the last merge point (not tracked here yet).
pub fn read(rt: &Runtime, addr: usize, out: &mut [u8]) {
    let page = crate::track::PAGE_SIZE;
    let mut done = 0;
    while done < out.len() {
        let at = addr + done;
        let page_start = at & !(page - 1);
        let n = (page_start + page - at).min(out.len() - done);
        if rt.tracker.contains(at) {
            let bytes = &rt.tracker.memory(page_start)[at - page_start..at - page_start + n];
            out[done..done + n].copy_from_slice(bytes);
        } else {
            rt.arena.read(at, &mut out[done..done + n]);
        }
        done += n;
    }
}

/// Writes merged bytes at `addr`: through the tracker where tracked (the twin follows),
/// directly elsewhere (arena pages another rank claimed since the last merge point, which
/// are tracked afterwards).
pub fn inject(rt: &mut Runtime, addr: usize, bytes: &[u8]) {
    let page = crate::track::PAGE_SIZE;
    let end = addr + bytes.len();
    let mut at = addr;
    while at < end {
        let tracked = rt.tracker.contains(at);
        let mut to = (at & !(page - 1)) + page;
        while to < end && rt.tracker.contains(to) == tracked {
            to += page;
        }
        let to = to.min(end);
        let piece = &bytes[at - addr..to - addr];
        if tracked {
            rt.tracker.inject(at, piece);
        } else {
            rt.arena.write(at, piece);
        }
        at = to;
    }
}
