//! threadprivate variables: never merged; sequential code sees thread 0's copy, each rank
//! keeps its own copy aside between regions and gets it back in the next one.

use crate::runtime::Runtime;
use crate::sys::raw::ProgramBytes;

/// A threadprivate variable: `stash` is this rank's own copy while sequential code shows
/// thread 0's; `master` is thread 0's value at the current region's start (for `copyin`).
#[derive(Debug)]
pub(super) struct Threadprivate {
    pub(super) var: ProgramBytes,
    pub(super) stash: Vec<u8>,
    master: Vec<u8>,
}

/// Every registered threadprivate variable, by address.
#[derive(Debug, Default)]
pub struct Threadprivates(Vec<Threadprivate>);

impl Threadprivates {
    pub const fn new() -> Threadprivates {
        Threadprivates(Vec::new())
    }

    pub(super) fn iter(&self) -> impl Iterator<Item = &Threadprivate> {
        self.0.iter()
    }

    pub(super) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// `__cape_threadprivate`: may run before start-up (from a C constructor).
    pub fn register(&mut self, var: ProgramBytes) {
        if var.is_empty() || self.0.iter().any(|tp| tp.var.addr() == var.addr()) {
            return;
        }
        // Every thread's copy starts with the variable's initial value.
        let stash = var.read();
        self.0.push(Threadprivate {
            var,
            master: stash.clone(),
            stash,
        });
        self.0.sort_by_key(|tp| tp.var.addr());
    }

    /// The variables' byte ranges (excluded from every merge).
    pub(super) fn ranges(&self) -> Vec<(usize, usize)> {
        self.0
            .iter()
            .map(|tp| (tp.var.addr(), tp.var.addr() + tp.var.len()))
            .collect()
    }

    /// Region begin: remember thread 0's values; ranks other than 0 get their own copies back.
    pub(super) fn begin(&mut self, rank: usize) {
        for tp in self.0.iter_mut() {
            tp.master = tp.var.read();
            if rank != 0 {
                tp.var.write(&tp.stash);
            }
        }
    }

    /// Region end: every rank keeps its own copy aside and shows thread 0's.
    pub(super) fn end(&mut self, rt: &mut Runtime) {
        if self.0.is_empty() {
            return;
        }
        let mut values = Vec::new();
        for tp in self.0.iter() {
            values.extend_from_slice(&tp.var.read());
        }
        if let Some(comm) = rt.comm.as_ref() {
            comm.broadcast_from_root(&mut values);
        }
        if rt.rank == 0 {
            return;
        }
        let mut at = 0;
        for tp in self.0.iter_mut() {
            let len = tp.var.len();
            tp.stash = tp.var.read();
            if let Some(v) = values.get(at..at + len) {
                tp.var.write(v);
            }
            at += len;
        }
    }

    /// Thread 0's values at the start of a region that `begin` has prepared (any values on
    /// rank 0, whose thread 0 shows its own copy), by address: what `copyin` gives the workers.
    pub(super) fn values_at_start(&self, rank: usize) -> Vec<(usize, Vec<u8>)> {
        self.0
            .iter()
            .map(|tp| {
                let value = if rank == 0 {
                    tp.var.read()
                } else {
                    tp.master.clone()
                };
                (tp.var.addr(), value)
            })
            .collect()
    }

    /// A replayed region: copies of other threads are not logged, they restart as thread 0's.
    pub(super) fn restart_as_thread_0(&mut self) {
        for tp in self.0.iter_mut() {
            tp.stash = tp.var.read();
        }
    }

    /// `__cape_copyin` on a rank other than 0 of an active team: thread 0's value at the
    /// region's start, on this thread.
    pub(super) fn copyin(&self, var: ProgramBytes) {
        for tp in self.0.iter() {
            if let Some(part) = tp.var.part(var.addr(), var.len()) {
                let from = part.addr() - tp.var.addr();
                part.write(&tp.master[from..from + part.len()]);
                return;
            }
        }
    }
}

/// `__cape_copyin`: thread 0's value at the region's start, on this thread.
pub fn copyin(s: &mut super::State, var: ProgramBytes) {
    let (rank, _) = s.rank_size();
    if rank == 0 || !s.team.innermost_active() {
        return;
    }
    s.threadprivates.copyin(var);
}
