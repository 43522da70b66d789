//! Hybrid execution: several OpenMP threads in one rank (`OMP_NUM_THREADS=T`, or
//! `num_threads(n)` above the rank count). A team of n threads over R ranks gives rank r the
//! threads `base(r) .. base(r) + count(r)` (n = R*T: thread t of rank r is r*T + t), so the
//! static schedule gives each rank one contiguous block and the merges between ranks stay
//! as they are. The rank's thread 0 (the thread that runs the program) owns the runtime
//! state and does every merge; the other threads run the region's body with a state of
//! their own that holds only their team level. What they hand to the rank (reduction
//! partials, atomic updates, the largest iteration they ran) waits in the rank team until
//! thread 0 takes it at the next merge point, which all threads of the rank reach first
//! (a barrier among them before and after the merge).

use super::rank_locks::{BetweenRanks, ForMerge, RankLocks};
use super::records::Record;
use super::team::Level;
use super::{with_state, State};
use crate::addr_hash::AddrHash;
use crate::pool::{self, Barrier};
use crate::sys::direct::TEAM_DIRECT;
use crate::sys::raw::{Combiner, ProgramBytes};
use std::cell::{Cell, RefCell};
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

/// How a team is spread over the ranks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Spread {
    /// Ranks that run threads of the team.
    pub ranks: u32,
    /// This rank's first OpenMP thread number and thread count (0 threads: not in the team).
    pub base: u32,
    pub count: u32,
}

/// A team of `n` threads over `world` ranks, seen from `rank`: the first min(n, world) ranks
/// take the threads in blocks whose sizes differ by at most one.
pub fn spread(n: u32, world: u32, rank: u32) -> Spread {
    let ranks = n.min(world).max(1);
    let (q, rem) = (n / ranks, n % ranks);
    if rank >= ranks {
        return Spread {
            ranks,
            base: n,
            count: 0,
        };
    }
    Spread {
        ranks,
        base: rank * q + rank.min(rem),
        count: q + u32::from(rank < rem),
    }
}

/// What a rank's threads share during a region.
struct RankTeam {
    /// This rank (world) and the ranks in the team.
    rank: usize,
    ranks: u32,
    /// The arena's bounds: the workers tell its blocks from libc's (the arena itself is
    /// thread 0's).
    arena: (usize, usize),
    barrier: Barrier,
    /// Largest loop iteration a worker ran in the epoch (u64::MAX: none).
    max_iter: AtomicU64,
    pending: Mutex<Pending>,
    /// copyprivate: thread 0's bytes for the others.
    copy: Mutex<Vec<u8>>,
    /// `copyin`: thread 0's threadprivate values at the region's start (address of thread 0's
    /// copy, bytes), and the address of thread 0's `TLS_ANCHOR` (see `worker_copyin`).
    copyin: Vec<(usize, Vec<u8>)>,
    anchor: usize,
    /// The shared memory of the active region between ranks (empty: none).
    shared: Vec<(usize, usize)>,
    /// This rank's OpenMP threads `base .. base + count`.
    base: u32,
    count: u32,
    /// The iteration cursor of each dynamic/guided loop of the region, by its index among the
    /// region's such loops (the threads of a rank meet the same loops in the same order).
    loops: Mutex<HashMap<u64, Arc<AtomicU64>>>,
    /// A call a worker hands thread 0 (`on_thread_0`), its answer, and the worker's turn.
    call: Mutex<Option<Call>>,
    called: AtomicBool,
    answer: Mutex<Option<usize>>,
    turn: Mutex<()>,
    /// General `critical` sections and lock pairs of the rank's threads.
    locks: RankLocks,
}

/// Work for thread 0 with its answer (an address or a number).
type Call = Box<dyn FnOnce() -> usize + Send>;

impl RankTeam {
    /// Thread 0 waiting for the others: makes the call a worker handed it, if any.
    fn serve(&self) -> bool {
        if !self.called.load(Ordering::Acquire) {
            return false;
        }
        let call = self.call.lock().unwrap_or_else(|e| e.into_inner()).take();
        let Some(call) = call else { return false };
        let answer = call();
        *self.answer.lock().unwrap_or_else(|e| e.into_inner()) = Some(answer);
        self.called.store(false, Ordering::Release);
        true
    }

    /// A barrier of the rank's threads; thread 0 serves the workers' calls meanwhile.
    fn meet(&self) {
        if LOCAL.with(Cell::get) == 0 {
            self.barrier.wait_serving(&|| self.serve());
        } else {
            self.barrier.wait();
        }
    }
}

/// Reductions and atomic updates of the epoch, in the order the rank's threads made them.
#[derive(Default)]
struct Pending {
    reductions: Vec<(ProgramBytes, Combiner, Vec<u8>)>,
    /// atomic updates: each thread's log (by its index in the rank), handed over at the
    /// merge point; `before`: each target's value before the rank's first update of it in the
    /// epoch.
    updates: Vec<(u32, UpdateLog)>,
    before: HashMap<usize, Vec<u8>>,
    /// `atomic capture` targets counted between ranks (cells to empty at the merge), and the
    /// deltas captured so far of those counted in the rank alone.
    captured: Vec<usize>,
    local_captures: HashMap<usize, i64>,
    /// What general `critical` sections and lock pairs of the rank's threads left.
    sections: ForMerge,
}

/// One thread's `atomic` updates of shared memory in an epoch of a team of several ranks, in
/// the order it made them (a wide operand's scratch word and the update that reads it stay
/// side by side), and the targets whose value before the rank's first update is taken.
#[derive(Default)]
struct UpdateLog {
    /// target, combiner, operand's length (its bytes follow one another in `operands`)
    updates: Vec<(ProgramBytes, Combiner, usize)>,
    operands: Vec<u8>,
    known: HashSet<usize, AddrHash>,
    /// the last target found in `known` (most loops update one variable)
    last: usize,
    /// per target whose latest update folds: its index in `updates` and operand offset
    latest: HashMap<usize, (usize, usize), AddrHash>,
}

thread_local! {
    /// This thread's `atomic` updates in a team of several ranks (see `atomic_update`).
    static UPDATES: RefCell<UpdateLog> = RefCell::new(UpdateLog::default());
    /// This thread's index in its rank's team (0: the rank's own thread).
    static LOCAL: Cell<u32> = const { Cell::new(0) };
    /// The rank team of the region this thread runs, if its rank runs several threads.
    static TEAM: RefCell<Option<Arc<RankTeam>>> = const { RefCell::new(None) };
    /// Dynamic/guided loops this thread started in the current region.
    static LOOPS_STARTED: Cell<u64> = const { Cell::new(0) };
    /// A worker runs a `masked` block.
    static IN_BLOCK: Cell<bool> = const { Cell::new(false) };
    /// Lies in the executable's static TLS block, as the program's threadprivate variables do
    /// (the runtime is linked into it): the distance between the two is the same on every thread.
    static TLS_ANCHOR: u8 = const { 0 };
}

/// `__cape_atomic_direct` (and `__cape_team_direct`, the flag translated code reads): the
/// region running is a team of several threads of this rank that no other rank takes part in
/// (no shared memory between ranks). An `atomic` update is then not logged, and the translated
/// code makes it as one locked instruction or a compare-and-swap loop when `x` has one (its
/// type, size and alignment decide, so every update of one variable takes a hardware atomic
/// or `atomic_update` under the rank's lock); a general `critical` section takes a lock word
/// of its name in the translated code. Set by thread 0 (`TEAM_DIRECT`) before the workers
/// start and restored after they are done.
pub fn atomic_direct() -> bool {
    TEAM_DIRECT.load(Ordering::Acquire) != 0
}

fn tls_anchor() -> usize {
    TLS_ANCHOR.with(|a| a as *const u8 as usize)
}

fn team() -> Option<Arc<RankTeam>> {
    TEAM.with(|t| t.borrow().clone())
}

/// The rank team whose region is this thread's innermost one. None outside a rank team, and
/// inside a region nested in it: a team of one on this thread, whose barriers and
/// `copyprivate` involve no other thread (the rank's other threads may be anywhere, waiting at
/// the end of the `single` or `sections` this thread runs the nested region in).
fn team_of_innermost() -> Option<Arc<RankTeam>> {
    team().filter(|_| with_state(|s| s.team.innermost_hybrid()))
}

/// This thread runs a region together with other threads of its rank.
pub fn in_rank_team() -> bool {
    TEAM.with(|t| t.borrow().is_some())
}

/// A thread of the rank other than its thread 0, inside a region.
pub fn is_worker() -> bool {
    in_rank_team() && LOCAL.with(Cell::get) != 0
}

/// A team level's snapshot for the workers: the levels of thread 0 with the innermost one's
/// thread number replaced, and the ICVs a worker reads.
#[derive(Clone)]
pub(super) struct WorkerTeam {
    levels: Vec<Level>,
    schedule: Option<(i32, i32)>,
    /// `omp_get_max_threads()` of thread 0
    max_threads: u32,
}

impl WorkerTeam {
    pub(super) fn of(s: &State) -> WorkerTeam {
        WorkerTeam {
            levels: s.team.levels.clone(),
            schedule: super::team::schedule_set(s),
            max_threads: super::team::default_team_size(s),
        }
    }
}

/// Whether a team may run several threads in a rank. Not with the mprotect tracker (its
/// fault handler copies a page's twin while another thread could already write the page):
/// teams then stay one thread per rank as before (`num_threads(n)` is capped at the rank
/// count, with one warning: `capped`), and `OMP_NUM_THREADS` > 1 is refused with one line.
pub(super) fn allowed(s: &State) -> bool {
    let Some(rt) = s.rt.as_ref() else {
        return true;
    };
    let why = if rt.tracker.kind() == crate::track::TrackerKind::Mprotect {
        "several threads per rank need the uffd tracker, but this run uses the mprotect one \
         (`CAPE_TRACKER=mprotect`, or a kernel without userfaultfd write protection)"
    } else {
        return true;
    };
    if rt.cfg.num_threads.is_some_and(|t| t > 1) {
        crate::runtime::fatal_at_merge(
            rt.rank,
            &format!("{why}: unset `OMP_NUM_THREADS` (one thread per rank)"),
        );
    }
    false
}

/// The team size of a region that asked for `requested` threads when a rank may run only one
/// (`allowed` is false): at most the rank count.
pub(super) fn capped(requested: u32, ranks: u32, rank: usize) -> u32 {
    static WARNED: AtomicBool = AtomicBool::new(false);
    limited(requested, ranks, 1, rank, &WARNED, || {
        format!(
            "one per rank): the mprotect page tracker cannot run several threads in a rank; \
             unset `CAPE_TRACKER` to use the uffd tracker, or run with {requested} ranks"
        )
    })
}

/// The team size of a region that asked for `requested` threads over `ranks` ranks: at most
/// `MAX_THREADS_PER_RANK` in each (a `num_threads` clause or `omp_set_num_threads` beyond it).
pub(super) fn bounded(requested: u32, ranks: u32, rank: usize) -> u32 {
    static WARNED: AtomicBool = AtomicBool::new(false);
    let per_rank = crate::config::MAX_THREADS_PER_RANK;
    limited(requested, ranks, per_rank, rank, &WARNED, || {
        format!(
            "at most {per_rank} threads per rank: the threads of a rank share its cores); run \
             more ranks for a bigger team"
        )
    })
}

/// `requested`, at most `per_rank` threads in each of `ranks` ranks. OpenMP lets an
/// implementation give fewer threads than `num_threads` asks, but a program that prints its
/// team size would then differ from gcc's build without a word, so rank 0 says so once per
/// kind of limit (`warned`), `why` ending the line's parenthesis.
fn limited(
    requested: u32,
    ranks: u32,
    per_rank: u32,
    rank: usize,
    warned: &AtomicBool,
    why: impl FnOnce() -> String,
) -> u32 {
    let most = per_rank.saturating_mul(ranks.max(1));
    if requested > most && rank == 0 && !warned.swap(true, Ordering::Relaxed) {
        crate::diag::eprint_line(&format!(
            "capert: warning: a team of {requested} threads runs with {most} ({}",
            why()
        ));
    }
    requested.min(most)
}

/// Before a region with several threads in a rank: every invalid page of the demand-driven
/// merge in shared memory is fetched (the region then merges eagerly).
pub(super) fn validate_shared(rt: &crate::runtime::Runtime, sp: usize) {
    if rt.lazy.is_none() {
        return;
    }
    for (lo, hi) in super::epoch::shared_ranges(rt, sp) {
        crate::sys::invalid::validate_range(lo, hi - lo);
    }
}

/// Runs the region's body on `count` threads of this rank: `body(0)` here, `body(t)` on the
/// pool's threads with their own team state from `snapshot`; returns when all are done.
pub(super) fn run(
    count: u32,
    base: u32,
    ranks: u32,
    snapshot: WorkerTeam,
    body: impl Fn() + Send + Sync + 'static,
    main: impl FnOnce(),
) -> Result<(), String> {
    let (rank, arena, copyin, shared, between) = with_state(|s| {
        let arena = s.rt.as_ref().map_or((0, 0), |rt| rt.arena.bounds());
        let rank = s.rank_size().0;
        let shared = super::constructs::active_shared_ranges(s);
        let between = s.rt.as_ref().filter(|_| !shared.is_empty()).map(|rt| {
            // the arena whole: a block a `single` allocates in the region is shared too
            let mut shared = shared.clone();
            shared.push(arena);
            BetweenRanks {
                shared,
                program: rt.same_program,
                logged: rt.ft.is_some(),
            }
        });
        let copyin = s.threadprivates.values_at_start(rank);
        (rank, arena, copyin, shared, between)
    });
    let rank_team = Arc::new(RankTeam {
        rank,
        ranks,
        arena,
        barrier: Barrier::new(count as usize),
        max_iter: AtomicU64::new(u64::MAX),
        pending: Mutex::new(Pending::default()),
        copy: Mutex::new(Vec::new()),
        copyin,
        anchor: tls_anchor(),
        shared,
        base,
        count,
        loops: Mutex::new(HashMap::new()),
        call: Mutex::new(None),
        called: AtomicBool::new(false),
        answer: Mutex::new(None),
        turn: Mutex::new(()),
        locks: RankLocks::new(between),
    });
    let worker_team = Arc::clone(&rank_team);
    let job: pool::Job = Arc::new(move |t| {
        enter(&worker_team, t);
        with_state(|s| {
            s.team.levels = snapshot.levels.clone();
            if let Some(l) = s.team.levels.last_mut() {
                l.thread_num = base + t;
            }
            s.team.schedule = snapshot.schedule;
            s.team.num_threads = Some(snapshot.max_threads);
        });
        body();
        hand_over_updates(&worker_team);
        with_state(|s| {
            s.team.levels.clear();
            s.team.schedule = None;
            s.team.num_threads = None;
            s.team.worksharing = None;
            s.team.ordered = None;
        });
        leave();
    });
    enter(&rank_team, 0);
    let serving = Arc::clone(&rank_team);
    let direct = TEAM_DIRECT.swap(i32::from(rank_team.shared.is_empty()), Ordering::AcqRel);
    let result = pool::pool().run(count, job, main, &|| serving.serve(), ranks > 1);
    TEAM_DIRECT.store(direct, Ordering::Release);
    leave();
    // the workers are done: what they left is thread 0's to merge
    with_state(|s| take_pending(s, &rank_team));
    result
}

fn enter(team: &Arc<RankTeam>, local: u32) {
    LOCAL.with(|l| l.set(local));
    LOOPS_STARTED.with(|c| c.set(0));
    TEAM.with(|t| *t.borrow_mut() = Some(Arc::clone(team)));
}

fn leave() {
    LOCAL.with(|l| l.set(0));
    TEAM.with(|t| *t.borrow_mut() = None);
}

/// A dynamic/guided loop of a rank team starts on this thread: its index among the region's
/// such loops and the rank's threads (`base`, `count`); the first thread of the rank to get
/// here sets the loop's shared cursor to `start(base, count)`. None outside a rank team.
pub fn rank_loop(start: impl FnOnce(u32, u32) -> u64) -> Option<(u64, u32, u32)> {
    let t = team()?;
    let index = LOOPS_STARTED.with(|c| {
        c.set(c.get() + 1);
        c.get()
    });
    t.loops
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .entry(index)
        .or_insert_with(|| Arc::new(AtomicU64::new(start(t.base, t.count))));
    Some((index, t.base, t.count))
}

/// `take` on the shared cursor of the rank team's loop `index` (see `rank_loop`).
pub fn with_loop_cursor<R>(index: u64, take: impl FnOnce(&AtomicU64) -> R) -> Option<R> {
    let t = team()?;
    let cursor = t
        .loops
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(&index)
        .cloned()?;
    Some(take(&cursor))
}

/// A worker ran loop iteration `iter`.
pub(super) fn note_iteration(iter: u64) {
    if let Some(t) = team() {
        t.max_iter
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |m| {
                Some(if m == u64::MAX { iter } else { m.max(iter) })
            })
            .ok();
    }
}

fn lock(team: &RankTeam) -> MutexGuard<'_, Pending> {
    team.pending.lock().unwrap_or_else(|e| e.into_inner())
}

/// `__cape_reduce` on any thread of a rank team: kept for thread 0's next merge point.
/// False outside a rank team.
pub fn reduce(shared: ProgramBytes, combiner: Combiner, partial: Vec<u8>) -> bool {
    let Some(t) = team() else { return false };
    lock(&t).reductions.push((shared, combiner, partial));
    true
}

/// `__cape_atomic_update` on any thread of a rank team. False outside a rank team.
///
/// In a team this rank runs alone nothing is merged: the update is made under the rank's
/// lock (the translated code makes the others itself). In a team of several ranks the merge
/// applies every rank's updates to the value before the epoch, so the rank needs that value
/// and each update's operand: a thread takes the rank's lock only at its first update of a
/// target in the epoch (the first thread of the rank to get there reads the value before,
/// and nobody updates the target before that), then updates it as libgomp does, one
/// compare-and-swap loop (a target without one stays under the lock, all its updates do),
/// and appends the operand to a log of its own, which goes to thread 0 at the merge point.
pub fn atomic_update(
    target: ProgramBytes,
    combiner: Combiner,
    operand: &[u8],
    folds: bool,
) -> bool {
    // borrowed, not cloned (see `with_rank_locks`)
    TEAM.with(|team| {
        let team = team.borrow();
        let Some(t) = team.as_ref() else {
            return false;
        };
        let apply_locked = || {
            let _pending = lock(t);
            // user code under the lock: the update must not interleave with another thread's
            crate::access_check::paused(|| combiner.apply(target, operand));
        };
        if t.shared.is_empty() {
            apply_locked();
            return true;
        }
        let addr = target.addr();
        UPDATES.with(|log| {
            let mut log = log.borrow_mut();
            if log.last != addr && !log.known.contains(&addr) {
                lock(t).before.entry(addr).or_insert_with(|| target.read());
                log.known.insert(addr);
            }
            log.last = addr;
            let cas = crate::access_check::paused(|| combiner.apply_atomically(target, operand));
            if !cas {
                apply_locked();
            }
            // updates of one variable by an associative, commutative operation whose operand
            // has its type: one record (`x + a + b` as `x + (a + b)`; the updates of other
            // variables between them commute with them)
            if folds {
                if let Some(&(at, offset)) = log.latest.get(&addr) {
                    let (_, f, len) = log.updates[at];
                    if f.address() == combiner.address() && len == operand.len() {
                        combiner.fold(&mut log.operands[offset..offset + len], operand);
                        return;
                    }
                }
            }
            if folds {
                let at = (log.updates.len(), log.operands.len());
                log.latest.insert(addr, at);
            } else {
                log.latest.remove(&addr);
            }
            log.updates.push((target, combiner, operand.len()));
            log.operands.extend_from_slice(operand);
        });
        true
    })
}

/// Hands this thread's `atomic` log to its rank (at a merge point, or as it leaves the
/// region): the next epoch starts with no target known.
fn hand_over_updates(t: &RankTeam) {
    let log = UPDATES.with(|log| std::mem::take(&mut *log.borrow_mut()));
    if !log.updates.is_empty() || !log.known.is_empty() {
        lock(t).updates.push((LOCAL.with(Cell::get), log));
    }
}

/// `atomic capture` (`__cape_atomic_fetch_add`) on any thread of a rank team: `x` before the
/// rank's first update of it in the epoch, and the deltas earlier captures added. On shared
/// memory of a team of several ranks the deltas are counted on rank 0's cell (the MPI calls
/// of the rank's threads one at a time); otherwise in the rank, under its lock. None outside
/// a rank team.
pub fn capture_fetch_add(x: ProgramBytes, delta: i64) -> Option<(Vec<u8>, i64)> {
    let t = team()?;
    let addr = x.addr();
    let mut pending = lock(&t);
    let before = pending
        .before
        .entry(addr)
        .or_insert_with(|| x.read())
        .clone();
    let between_ranks = t.ranks > 1
        && t.shared
            .iter()
            .any(|&(lo, hi)| addr >= lo && addr + x.len() <= hi);
    let earlier = if between_ranks {
        if !pending.captured.contains(&addr) {
            pending.captured.push(addr);
        }
        let slot = addr % crate::sys::mpi::CAPTURE_SLOTS;
        match crate::sys::mpi::capture_fetch_add_any_thread(slot, delta) {
            Some(earlier) => earlier,
            None => refuse(
                "`#pragma omp atomic capture` (this MPI does not give `MPI_THREAD_SERIALIZED`)",
            ),
        }
    } else {
        let sum = pending.local_captures.entry(addr).or_insert(0);
        let earlier = *sum;
        *sum += delta;
        earlier
    };
    Some((before, earlier))
}

/// Thread 0 takes what the workers left: reductions become records of the region (or,
/// without an active region between ranks, are combined now), atomic updates are logged
/// as thread 0's own would have been.
fn take_pending(s: &mut State, t: &RankTeam) {
    hand_over_updates(t);
    let pending = std::mem::take(&mut *lock(t));
    let worker_iter = t.max_iter.swap(u64::MAX, Ordering::AcqRel);
    if worker_iter != u64::MAX {
        s.team.note_iteration(worker_iter);
    }
    if let Some(r) = s.team.region.as_mut() {
        for &target in &pending.captured {
            if r.captured.insert(target) {
                r.records.push(Record::Capture { target });
            }
        }
    }
    let mut logs = pending.updates;
    // the rank's threads in order (each thread's updates in its order): the same records
    // whichever thread reached the merge point first
    logs.sort_by_key(|(local, _)| *local);
    let shared = super::constructs::active_shared_ranges(s);
    if let Some(r) = s.team.region.as_mut() {
        let mut updater: HashMap<usize, u32> = HashMap::new();
        for (local, log) in &logs {
            for (target, _, _) in &log.updates {
                if *updater.entry(target.addr()).or_insert(*local) != *local {
                    r.several_threads.insert(target.addr());
                }
            }
        }
        for (_, log) in logs {
            let mut operands = log.operands.as_slice();
            for (target, combiner, len) in log.updates {
                let (operand, rest) = operands.split_at(len.min(operands.len()));
                operands = rest;
                let addr = target.addr();
                if !super::constructs::within(&shared, addr, len) {
                    continue;
                }
                if let std::collections::hash_map::Entry::Vacant(slot) = r.before.entry(addr) {
                    slot.insert(pending.before.get(&addr).cloned().unwrap_or_default());
                    r.excluded.push((addr, addr + len));
                }
                r.records.push(Record::Combine {
                    target: addr,
                    combiner: combiner.address(),
                    operand: operand.to_vec(),
                });
            }
        }
    }
    if let Some(r) = s.team.region.as_mut() {
        r.records.extend(pending.sections.records);
        r.excluded.extend(pending.sections.excluded);
    }
    for (shared, combiner, partial) in pending.reductions {
        if let Some(now) = super::constructs::reduce(s, shared, combiner, partial) {
            // no merge between ranks: combined here, the workers are waiting or done
            combiner.apply(shared, &now);
        }
    }
}

/// A barrier of a rank team: all its threads arrive, thread 0 takes what the workers left
/// and runs `merge` (the merge point between ranks), then all leave together. Returns
/// `merge`'s result on thread 0, Ok elsewhere. None outside a rank team and in a region
/// nested in one (`team_of_innermost`).
pub fn barrier(merge: impl FnOnce() -> Result<(), String>) -> Option<Result<(), String>> {
    let t = team_of_innermost()?;
    if LOCAL.with(Cell::get) != 0 {
        hand_over_updates(&t);
    }
    t.meet();
    let mut result = Ok(());
    if LOCAL.with(Cell::get) == 0 {
        with_state(|s| take_pending(s, &t));
        result = merge();
        t.meet();
    } else if t.ranks > 1 {
        // thread 0 merges with the other ranks: their merging threads need the cores more
        // than this one needs to leave the barrier a microsecond early
        t.barrier.wait_briefly();
    } else {
        t.meet();
    }
    Some(result)
}

/// After thread 0's merge between ranks at a barrier of a rank team: the cross-rank locks'
/// logs start again (rank 0 emptied them), so the rank has read none of their bytes.
pub fn sections_merged() {
    if let Some(t) = team() {
        t.locks.merged();
    }
}

/// `f` on the locks of this thread's rank team; what it leaves for the merge goes to
/// thread 0. None outside a rank team.
fn with_rank_locks<R>(f: impl FnOnce(&RankLocks, &mut ForMerge) -> R) -> Option<R> {
    // borrowed, not cloned: a count changed by every thread at every call would bounce
    // between their cores (the table changes only at the region's start and end)
    TEAM.with(|team| {
        let team = team.borrow();
        let t = team.as_ref()?;
        let mut out = ForMerge::default();
        let result = f(&t.locks, &mut out);
        if !out.records.is_empty() || !out.excluded.is_empty() {
            let mut pending = lock(t);
            pending.sections.records.append(&mut out.records);
            pending.sections.excluded.append(&mut out.excluded);
        }
        Some(result)
    })
}

/// Takes a general `critical` section's or lock pair's lock `slot` in a rank team
/// (`rank_locks.rs`). None outside a rank team.
pub fn section_enter(slot: usize) -> Option<Result<(), String>> {
    with_rank_locks(|l, out| l.enter(slot, out))
}

/// Leaves lock `slot` (see `section_enter`).
pub fn section_exit(slot: usize) -> Option<Result<(), String>> {
    with_rank_locks(|l, out| l.exit(slot, out))
}

/// A nest lock set or unset again by its holder (see `RankLocks::nest`).
pub fn section_nest(slot: usize, delta: i32) -> Option<Result<Option<u32>, String>> {
    with_rank_locks(|l, out| l.nest(slot, delta, out))
}

/// Whether this thread holds lock `slot` (see `section_enter`).
pub fn section_holds(slot: usize) -> Option<bool> {
    with_rank_locks(|l, _| l.holds(slot))
}

/// A store inside a section of a rank team; false outside a rank team.
pub fn section_store(addr: usize, len: usize) -> bool {
    with_rank_locks(|l, _| l.store(addr, len)).is_some()
}

/// `malloc` inside a section of a rank team (see `RankLocks::alloc`).
pub fn section_alloc(size: usize) -> Option<Result<Option<usize>, String>> {
    with_rank_locks(|l, _| l.alloc(size))
}

/// `copyprivate` in a rank team: thread 0 gets the value from the team (`broadcast`, the
/// exchange between ranks) and hands it to the other threads of the rank. None outside a
/// rank team, and in a region nested in one.
pub fn copyprivate(var: ProgramBytes, broadcast: impl FnOnce(ProgramBytes)) -> Option<()> {
    let t = team_of_innermost()?;
    t.meet();
    if LOCAL.with(Cell::get) == 0 {
        broadcast(var);
        *t.copy.lock().unwrap_or_else(|e| e.into_inner()) = var.read();
    }
    t.meet();
    if LOCAL.with(Cell::get) != 0 {
        var.write(&t.copy.lock().unwrap_or_else(|e| e.into_inner()));
    }
    t.meet();
    Some(())
}

/// `__cape_copyin` on a worker: its copy of the threadprivate variable (in its own TLS block)
/// gets thread 0's value at the region's start. False on thread 0 and outside a rank team.
pub fn worker_copyin(var: ProgramBytes) -> bool {
    let Some(t) = team().filter(|_| is_worker()) else {
        return false;
    };
    // the same offset in thread 0's TLS block
    let at = t.anchor.wrapping_add(var.addr().wrapping_sub(tls_anchor()));
    for (addr, bytes) in &t.copyin {
        if at >= *addr && at + var.len() <= addr + bytes.len() {
            var.write(&bytes[at - addr..at - addr + var.len()]);
            break;
        }
    }
    true
}

/// A worker's heap call on `addr`: is it an arena block (thread 0's allocator)?
pub fn in_arena(addr: usize) -> bool {
    team().is_some_and(|t| addr >= t.arena.0 && addr < t.arena.1)
}

/// A worker starts or ends a `masked` block it runs.
pub fn set_in_block(on: bool) {
    if is_worker() {
        IN_BLOCK.with(|b| b.set(on));
    }
}

/// A worker's heap call inside a `masked` block of a team of several ranks, whose blocks the
/// other ranks must see: thread 0 owns the arena, so it makes the call (`call`, on thread 0)
/// the next time it waits for the rank's threads; the worker waits for the answer. None when
/// the call is this thread's own (thread 0, outside such a block: libc).
pub fn heap_call_on_thread_0(call: impl FnOnce() -> usize + Send + 'static) -> Option<usize> {
    if !IN_BLOCK.with(Cell::get) {
        return None;
    }
    let t = team().filter(|t| t.ranks > 1 && is_worker())?;
    let _turn = t.turn.lock().unwrap_or_else(|e| e.into_inner());
    *t.call.lock().unwrap_or_else(|e| e.into_inner()) = Some(Box::new(call));
    t.called.store(true, Ordering::Release);
    t.barrier.nudge();
    pool::pool().nudge();
    let mut waited = 0u32;
    loop {
        if let Some(answer) = t.answer.lock().unwrap_or_else(|e| e.into_inner()).take() {
            return Some(answer);
        }
        waited += 1;
        if waited < 1000 {
            std::hint::spin_loop();
        } else {
            std::thread::sleep(std::time::Duration::from_micros(20));
        }
    }
}

/// A construct hybrid mode does not run yet: one `capert: error:` line (world rank 0's first
/// thread to get here prints it; the job ends with it).
pub fn refuse(what: &str) -> ! {
    static PRINTED: AtomicBool = AtomicBool::new(false);
    // a worker's own state has no runtime: the rank is its team's
    let rank = team().map_or_else(|| with_state(|s| s.rank_size().0), |t| t.rank);
    if rank != 0 || PRINTED.swap(true, Ordering::SeqCst) {
        std::thread::sleep(std::time::Duration::from_secs(30));
    }
    crate::runtime::fatal(&format!(
        "{what} is not supported with several threads per rank yet: run one thread per rank \
         (unset `OMP_NUM_THREADS`, no `num_threads(n)` above the rank count)"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_team_is_bounded_per_rank() {
        let most = crate::config::MAX_THREADS_PER_RANK;
        assert_eq!(bounded(8, 2, 1), 8);
        assert_eq!(bounded(2 * most, 2, 1), 2 * most);
        assert_eq!(bounded(100_000, 2, 1), 2 * most);
        assert_eq!(bounded(100_000, 1, 1), most);
        assert_eq!(bounded(u32::MAX, u32::MAX, 1), u32::MAX);
    }

    #[test]
    fn threads_are_spread_in_blocks() {
        // R*T threads: thread t of rank r is r*T + t
        for (r, base) in [(0, 0), (1, 3), (2, 6)] {
            assert_eq!(
                spread(9, 3, r),
                Spread {
                    ranks: 3,
                    base,
                    count: 3
                }
            );
        }
        // 10 threads over 4 ranks: 3 3 2 2
        let counts: Vec<_> = (0..4).map(|r| spread(10, 4, r).count).collect();
        assert_eq!(counts, [3, 3, 2, 2]);
        assert_eq!(spread(10, 4, 2).base, 6);
        // fewer threads than ranks: one each, the rest outside
        assert_eq!(spread(2, 4, 1).count, 1);
        assert_eq!(spread(2, 4, 3).count, 0);
        for n in 1..20 {
            for world in 1..6 {
                let total: u32 = (0..world).map(|r| spread(n, world, r).count).sum();
                assert_eq!(total, n);
            }
        }
    }
}
