//! threadprivate variables: never merged; sequential code sees thread 0's copy, each rank
//! keeps its own copy aside between regions and gets it back in the next one.

use super::team::innermost_active;
use crate::runtime::{self, Runtime};
use crate::sys::raw::{read_memory, write_memory};
use std::sync::{Mutex, MutexGuard};

/// A threadprivate variable: `stash` is this rank's own copy while sequential code shows
/// thread 0's; `master` is thread 0's value at the current region's start (for `copyin`).
#[derive(Debug)]
pub(super) struct Threadprivate {
    pub(super) addr: usize,
    pub(super) stash: Vec<u8>,
    master: Vec<u8>,
}

static THREADPRIVATE: Mutex<Vec<Threadprivate>> = Mutex::new(Vec::new());

pub(super) fn threadprivates() -> MutexGuard<'static, Vec<Threadprivate>> {
    THREADPRIVATE.lock().unwrap_or_else(|e| e.into_inner())
}

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

pub(super) fn threadprivate_ranges() -> Vec<(usize, usize)> {
    threadprivates()
        .iter()
        .map(|tp| (tp.addr, tp.addr + tp.stash.len()))
        .collect()
}

/// Region begin: remember thread 0's values; ranks other than 0 get their own copies back.
pub(super) fn threadprivate_begin(rank: usize) {
    for tp in threadprivates().iter_mut() {
        tp.master = read_memory(tp.addr, tp.stash.len());
        if rank != 0 {
            write_memory(tp.addr, &tp.stash);
        }
    }
}

/// Region end: every rank keeps its own copy aside and shows thread 0's.
pub(super) fn threadprivate_end(rt: &mut Runtime) {
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
