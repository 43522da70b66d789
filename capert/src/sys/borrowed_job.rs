//! Runs a job that borrows the caller's data on the rank's pool (`pool.rs`): the pool takes
//! `'static` jobs, because its workers keep them; this hands it one whose borrow provably ends
//! before the call returns (the diff split over the rank's threads, `region/split_diff.rs`).

use crate::pool::{pool, Job};
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::Arc;

type Borrowed<'a> = &'a (dyn Fn(u32) + Sync + 'a);

/// A job with its lifetime erased; called only inside [`run_borrowed`].
struct Erased(Borrowed<'static>);

impl Erased {
    fn call(&self, thread: u32) {
        (self.0)(thread)
    }
}

/// Runs `job(0)` here and `job(1..n)` on the pool's threads, and returns when all have
/// returned. `merges`: the caller merges with other ranks next (the workers then sleep soon;
/// see `Pool::run`). Should the pool fail to start its threads, every `job(t)` runs here.
pub fn run_borrowed(n: u32, merges: bool, job: Borrowed<'_>) {
    if n <= 1 {
        job(0);
        return;
    }
    // SAFETY: only the lifetime changes (same fat reference). `Pool::run` returns only after
    // every worker returned from its call (its count of running workers reached zero), and a
    // panic of `job(0)` is caught below until then, so the reference is never used after this
    // function returns; a worker that drops its clone of the `Arc` later drops only the
    // reference (no drop glue runs on the borrowed closure).
    let erased = Erased(unsafe { std::mem::transmute::<Borrowed<'_>, Borrowed<'static>>(job) });
    let shared: Job = Arc::new(move |t| erased.call(t));
    let mut panicked = None;
    let mut ran_here = false;
    let started = pool().run(
        n,
        shared,
        || {
            ran_here = true;
            panicked = catch_unwind(AssertUnwindSafe(|| job(0))).err();
        },
        &|| false,
        merges,
    );
    if let Some(payload) = panicked {
        resume_unwind(payload);
    }
    if started.is_err() && !ran_here {
        (0..n).for_each(job);
    }
}
