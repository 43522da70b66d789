//! General `critical` sections and lock pairs in a rank team (hybrid execution: several threads
//! in a rank). A thread first takes the rank's own lock of the slot, a mutex among the rank's
//! threads (spin, then a condition variable: libgomp's cost while no other rank wants the
//! lock); in a team of several ranks, the rank then takes the slot's cross-rank ticket lock
//! (`lock.rs`, `sys/mpi_lock.rs`; the MPI calls of the rank's threads one at a time) and
//! writes the log's new bytes into its memory. While another thread of the rank wants the
//! slot, the leaving holder keeps the ticket for it, and its successor runs under it without
//! an MPI call (every `PASSES` sections the rank asks whether another rank waits, and passes
//! the ticket on if one does). When the ticket leaves the rank, the bytes its sections wrote
//! under it (their stores, coalesced, read then) go into the log as one entry set and into
//! one merge record with the ticket, as one section of a rank of one thread would; the
//! record and the bytes it leaves out of the rank's diff go to the rank's thread 0
//! (`threads.rs`), which merges them at the next merge point.

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};

use super::lock::{self, ALLOC_LOGGED};
use super::records::Record;
use crate::sys::mpi_lock::{self, LOCK_SLOTS};
use crate::sys::raw::SameProgram;

/// Sections of a rank in a row under one ticket while its threads want the lock, before it
/// asks whether another rank waits for it.
const PASSES: u64 = 32;
/// Spins on a taken lock before sleeping.
const SPINS: u32 = 1000;

/// What the locks need of a team of several ranks.
pub(super) struct BetweenRanks {
    /// The region's shared memory: stores elsewhere are private and not recorded.
    pub shared: Vec<(usize, usize)>,
    pub program: SameProgram,
    /// Checkpointing is on (no allocation inside sections).
    pub logged: bool,
}

/// The locks of one rank team.
pub(super) struct RankLocks {
    slots: Vec<Slot>,
    /// None: the team is this rank alone, the rank's lock is all there is.
    between: Option<BetweenRanks>,
}

struct Slot {
    /// The rank's lock: taken or not (a compare-and-swap when free, as libgomp's mutex).
    taken: AtomicBool,
    /// Threads asleep waiting for it (changed under `sleep`, read by the releaser).
    asleep: AtomicU32,
    sleep: Mutex<()>,
    freed: Condvar,
    /// Threads of the rank waiting to take it (between ranks only: the holder then keeps
    /// the ticket for them).
    wanting: AtomicU32,
    /// What the rank shares about the cross-rank lock (between ranks only).
    cross: Mutex<CrossState>,
}

#[derive(Default)]
struct CrossState {
    /// The cross-rank ticket the rank holds between two of its sections.
    ticket: Option<Ticket>,
    /// The log bytes already in this rank's memory.
    seen: usize,
}

struct Ticket {
    ticket: u64,
    /// The log's length when the rank took it (nobody else appends while the rank holds it).
    log_len: usize,
    /// Sections of the rank under it so far.
    pass: u64,
    /// Their stores, read and logged when the ticket leaves the rank (its own threads do not
    /// need the log: the bytes are in its memory).
    stores: Vec<(usize, usize)>,
}

/// A lock this thread holds.
struct Held {
    slot: usize,
    depth: u32,
    /// (address, length) of the section's stores in shared memory.
    stores: Vec<(usize, usize)>,
    /// The ticket it runs under (between ranks).
    ticket: Option<Ticket>,
}

thread_local! {
    static HELD: RefCell<Vec<Held>> = const { RefCell::new(Vec::new()) };
}

/// What sections hand to the rank's merge: their records and the bytes they leave out of
/// the rank's diff (theirs and the log's).
#[derive(Default)]
pub(super) struct ForMerge {
    pub records: Vec<Record>,
    pub excluded: Vec<(usize, usize)>,
}

fn guard<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl RankLocks {
    pub(super) fn new(between: Option<BetweenRanks>) -> RankLocks {
        RankLocks {
            slots: (0..LOCK_SLOTS)
                .map(|_| Slot {
                    taken: AtomicBool::new(false),
                    asleep: AtomicU32::new(0),
                    sleep: Mutex::new(()),
                    freed: Condvar::new(),
                    wanting: AtomicU32::new(0),
                    cross: Mutex::new(CrossState::default()),
                })
                .collect(),
            between,
        }
    }

    fn slot(&self, slot: usize) -> Option<&Slot> {
        self.slots.get(slot % LOCK_SLOTS)
    }

    /// Takes lock `slot` for this thread (again, if it holds it: one level deeper).
    pub(super) fn enter(&self, slot: usize, out: &mut ForMerge) -> Result<(), String> {
        if nest_here(slot, 1).is_some() {
            return Ok(());
        }
        let s = self.slot(slot).ok_or("internal error: no lock slot")?;
        s.take(self.between.is_some());
        let (ticket, seen) = match self.between {
            Some(_) => {
                let mut cross = guard(&s.cross);
                (cross.ticket.take(), cross.seen)
            }
            None => (None, 0),
        };
        let ticket = match (&self.between, ticket) {
            (Some(_), Some(t)) => Some(t),
            (Some(b), None) => {
                if !crate::sys::mpi::any_thread_allowed() {
                    return Err(
                        "a `critical` section or lock pair in a team of several threads \
                         per rank needs `MPI_THREAD_SERIALIZED`, which this MPI does not give: \
                         run one thread per rank (unset `OMP_NUM_THREADS`, no `num_threads(n)` \
                         above the rank count)"
                            .into(),
                    );
                }
                let (ticket, log_len) = mpi_lock::acquire(slot).ok_or(
                    "internal error: a cross-rank lock without its window (the program did not \
                     register its critical sections)",
                )?;
                let log = mpi_lock::read_log(slot, seen, log_len)?;
                lock::apply_log(b.program, &log, &mut out.excluded)?;
                Some(Ticket {
                    ticket,
                    log_len,
                    pass: 0,
                    stores: Vec::new(),
                })
            }
            (None, _) => None,
        };
        HELD.with(|h| {
            h.borrow_mut().push(Held {
                slot,
                depth: 1,
                stores: Vec::new(),
                ticket,
            })
        });
        Ok(())
    }

    /// Leaves lock `slot` once (released when this was the outermost level).
    pub(super) fn exit(&self, slot: usize, out: &mut ForMerge) -> Result<(), String> {
        let Some(depth) = nest_here(slot, -1) else {
            return Err(
                "a critical section or lock released that this thread does not hold".into(),
            );
        };
        if depth > 0 {
            return Ok(());
        }
        let held = HELD.with(|h| {
            let mut h = h.borrow_mut();
            let at = h.iter().rposition(|x| x.slot == slot)?;
            Some(h.remove(at))
        });
        let (Some(held), Some(s)) = (held, self.slot(slot)) else {
            return Ok(());
        };
        if let (Some(b), Some(mut t)) = (&self.between, held.ticket) {
            t.stores.extend(held.stores);
            // a thread of the rank waits: it runs under the same ticket, after this section,
            // unless the rank had its turn and another rank waits (asked every `PASSES`)
            let keep = s.wanting.load(Ordering::Acquire) > 0
                && ((t.pass + 1) % PASSES != 0 || !mpi_lock::others_waiting(slot, t.ticket));
            let mut cross = guard(&s.cross);
            if keep {
                t.pass += 1;
                cross.ticket = Some(t);
            } else {
                let (entries, runs) = lock::section_bytes(b.program, t.stores, &mut out.excluded);
                mpi_lock::release(slot, t.log_len, &entries)?;
                cross.seen = t.log_len + entries.len();
                cross.ticket = None;
                out.records.push(Record::Section {
                    slot,
                    seq: t.ticket,
                    runs,
                });
            }
        }
        s.give_back();
        Ok(())
    }

    /// A nest lock set (`delta` 1) or unset (-1) again while this thread holds it: the depth
    /// after the change (0: released), or None when it does not hold it.
    pub(super) fn nest(
        &self,
        slot: usize,
        delta: i32,
        out: &mut ForMerge,
    ) -> Result<Option<u32>, String> {
        if delta > 0 {
            return Ok(nest_here(slot, 1));
        }
        match nest_here(slot, 0) {
            None => Ok(None),
            Some(depth) if depth > 1 => Ok(nest_here(slot, -1)),
            Some(_) => self.exit(slot, out).map(|()| Some(0)),
        }
    }

    /// Whether this thread holds lock `slot`.
    pub(super) fn holds(&self, slot: usize) -> bool {
        nest_here(slot, 0).is_some()
    }

    /// A store of the program inside a section: `[addr, addr + len)` goes with the locks this
    /// thread holds.
    pub(super) fn store(&self, addr: usize, len: usize) {
        let Some(b) = &self.between else { return };
        if !b
            .shared
            .iter()
            .any(|&(lo, hi)| addr >= lo && addr + len <= hi)
        {
            return;
        }
        HELD.with(|h| {
            for held in h.borrow_mut().iter_mut() {
                held.stores.push((addr, len));
            }
        });
    }

    /// `malloc` inside a section of this thread in a team of several ranks: a block of the
    /// sections' heap (None elsewhere: the rank's threads share its libc heap).
    pub(super) fn alloc(&self, size: usize) -> Result<Option<usize>, String> {
        let Some(b) = &self.between else {
            return Ok(None);
        };
        let Some(slot) = HELD.with(|h| h.borrow().last().map(|h| h.slot)) else {
            return Ok(None);
        };
        if b.logged {
            return Err(ALLOC_LOGGED.into());
        }
        let Some((block, header)) = lock::alloc_in_slot(b.program, slot, size)? else {
            return Ok(None);
        };
        self.store(header.0, header.1);
        Ok(Some(block))
    }

    /// After a merge point between ranks (every thread of the rank is at it, none holds a
    /// lock): the logs start empty again.
    pub(super) fn merged(&self) {
        for s in &self.slots {
            let mut cross = guard(&s.cross);
            cross.seen = 0;
            cross.ticket = None;
        }
    }
}

impl Slot {
    fn try_take(&self) -> bool {
        self.taken
            .compare_exchange(false, true, Ordering::SeqCst, Ordering::Relaxed)
            .is_ok()
    }

    /// Takes the rank's lock (`counted`: as one of the threads that want it).
    fn take(&self, counted: bool) {
        if self.try_take() {
            return;
        }
        if counted {
            self.wanting.fetch_add(1, Ordering::AcqRel);
        }
        let mut spins = 0;
        let mut taken = false;
        while spins < SPINS {
            if !self.taken.load(Ordering::Relaxed) && self.try_take() {
                taken = true;
                break;
            }
            spins += 1;
            std::hint::spin_loop();
        }
        if !taken {
            let mut asleep = guard(&self.sleep);
            // counted before the last try: a releaser that missed the count freed it before
            self.asleep.fetch_add(1, Ordering::SeqCst);
            while !self.try_take() {
                asleep = self.freed.wait(asleep).unwrap_or_else(|e| e.into_inner());
            }
            self.asleep.fetch_sub(1, Ordering::SeqCst);
        }
        if counted {
            self.wanting.fetch_sub(1, Ordering::AcqRel);
        }
    }

    /// Gives the rank's lock back.
    fn give_back(&self) {
        self.taken.store(false, Ordering::SeqCst);
        if self.asleep.load(Ordering::SeqCst) > 0 {
            // a sleeper holds `sleep` from its count to its wait: this wakes it
            let _sleepers = guard(&self.sleep);
            self.freed.notify_one();
        }
    }
}

/// This thread's depth in lock `slot` changed by `delta` (-1, 0, 1): the new depth, or None
/// when it does not hold it.
fn nest_here(slot: usize, delta: i32) -> Option<u32> {
    HELD.with(|h| {
        let mut h = h.borrow_mut();
        let held = h.iter_mut().rev().find(|x| x.slot == slot)?;
        held.depth = held.depth.saturating_add_signed(delta);
        Some(held.depth)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    /// The rank's lock excludes its threads from each other (a team of this rank alone).
    #[test]
    fn threads_of_a_rank_exclude_each_other() {
        let locks = Arc::new(RankLocks::new(None));
        let inside = Arc::new(AtomicU32::new(0));
        let count = Arc::new(AtomicU32::new(0));
        let threads: Vec<_> = (0..4)
            .map(|_| {
                let (locks, inside, count) = (locks.clone(), inside.clone(), count.clone());
                std::thread::spawn(move || {
                    for _ in 0..2000 {
                        let mut out = ForMerge::default();
                        locks.enter(7, &mut out).unwrap();
                        // nested entry of the same lock by its holder
                        locks.enter(7, &mut out).unwrap();
                        assert!(locks.holds(7));
                        assert_eq!(inside.fetch_add(1, Ordering::SeqCst), 0);
                        // a plain read-modify-write, safe only under the lock
                        let c = count.load(Ordering::Relaxed);
                        std::hint::spin_loop();
                        count.store(c + 1, Ordering::Relaxed);
                        inside.fetch_sub(1, Ordering::SeqCst);
                        locks.exit(7, &mut out).unwrap();
                        assert!(locks.holds(7));
                        locks.exit(7, &mut out).unwrap();
                        assert!(!locks.holds(7));
                        assert!(out.records.is_empty());
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        assert_eq!(count.load(Ordering::SeqCst), 8000);
        let mut out = ForMerge::default();
        assert!(locks.exit(7, &mut out).is_err());
    }

    /// A nest lock's depth goes up and down on its holder; the last unset releases it.
    #[test]
    fn nest_lock_depth() {
        let locks = RankLocks::new(None);
        let mut out = ForMerge::default();
        assert_eq!(locks.nest(3, 1, &mut out).unwrap(), None);
        locks.enter(3, &mut out).unwrap();
        assert_eq!(locks.nest(3, 1, &mut out).unwrap(), Some(2));
        assert_eq!(locks.nest(3, -1, &mut out).unwrap(), Some(1));
        assert_eq!(locks.nest(3, -1, &mut out).unwrap(), Some(0));
        assert!(!locks.holds(3));
        // free again: another thread takes it at once
        let locks = Arc::new(locks);
        let other = locks.clone();
        std::thread::spawn(move || {
            let mut out = ForMerge::default();
            other.enter(3, &mut out).unwrap();
            other.exit(3, &mut out).unwrap();
        })
        .join()
        .unwrap();
    }
}
