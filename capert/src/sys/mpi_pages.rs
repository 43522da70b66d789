//! One-sided access to the pages other ranks publish (the demand-driven merge,
//! docs/lazy-merge.md): every rank exposes its *served buffers* (an anonymous
//! `MAP_NORESERVE` mapping: untouched pages cost nothing) through one `MPI_Win_create`
//! window, and reads another rank's with a passive-target `MPI_Get`, which Open MPI's
//! `osc rdma` completes without the target's participation while it computes.
//!
//! The window is used by the runtime's thread (at merge points) and by the fetch thread
//! (while the thread that asked for pages sleeps: in a fault, or in a batch of
//! `sys/invalid.rs::validate_pages`), never by both at once: MPI is initialised with
//! `MPI_THREAD_SERIALIZED` when the demand-driven merge may be used.

use std::time::{Duration, Instant};

use super::mpi::Comm;
use super::mprotect::TwinMapping;
use mpi::traits::*;

pub struct PageWindow {
    win: mpi::ffi::MPI_Win,
    served: TwinMapping,
    len: usize,
}

// SAFETY: the window handle is used from two threads, never at the same time (see the module
// comment), which is what MPI_THREAD_SERIALIZED allows; the mapping is owned by this value.
unsafe impl Send for PageWindow {}
// SAFETY: as above; `publish` writes buffers no other rank reads at that moment (protocol).
unsafe impl Sync for PageWindow {}

impl PageWindow {
    /// Collective over the world: maps `len` bytes of served buffers and exposes them.
    pub fn create(comm: &Comm, len: usize) -> Result<PageWindow, String> {
        let served = TwinMapping::new(len.max(1))
            .map_err(|e| format!("cannot map {len} bytes of served pages: {e}"));
        // every rank or none goes on to `MPI_Win_create`: a rank that stopped here would
        // leave the others waiting in it
        if comm.all_sum(u64::from(served.is_err())) > 0 {
            return Err(served.err().unwrap_or_else(|| {
                format!("another rank cannot map {len} bytes of served pages")
            }));
        }
        let served = served?;
        // SAFETY: an MPI_Win handle is a plain pointer-sized value, written by MPI_Win_create.
        let mut win: mpi::ffi::MPI_Win = unsafe { std::mem::zeroed() };
        // SAFETY: collective call; the exposed memory is our live mapping of `len` bytes, which
        // outlives the window (freed in Drop before the mapping).
        let rc = unsafe {
            mpi::ffi::MPI_Win_create(
                served.base() as *mut libc::c_void,
                len as mpi::ffi::MPI_Aint,
                1,
                mpi::ffi::RSMPI_INFO_NULL,
                comm.world().as_raw(),
                &mut win,
            )
        };
        if rc != 0 {
            return Err(format!(
                "`MPI_Win_create` over {len} bytes of served pages failed"
            ));
        }
        Ok(PageWindow { win, served, len })
    }

    /// Copies `bytes` into this rank's served buffers at `offset`. The caller (the protocol)
    /// guarantees that no rank reads these bytes until the next merge point.
    pub fn publish(&self, offset: usize, bytes: &[u8]) {
        assert!(
            offset <= self.len && bytes.len() <= self.len - offset,
            "publish outside the served pages"
        );
        // SAFETY: in bounds of our live mapping; other ranks read other bytes meanwhile, and
        // our own threads read it only through MPI (the protocol's two buffers per page).
        unsafe {
            std::ptr::copy_nonoverlapping(
                bytes.as_ptr(),
                (self.served.base() + offset) as *mut u8,
                bytes.len(),
            )
        }
    }

    /// Copies the 64-byte lines `lines` (bit i: line i) of the page `bytes` into this rank's
    /// served buffer at `offset`, whose other lines already hold the same bytes (the caller
    /// knows which lines differ). Same guarantee from the caller as [`PageWindow::publish`].
    pub fn publish_lines(&self, offset: usize, bytes: &[u8], lines: u64) {
        const LINE: usize = 64;
        assert!(
            bytes.len() == 64 * LINE && offset <= self.len && bytes.len() <= self.len - offset,
            "publish outside the served pages"
        );
        let mut bits = lines;
        while bits != 0 {
            // a stretch of consecutive lines in one copy
            let first = bits.trailing_zeros() as usize;
            let next = first + (bits >> first).trailing_ones() as usize;
            // SAFETY: lines first..next of the page lie in `bytes` and, checked above, in our
            // live mapping; the protocol keeps readers off these bytes, as for `publish`.
            unsafe {
                std::ptr::copy_nonoverlapping(
                    bytes.as_ptr().add(first * LINE),
                    (self.served.base() + offset + first * LINE) as *mut u8,
                    (next - first) * LINE,
                )
            }
            bits &= u64::MAX.checked_shl(next as u32).unwrap_or(0);
        }
    }

    /// Reads `out.len()` bytes at `offset` of `rank`'s served buffers.
    pub fn get(&self, rank: usize, offset: usize, out: &mut [u8]) -> Result<(), String> {
        self.get_many(rank, &[(offset, 0, out.len())], out)
    }

    /// Reads, in one passive-target epoch on `rank` (lock, the gets, unlock), each
    /// `(offset, at, len)` of `gets`: `len` bytes at `offset` of `rank`'s served buffers into
    /// `out[at..at + len]`.
    pub fn get_many(
        &self,
        rank: usize,
        gets: &[(usize, usize, usize)],
        out: &mut [u8],
    ) -> Result<(), String> {
        for &(offset, at, len) in gets {
            if offset > self.len || len > self.len - offset {
                return Err(format!("fetch at {offset:#x} outside the served pages"));
            }
            if at > out.len() || len > out.len() - at || len > i32::MAX as usize {
                return Err(format!("fetch of {len} bytes at {at} outside the buffer"));
            }
        }
        let base = out.as_mut_ptr();
        // SAFETY: every get writes inside `out` (checked above), which lives until the unlock
        // completes them, and reads inside the target's window (checked above).
        let rc = unsafe {
            self.epoch(rank, |target, win| {
                for &(offset, at, len) in gets {
                    let rc = mpi::ffi::MPI_Get(
                        base.add(at).cast(),
                        len as i32,
                        mpi::ffi::RSMPI_UINT8_T,
                        target,
                        offset as mpi::ffi::MPI_Aint,
                        len as i32,
                        mpi::ffi::RSMPI_UINT8_T,
                        win,
                    );
                    if rc != 0 {
                        return rc;
                    }
                }
                0
            })
        };
        if rc == 0 {
            Ok(())
        } else {
            Err(format!("`MPI_Get` from rank {rank} failed (code {rc})"))
        }
    }

    /// Writes one byte at offset 0 of `rank`'s served buffers (the progress check's signal;
    /// no page is published there yet).
    fn put_signal(&self, rank: usize, value: u8) -> Result<(), String> {
        if self.len == 0 {
            return Err("no served pages".into());
        }
        let byte = [value];
        // SAFETY: `byte` lives until the unlock completes the put, at offset 0 of a window of
        // at least one byte.
        let rc = unsafe {
            self.epoch(rank, |target, win| {
                mpi::ffi::MPI_Put(
                    byte.as_ptr().cast(),
                    1,
                    mpi::ffi::RSMPI_UINT8_T,
                    target,
                    0,
                    1,
                    mpi::ffi::RSMPI_UINT8_T,
                    win,
                )
            })
        };
        if rc == 0 {
            Ok(())
        } else {
            Err(format!("`MPI_Put` to rank {rank} failed (code {rc})"))
        }
    }

    /// The byte at offset 0 of this rank's served buffers, as another rank's put left it.
    fn signal(&self) -> u8 {
        // SAFETY: the mapping is at least one byte long and lives as long as `self`; a
        // volatile read, since another process writes it (a put) while this rank spins.
        unsafe { std::ptr::read_volatile(self.served.base() as *const u8) }
    }

    /// Clears the signal byte (after the check: every put to it has completed).
    fn clear_signal(&self) {
        // SAFETY: as in `signal`; no rank writes it any more.
        unsafe { std::ptr::write_volatile(self.served.base() as *mut u8, 0) }
    }

    /// One passive-target epoch on `rank`: lock (shared), `op(rank, window)`, unlock; the
    /// first non-zero MPI return code.
    ///
    /// # Safety
    /// `op` must issue only operations whose buffers stay valid until this returns.
    unsafe fn epoch(&self, rank: usize, op: impl FnOnce(i32, mpi::ffi::MPI_Win) -> i32) -> i32 {
        let rank = rank as i32;
        // SAFETY: a passive-target epoch on a window every rank created; the caller keeps
        // the operation's buffers alive until the unlock completes it.
        unsafe {
            let mut rc = mpi::ffi::MPI_Win_lock(
                mpi::ffi::MPI_LOCK_SHARED as i32,
                rank,
                mpi::ffi::MPI_MODE_NOCHECK as i32,
                self.win,
            );
            if rc == 0 {
                rc = op(rank, self.win);
                let unlocked = mpi::ffi::MPI_Win_unlock(rank, self.win);
                if rc == 0 {
                    rc = unlocked;
                }
            }
            rc
        }
    }
}

impl Drop for PageWindow {
    fn drop(&mut self) {
        // SAFETY: frees the window this value created (collective: dropped at shutdown on
        // every rank, before MPI_Finalize); the mapping is unmapped after it.
        unsafe { mpi::ffi::MPI_Win_free(&mut self.win) };
    }
}

/// How long a target computes without calling MPI in the progress check, at most: it stops
/// as soon as its origin signals that the get completed.
const TARGET_BUSY: Duration = Duration::from_millis(20);
/// A get that took longer waited for the target's next MPI call (a get that progresses takes
/// microseconds; the margin is for a loaded, oversubscribed machine).
const PROGRESS_LIMIT: Duration = Duration::from_millis(10);

/// The start-up check (collective): does a get complete while its target computes without
/// calling MPI? Even ranks read from the next odd rank, which spins meanwhile, without MPI
/// calls, until the origin, its get done, puts a signal byte into its window (a put that
/// progresses like the get) or `TARGET_BUSY` has passed; so where gets progress the check
/// takes microseconds, and where they do not, the get waits out the target's spin. Up to three
/// tries, stopping at the first in which every origin was fast. True on every rank, or false
/// on every rank.
pub fn gets_progress(comm: &Comm, window: &PageWindow) -> bool {
    let (rank, size) = (comm.rank(), comm.size());
    if size == 1 {
        return true;
    }
    let origin = rank % 2 == 0 && rank + 1 < size;
    let target = rank % 2 == 1;
    let mut fast = false;
    for attempt in 1..=3u8 {
        comm.barrier();
        let mut slow = false;
        if origin {
            std::thread::sleep(Duration::from_micros(500));
            let mut byte = [0u8; 8];
            let start = Instant::now();
            slow = window.get(rank + 1, 0, &mut byte).is_err() || start.elapsed() >= PROGRESS_LIMIT;
            // the target stops spinning at the signal (or at TARGET_BUSY without it)
            slow |= window.put_signal(rank + 1, attempt).is_err();
        } else if target {
            let start = Instant::now();
            while start.elapsed() < TARGET_BUSY && window.signal() != attempt {
                std::hint::spin_loop();
            }
        }
        if comm.all_sum(u64::from(slow)) == 0 {
            fast = true;
            break;
        }
    }
    // every put completed before its origin's all_sum: the byte is no rank's any more
    comm.barrier();
    window.clear_signal();
    fast
}
