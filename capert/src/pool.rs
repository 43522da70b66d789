//! The extra threads of one rank (hybrid execution, `OMP_NUM_THREADS` > 1): a persistent pool
//! that runs a job on threads 1..n while the rank's own thread runs it as thread 0, and the
//! barrier among them. Knows nothing of the region protocol (region/threads.rs drives it).
//!
//! Waiting spins, then sleeps on a condition variable, like libgomp's `OMP_WAIT_POLICY`
//! default: a region's fork and join cost about a microsecond on idle cores, and a thread
//! that waits long costs no CPU time.

use std::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::thread;
use std::time::Duration;

/// A job: called with the local thread index (1..n) on every extra thread.
pub type Job = Arc<dyn Fn(u32) + Send + Sync>;

/// Spins before sleeping (libgomp spins 300 000 times by default). No `sched_yield` in
/// between: on a loaded machine a yield hands the core away for a whole time slice.
const SPINS: u32 = 100_000;
/// With more threads than cores a spinning thread keeps the one it waits for off its core:
/// spin briefly (libgomp's throttled count).
const SPINS_OVERSUBSCRIBED: u32 = 1_000;

/// The cores this process may use, asked once: `available_parallelism` reads the cgroup's
/// files (/proc, /sys) at every call, tens of microseconds, which would be most of a region.
pub(crate) fn cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| thread::available_parallelism().map_or(1, |c| c.get()))
}

/// How long `n` threads of this process spin before they sleep.
fn spins_for(n: usize) -> u32 {
    if n > cores() {
        SPINS_OVERSUBSCRIBED
    } else {
        SPINS
    }
}

/// Waits until `ready()`; `wake` is notified by whoever makes it true. `serve` runs while
/// waiting (work another thread hands the waiting one; it returns whether it had any).
fn wait_until(ready: impl Fn() -> bool, wake: &Wake, spins: u32, serve: &dyn Fn() -> bool) {
    for _ in 0..spins {
        if ready() {
            return;
        }
        serve();
        std::hint::spin_loop();
    }
    loop {
        while serve() {}
        let guard = wake.lock.lock().unwrap_or_else(|e| e.into_inner());
        if ready() {
            return;
        }
        // the timeout only bounds a lost wake-up; every change notifies under the lock
        drop(wake.cv.wait_timeout(guard, Duration::from_millis(10)));
    }
}

/// Nothing to serve.
fn idle() -> bool {
    false
}

#[derive(Default)]
struct Wake {
    lock: Mutex<()>,
    cv: Condvar,
}

impl Wake {
    fn notify(&self) {
        let _guard = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        self.cv.notify_all();
    }
}

/// A reusable barrier of `n` threads (sense by generation).
pub struct Barrier {
    n: usize,
    spins: u32,
    arrived: AtomicUsize,
    generation: AtomicU64,
    wake: Wake,
}

impl Barrier {
    pub fn new(n: usize) -> Barrier {
        Barrier {
            n: n.max(1),
            spins: spins_for(n),
            arrived: AtomicUsize::new(0),
            generation: AtomicU64::new(0),
            wake: Wake::default(),
        }
    }

    /// Returns when all `n` threads have called it; the writes of each before it are visible
    /// to all after it.
    pub fn wait(&self) {
        self.wait_serving(&idle);
    }

    /// `wait`, running `serve` meanwhile (see `wait_until`).
    pub fn wait_serving(&self, serve: &dyn Fn() -> bool) {
        self.arrive(serve, self.spins);
    }

    /// `wait` for a thread that is likely to wait long (while another merges with other
    /// ranks, whose processes may need the cores): it spins only briefly before it sleeps.
    pub fn wait_briefly(&self) {
        self.arrive(&idle, SPINS_OVERSUBSCRIBED.min(self.spins));
    }

    fn arrive(&self, serve: &dyn Fn() -> bool, spins: u32) {
        let generation = self.generation.load(Ordering::Acquire);
        if self.arrived.fetch_add(1, Ordering::AcqRel) + 1 == self.n {
            self.arrived.store(0, Ordering::Relaxed);
            self.generation.fetch_add(1, Ordering::AcqRel);
            self.wake.notify();
            return;
        }
        wait_until(
            || self.generation.load(Ordering::Acquire) != generation,
            &self.wake,
            spins,
            serve,
        );
    }

    /// Wakes a sleeping waiter so that it looks for work to serve.
    pub fn nudge(&self) {
        self.wake.notify();
    }
}

struct Shared {
    /// Bumped for every job; a worker runs each generation once.
    generation: AtomicU64,
    /// The current job and how many threads (the caller included) run it.
    job: Mutex<Option<(Job, u32)>>,
    /// How long the workers spin for the next job (the last team's size decides).
    spins: AtomicU32,
    /// Workers still running the current job.
    running: AtomicUsize,
    start: Wake,
    done: Wake,
}

/// The pool: workers are started on demand and never stop.
pub struct Pool {
    shared: Arc<Shared>,
    workers: Mutex<u32>,
}

impl Pool {
    fn new() -> Pool {
        Pool {
            shared: Arc::new(Shared {
                generation: AtomicU64::new(0),
                job: Mutex::new(None),
                spins: AtomicU32::new(SPINS),
                running: AtomicUsize::new(0),
                start: Wake::default(),
                done: Wake::default(),
            }),
            workers: Mutex::new(0),
        }
    }

    /// Runs `job(1..n)` on `n - 1` workers and `main()` on the calling thread, and returns
    /// when all have finished, running `serve` while it waits for them (see `wait_until`).
    /// One job at a time (the rank's thread 0 calls it). `merges`: the caller merges with
    /// other ranks next, whose processes need the cores: the workers then spin only briefly
    /// for the next job before they sleep.
    pub fn run(
        &self,
        n: u32,
        job: Job,
        main: impl FnOnce(),
        serve: &dyn Fn() -> bool,
        merges: bool,
    ) -> Result<(), String> {
        if n <= 1 {
            main();
            return Ok(());
        }
        self.ensure_workers(n - 1)?;
        let s = &self.shared;
        let spins = spins_for(n as usize);
        let next_job_spins = if merges {
            SPINS_OVERSUBSCRIBED.min(spins)
        } else {
            spins
        };
        s.spins.store(next_job_spins, Ordering::Relaxed);
        *s.job.lock().unwrap_or_else(|e| e.into_inner()) = Some((job, n));
        s.running.store(n as usize - 1, Ordering::Release);
        s.generation.fetch_add(1, Ordering::AcqRel);
        s.start.notify();
        main();
        wait_until(
            || s.running.load(Ordering::Acquire) == 0,
            &s.done,
            spins,
            serve,
        );
        *s.job.lock().unwrap_or_else(|e| e.into_inner()) = None;
        Ok(())
    }

    /// Wakes the caller of `run` if it sleeps waiting for the workers.
    pub fn nudge(&self) {
        self.shared.done.notify();
    }

    fn ensure_workers(&self, needed: u32) -> Result<(), String> {
        let mut count = self.workers.lock().unwrap_or_else(|e| e.into_inner());
        while *count < needed {
            let index = *count + 1;
            let shared = Arc::clone(&self.shared);
            let seen = shared.generation.load(Ordering::Acquire);
            thread::Builder::new()
                .name(format!("capert-t{index}"))
                .spawn(move || worker(&shared, index, seen))
                .map_err(|e| format!("cannot start thread {index} of this rank: {e}"))?;
            *count += 1;
        }
        Ok(())
    }
}

fn worker(s: &Shared, index: u32, mut seen: u64) {
    loop {
        let spins = s.spins.load(Ordering::Relaxed);
        wait_until(
            || s.generation.load(Ordering::Acquire) != seen,
            &s.start,
            spins,
            &idle,
        );
        seen = s.generation.load(Ordering::Acquire);
        let job = s.job.lock().unwrap_or_else(|e| e.into_inner()).clone();
        let Some((job, n)) = job else { continue };
        if index < n {
            job(index);
            if s.running.fetch_sub(1, Ordering::AcqRel) == 1 {
                s.done.notify();
            }
        }
    }
}

/// The rank's pool (started at its first hybrid region).
pub fn pool() -> &'static Pool {
    static POOL: OnceLock<Pool> = OnceLock::new();
    POOL.get_or_init(Pool::new)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_thread_runs_once_per_job() {
        let pool = Pool::new();
        for n in [1u32, 2, 4, 3, 4] {
            let hits = Arc::new(Mutex::new(vec![0u32; n as usize]));
            let h = Arc::clone(&hits);
            let job: Job = Arc::new(move |t| h.lock().unwrap()[t as usize] += 1);
            pool.run(n, job, || hits.lock().unwrap()[0] += 1, &idle, false)
                .unwrap();
            assert_eq!(*hits.lock().unwrap(), vec![1; n as usize]);
        }
    }

    #[test]
    fn barrier_orders_phases() {
        let pool = Pool::new();
        let n = 3u32;
        let barrier = Arc::new(Barrier::new(n as usize));
        let count = Arc::new(AtomicUsize::new(0));
        let (b, c) = (Arc::clone(&barrier), Arc::clone(&count));
        let phase = move || {
            for round in 1..=50usize {
                c.fetch_add(1, Ordering::SeqCst);
                b.wait();
                assert_eq!(c.load(Ordering::SeqCst), round * n as usize);
                b.wait();
            }
        };
        let p = phase.clone();
        pool.run(n, Arc::new(move |_| p()), phase, &idle, n.is_multiple_of(2))
            .unwrap();
        assert_eq!(count.load(Ordering::SeqCst), 50 * n as usize);
    }
}
