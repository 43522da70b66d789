//! The window of the cross-rank locks (general `critical` sections and OpenMP locks inside
//! regions, `region/lock.rs`): world rank 0 holds, per lock slot, a ticket lock (next ticket,
//! ticket being served) and the log of the bytes written under the lock since the last merge
//! point (its length, then the entries). Every operation is passive-target one-sided on rank
//! 0: a fetch-and-add of the ticket, polling the served ticket with fetch-and-add of 0
//! (atomic reads), `MPI_Get`/`MPI_Put` of log bytes while the lock is held. Open MPI's
//! `osc rdma` completes them while rank 0 computes; MPICH completes them at rank 0's next MPI
//! call (a waiter may wait until then: slower, still correct, rank 0 always reaches the next
//! merge point). Opened at start-up only when the program has such locks (a constructor of the
//! translated program sets `WANTED`), so other programs pay nothing.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use super::mpi::Comm;
use mpi::traits::*;

/// Lock slots: a critical name or a lock address hashes to one (two names sharing a slot
/// exclude each other, which is still correct).
pub const LOCK_SLOTS: usize = 64;
/// Words per slot: next ticket, ticket served, log length in bytes.
const SLOT_WORDS: usize = 3;

/// Set by `__cape_critical_used` (a constructor, before start-up).
pub static WANTED: AtomicBool = AtomicBool::new(false);

struct LockWindow {
    win: mpi::ffi::MPI_Win,
    /// rank 0's window memory (null elsewhere)
    base: *mut u64,
    log_bytes: usize,
}

// SAFETY: the window is used by one thread at a time: every use holds the Mutex below and the
// rank's turn at MPI (`mpi::one_at_a_time`), so the threads of a hybrid rank call MPI one after
// the other (`MPI_THREAD_SERIALIZED`).
unsafe impl Send for LockWindow {}

static WINDOW: Mutex<Option<LockWindow>> = Mutex::new(None);

/// `f` on the window, holding the rank's turn at MPI (one call at a time, never held while
/// waiting: another thread of the rank may hold the lock this one waits for).
fn with_window<R>(f: impl FnOnce(&LockWindow) -> R) -> Option<R> {
    let guard = WINDOW.lock().unwrap_or_else(|e| e.into_inner());
    let _turn = super::mpi::one_at_a_time();
    guard.as_ref().map(f)
}

/// Byte displacement of a slot's words and of its log.
fn word_at(slot: usize, word: usize) -> usize {
    ((slot % LOCK_SLOTS) * SLOT_WORDS + word) * 8
}

/// After the slots: the count of chunks of the sections' heap handed out (never reset).
const CHUNKS_AT: usize = LOCK_SLOTS * SLOT_WORDS * 8;

fn log_at(slot: usize, log_bytes: usize, offset: usize) -> usize {
    CHUNKS_AT + 8 + (slot % LOCK_SLOTS) * log_bytes + offset
}

/// Takes `n` chunks of the sections' heap (any lock may): the index of the first.
pub fn take_chunks(n: u64) -> Option<u64> {
    with_window(|w| {
        let mut old: u64 = 0;
        // SAFETY: the displacement is rank 0's chunk counter; both buffers are live until the
        // flush returns; the lock_all epoch is open until `close`.
        unsafe {
            mpi::ffi::MPI_Fetch_and_op(
                (&n as *const u64).cast(),
                (&mut old as *mut u64).cast(),
                mpi::ffi::RSMPI_UINT64_T,
                0,
                CHUNKS_AT as mpi::ffi::MPI_Aint,
                mpi::ffi::RSMPI_SUM,
                w.win,
            );
            mpi::ffi::MPI_Win_flush(0, w.win);
        }
        old
    })
}

/// Collective at start-up when `WANTED`: rank 0 exposes the slots and `log_bytes` of log per
/// slot, the others nothing.
pub fn open(comm: &Comm, log_bytes: usize) -> Result<(), String> {
    if !WANTED.load(Ordering::Relaxed) {
        return Ok(());
    }
    let log_bytes = log_bytes.next_multiple_of(8);
    let bytes = if comm.rank() == 0 {
        CHUNKS_AT + 8 + LOCK_SLOTS * log_bytes
    } else {
        0
    };
    let mut base: *mut u64 = std::ptr::null_mut();
    // SAFETY: an MPI_Win handle is a plain pointer-sized value; MPI_Win_allocate writes it.
    let mut win: mpi::ffi::MPI_Win = unsafe { std::mem::zeroed() };
    // SAFETY: collective call on the world with valid out-pointers; rank 0 zeroes its words
    // before the barrier below, so no rank reads them earlier.
    let rc = unsafe {
        mpi::ffi::MPI_Win_allocate(
            bytes as mpi::ffi::MPI_Aint,
            1,
            mpi::ffi::RSMPI_INFO_NULL,
            comm.world().as_raw(),
            (&mut base as *mut *mut u64).cast(),
            &mut win,
        )
    };
    if rc != 0 || (bytes > 0 && base.is_null()) {
        return Err(format!(
            "`MPI_Win_allocate` of {bytes} bytes failed for the critical-section locks \
             (CAPE_CRITICAL_LOG sets the log size per lock)"
        ));
    }
    // SAFETY: rank 0's `base` holds `bytes` bytes owned by the window; the lock_all epoch
    // lasts until `close`.
    unsafe {
        if bytes > 0 {
            std::ptr::write_bytes(base, 0, LOCK_SLOTS * SLOT_WORDS + 1);
        }
        mpi::ffi::MPI_Win_lock_all(mpi::ffi::MPI_MODE_NOCHECK as i32, win);
    }
    comm.world().barrier();
    let mut guard = WINDOW.lock().unwrap_or_else(|e| e.into_inner());
    *guard = Some(LockWindow {
        win,
        base,
        log_bytes,
    });
    Ok(())
}

/// Frees the window (collective, at shutdown before `MPI_Finalize`).
pub(super) fn close() {
    let mut guard = WINDOW.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(mut w) = guard.take() {
        // SAFETY: the window was created and locked by `open`; unlock_all/free are collective
        // and every rank shuts down.
        unsafe {
            mpi::ffi::MPI_Win_unlock_all(w.win);
            mpi::ffi::MPI_Win_free(&mut w.win);
        }
    }
}

impl LockWindow {
    /// Atomically adds `delta` to word `word` of `slot` on rank 0; returns the old value.
    fn fetch_add(&self, slot: usize, word: usize, delta: u64) -> u64 {
        let mut old: u64 = 0;
        // SAFETY: the displacement is inside rank 0's slot words; both buffers are live u64
        // values until the flush returns; the window stays locked (lock_all) until `close`.
        unsafe {
            mpi::ffi::MPI_Fetch_and_op(
                (&delta as *const u64).cast(),
                (&mut old as *mut u64).cast(),
                mpi::ffi::RSMPI_UINT64_T,
                0,
                word_at(slot, word) as mpi::ffi::MPI_Aint,
                mpi::ffi::RSMPI_SUM,
                self.win,
            );
            mpi::ffi::MPI_Win_flush(0, self.win);
        }
        old
    }
}

/// Takes the next ticket of `slot` and waits until it is served; returns (ticket, the log's
/// length then). None when the window is not open.
pub fn acquire(slot: usize) -> Option<(u64, usize)> {
    let ticket = with_window(|w| w.fetch_add(slot, 0, 1))?;
    let mut polls = 0u32;
    // spin briefly, then leave the core to the holder (ranks may share cores)
    while with_window(|w| w.fetch_add(slot, 1, 0))? != ticket {
        polls = polls.saturating_add(1);
        if polls > 1024 {
            std::thread::sleep(std::time::Duration::from_micros(20));
        } else if polls > 64 {
            std::thread::yield_now();
        }
    }
    with_window(|w| (ticket, w.fetch_add(slot, 2, 0) as usize))
}

/// Whether a rank took a ticket of `slot` after `ticket` (the caller holds `ticket`).
pub fn others_waiting(slot: usize, ticket: u64) -> bool {
    with_window(|w| w.fetch_add(slot, 0, 0) > ticket + 1).unwrap_or(false)
}

/// The log bytes `[from, to)` of `slot` (the caller holds its lock).
pub fn read_log(slot: usize, from: usize, to: usize) -> Result<Vec<u8>, String> {
    with_window(|w| {
        let mut out = vec![0u8; to.saturating_sub(from)];
        if out.is_empty() {
            return Ok(out);
        }
        if to > w.log_bytes {
            return Err("internal error: lock log read past its end".to_string());
        }
        // SAFETY: `out` is a live buffer of its length until the flush completes the get;
        // the range lies inside rank 0's log of this slot; the lock_all epoch is open.
        let rc = unsafe {
            let rc = mpi::ffi::MPI_Get(
                out.as_mut_ptr().cast(),
                out.len() as i32,
                mpi::ffi::RSMPI_UINT8_T,
                0,
                log_at(slot, w.log_bytes, from) as mpi::ffi::MPI_Aint,
                out.len() as i32,
                mpi::ffi::RSMPI_UINT8_T,
                w.win,
            );
            mpi::ffi::MPI_Win_flush(0, w.win);
            rc
        };
        if rc == 0 {
            Ok(out)
        } else {
            Err(format!("`MPI_Get` of a lock log failed (code {rc})"))
        }
    })
    .unwrap_or_else(|| Ok(Vec::new()))
}

/// Appends `entries` to the log of `slot` at `at` (its current length, the caller holds the
/// lock), then passes the lock to the next ticket. Err when the log is full.
pub fn release(slot: usize, at: usize, entries: &[u8]) -> Result<(), String> {
    append(slot, at, entries)?;
    with_window(|w| w.fetch_add(slot, 1, 1));
    Ok(())
}

/// Appends `entries` to the log of `slot` at `at` (its current length, the caller holds the
/// lock). Err when the log is full.
fn append(slot: usize, at: usize, entries: &[u8]) -> Result<(), String> {
    with_window(|w| {
        if at + entries.len() > w.log_bytes {
            return Err(format!(
                "the bytes written under one lock between two merge points exceed its log of {} \
                 bytes: set CAPE_CRITICAL_LOG to a larger size in bytes, or add a barrier",
                w.log_bytes
            ));
        }
        if !entries.is_empty() {
            // SAFETY: `entries` is live until the flush completes the put; the range lies
            // inside rank 0's log of this slot (checked above); the lock_all epoch is open.
            let rc = unsafe {
                let rc = mpi::ffi::MPI_Put(
                    entries.as_ptr().cast(),
                    entries.len() as i32,
                    mpi::ffi::RSMPI_UINT8_T,
                    0,
                    log_at(slot, w.log_bytes, at) as mpi::ffi::MPI_Aint,
                    entries.len() as i32,
                    mpi::ffi::RSMPI_UINT8_T,
                    w.win,
                );
                mpi::ffi::MPI_Win_flush(0, w.win);
                rc
            };
            if rc != 0 {
                return Err(format!("`MPI_Put` into a lock log failed (code {rc})"));
            }
            w.fetch_add(slot, 2, entries.len() as u64);
        }
        Ok(())
    })
    .unwrap_or(Ok(()))
}

/// At a merge point after which no lock of `slots` is held: rank 0 empties their words (the
/// caller then synchronises the team, so nobody takes a ticket before).
pub fn reset(slots: &[usize]) {
    with_window(|w| {
        if w.base.is_null() {
            return;
        }
        for &slot in slots {
            // SAFETY: rank 0's window memory holds the slot words; no rank accesses them
            // now (every rank of the team is at this merge point); MPI_Win_sync makes the
            // stores visible to later one-sided calls.
            unsafe {
                for word in 0..SLOT_WORDS {
                    *w.base.add(word_at(slot, word) / 8) = 0;
                }
            }
        }
        // SAFETY: as above.
        unsafe { mpi::ffi::MPI_Win_sync(w.win) };
    });
}
