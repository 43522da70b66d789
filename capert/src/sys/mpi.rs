//! The MPI side of capert: initialisation, the allreduce `Transport`, and the few collectives
//! the region protocol needs: on `MPI_COMM_WORLD`, on cached team communicators (the first
//! `n` ranks, for regions with `num_threads(n) < P`), and the one-sided chunk counters of the
//! dynamic and guided loop schedules. The streamed exchange is in mpi_stream.rs.

use super::mpi_stream::Streams;
use crate::allreduce::{Progress, Transport};
use mpi::collective::{CommunicatorCollectives, Root};
use mpi::datatype::PartitionMut;
use mpi::environment::Universe;
use mpi::point_to_point::{Destination, Source};
use mpi::raw::AsRaw;
use mpi::topology::{Color, Communicator, SimpleCommunicator};
use mpi::Threading;
use std::collections::HashMap;

/// Number of chunk counters (one per dynamic/guided loop instance in flight, reused round-robin).
pub const COUNTER_SLOTS: usize = 64;
/// `atomic capture` cells after the counters in the same window: the deltas of the epoch, one
/// i64 per variable, at its address modulo CAPTURE_SLOTS (adjacent elements never share one);
/// zeroed by rank 0 after an epoch that used them.
pub const CAPTURE_SLOTS: usize = 1 << 17;

/// MPI state of the process. Dropping it calls `MPI_Finalize`.
pub struct Comm {
    /// MPI may be called from a second thread while the first waits (`MPI_THREAD_SERIALIZED`).
    pub serialized: bool,
    world: SimpleCommunicator,
    universe: Option<Universe>,
    /// Bytes this rank sent through the Transport (for CAPE_STATS).
    pub bytes_sent: u64,
    /// The request arrays of the streamed exchange, reused by every region.
    streams: Streams,
    /// Team communicators by team size: the first `n` ranks; None on ranks outside the team.
    teams: HashMap<u32, Option<SimpleCommunicator>>,
    /// The chunk counters: `COUNTER_SLOTS` u64 on every rank, only rank 0's are used.
    counters: Option<mpi::ffi::MPI_Win>,
    /// Rank 0's local view of the window memory (the capture cells are emptied through it).
    window_base: *mut u64,
}

/// Open MPI 4 starts UCX in every `MPI_Init` (about 0.2 s on a node without a fast network:
/// 0.33-0.42 s against 0.10-0.18 s for an empty program at P = 2) and, without a network,
/// ends with ob1 anyway. When every rank of the job runs on this node (Open MPI's local
/// size equals its world size, or a singleton) and nothing chose the point-to-point layer,
/// ob1 is asked for directly; `OMPI_MCA_pml` set by the user (any value) is kept. MPICH
/// ignores the variable. Must run before any thread exists (it changes the environment).
pub fn prefer_local_pml() {
    if local_ob1(|name| std::env::var(name).ok()) {
        std::env::set_var("OMPI_MCA_pml", "ob1");
    }
}

/// Whether `prefer_local_pml` chooses ob1 with this environment.
fn local_ob1(env: impl Fn(&str) -> Option<String>) -> bool {
    if env("OMPI_MCA_pml").is_some() || env("OMPI_MCA_pml_base_include").is_some() {
        return false;
    }
    match (
        env("OMPI_COMM_WORLD_SIZE"),
        env("OMPI_COMM_WORLD_LOCAL_SIZE"),
    ) {
        (Some(world), Some(local)) => world == local,
        (None, None) => true,
        _ => false,
    }
}

impl Comm {
    /// `MPI_Init_thread(FUNNELED)`, or `SERIALIZED` when a second thread (the fetch thread of
    /// the demand-driven merge) may call MPI while the first one waits.
    pub fn init(serialized: bool) -> Result<Comm, String> {
        if mpi::environment::is_initialized() {
            return Err("MPI was initialised before capert started: do not call `MPI_Init` in a program built with capecc".into());
        }
        let level = if serialized {
            Threading::Serialized
        } else {
            Threading::Funneled
        };
        let (universe, provided) = mpi::initialize_with_threading(level).ok_or_else(|| {
            "`MPI_Init_thread` failed: check the MPI installation and run with `mpirun`".to_string()
        })?;
        let world = universe.world();
        let (counters, window_base) = open_counters(&world)?;
        if provided >= Threading::Serialized {
            *any_thread_window() = Some(Window(counters));
        }
        Ok(Comm {
            serialized: provided >= Threading::Serialized,
            world,
            universe: Some(universe),
            bytes_sent: 0,
            streams: Streams::new(crate::config::DEFAULT_MERGE_CHUNK),
            teams: HashMap::new(),
            counters: Some(counters),
            window_base,
        })
    }

    /// The piece size of the streamed messages this rank sends (`CAPE_MERGE_CHUNK`).
    pub fn set_merge_chunk(&mut self, bytes: usize) {
        self.streams.set_piece(bytes);
    }

    /// Creates (collectively on the world, once per size) the communicator of the team made of
    /// the first `team` ranks. Every rank must call it at the same point.
    pub fn ensure_team(&mut self, team: u32) {
        if team as usize >= self.size() || self.teams.contains_key(&team) {
            return;
        }
        let color = if (self.rank() as u32) < team {
            Color::with_value(0)
        } else {
            Color::undefined()
        };
        let comm = self.world.split_by_color(color);
        self.teams.insert(team, comm);
    }

    /// The point-to-point link of a team (`team >= P`: the world). None outside the team.
    pub fn link(&mut self, team: u32) -> Option<Link<'_>> {
        if team as usize >= self.size() {
            return Some(self.world_link());
        }
        let comm = self.teams.get(&team)?.as_ref()?;
        Some(Link {
            comm,
            bytes_sent: &mut self.bytes_sent,
            streams: &mut self.streams,
        })
    }

    /// Team rank 0's `bytes` on every rank of the team (same length everywhere).
    pub fn broadcast_in_team(&self, team: u32, bytes: &mut [u8]) {
        let comm = if team as usize >= self.size() {
            Some(&self.world)
        } else {
            self.teams.get(&team).and_then(|c| c.as_ref())
        };
        if let Some(comm) = comm {
            if !bytes.is_empty() {
                comm.process_at_rank(0).broadcast_into(bytes);
            }
        }
    }

    /// Atomically adds 1 to chunk counter `slot` (on rank 0) and returns its previous value.
    pub fn fetch_ticket(&self, slot: usize) -> u64 {
        let Some(win) = self.counters else { return 0 };
        fetch_and_add(win, slot % COUNTER_SLOTS, 1) as u64
    }

    /// `atomic capture`: adds `delta` to the cell `slot` (the variable's address modulo
    /// `CAPTURE_SLOTS`) on rank 0 and returns its previous value, the sum of the deltas every
    /// earlier update of the variable in this epoch added, on any rank. (Fetch-and-add only:
    /// Open MPI 4.1's emulated compare-and-swap over shared memory crashes.)
    pub fn capture_fetch_add(&self, slot: usize, delta: i64) -> i64 {
        let Some(win) = self.counters else { return 0 };
        fetch_and_add(win, COUNTER_SLOTS + slot % CAPTURE_SLOTS, delta)
    }

    /// After an epoch that used capture cells (every rank of the team calls it with the same
    /// slots): rank 0 zeroes them, and nobody goes on before that is done.
    pub fn capture_reset(&self, team: u32, slots: &[usize]) {
        if self.rank() == 0 && !self.window_base.is_null() {
            if let Some(win) = self.counters {
                // SAFETY: rank 0's window memory holds COUNTER_SLOTS + CAPTURE_SLOTS u64 and
                // every index is below that; no rank accesses the cells now (they are all in
                // this call); MPI_Win_sync makes the stores visible to later one-sided calls.
                unsafe {
                    for &slot in slots {
                        *self.window_base.add(COUNTER_SLOTS + slot % CAPTURE_SLOTS) = 0;
                    }
                    mpi::ffi::MPI_Win_sync(win);
                }
            }
        }
        self.team_barrier(team);
    }

    /// A barrier of the team of the first `team` ranks (the world when `team >= size`).
    pub fn team_barrier(&self, team: u32) {
        let comm = if team as usize >= self.size() {
            Some(&self.world)
        } else {
            self.teams.get(&team).and_then(|c| c.as_ref())
        };
        if let Some(comm) = comm {
            comm.barrier();
        }
    }

    /// The world communicator (for `mpi_pages.rs`).
    pub(super) fn world(&self) -> &SimpleCommunicator {
        &self.world
    }

    pub fn rank(&self) -> usize {
        self.world.rank() as usize
    }

    pub fn size(&self) -> usize {
        self.world.size() as usize
    }

    /// `MPI_Finalize` (idempotent).
    pub fn finalize(&mut self) {
        super::mpi_lock::close();
        if let Some(mut win) = self.counters.take() {
            *any_thread_window() = None;
            // SAFETY: the window was created and locked by open_counters and is used by no
            // one after this point; unlock_all/free are collective and every rank finalises.
            unsafe {
                mpi::ffi::MPI_Win_unlock_all(win);
                mpi::ffi::MPI_Win_free(&mut win);
            }
        }
        self.teams.clear();
        self.universe.take();
    }

    /// `MPI_Abort(MPI_COMM_WORLD, code)`.
    pub fn abort(&self, code: i32) -> ! {
        self.world.abort(code)
    }

    /// Rank 0's bytes on every rank (`MPI_Bcast` of the length, then of the bytes).
    pub fn broadcast_from_root(&self, bytes: &mut Vec<u8>) {
        let root = self.world.process_at_rank(0);
        let mut len = bytes.len() as u64;
        root.broadcast_into(&mut len);
        bytes.resize(len as usize, 0);
        if len > 0 {
            root.broadcast_into(&mut bytes[..]);
        }
    }

    /// Every rank's bytes, indexed by rank (`MPI_Allgather` of the lengths, then
    /// `MPI_Allgatherv`).
    pub fn all_gather_bytes(&self, mine: &[u8]) -> Vec<Vec<u8>> {
        let size = self.size();
        let mut lens = vec![0i32; size];
        let my_len = i32::try_from(mine.len()).unwrap_or(i32::MAX);
        self.world.all_gather_into(&my_len, &mut lens[..]);
        let mut displs = Vec::with_capacity(size);
        let mut total = 0i32;
        for &l in &lens {
            displs.push(total);
            total = total.saturating_add(l);
        }
        let mut all = vec![0u8; total as usize];
        // Open MPI rejects an all-empty Allgatherv; every rank knows the total, so all skip.
        if total > 0 {
            let mut part = PartitionMut::new(&mut all[..], &lens[..], &displs[..]);
            self.world.all_gather_varcount_into(mine, &mut part);
        }
        lens.iter()
            .zip(&displs)
            .map(|(&l, &d)| all[d as usize..(d + l) as usize].to_vec())
            .collect()
    }

    /// Sum of `x` over all ranks.
    pub fn all_sum(&self, x: u64) -> u64 {
        let mut out = 0u64;
        self.world
            .all_reduce_into(&x, &mut out, mpi::collective::SystemOperation::sum());
        out
    }

    pub fn barrier(&self) {
        self.world.barrier();
    }
}

/// The counter window as any thread of the rank may use it (hybrid teams), when MPI gives
/// `MPI_THREAD_SERIALIZED`. Its lock also serialises thread 0's one-sided calls with theirs.
struct Window(mpi::ffi::MPI_Win);

// SAFETY: an MPI_Win is a handle MPI lets any thread use under MPI_THREAD_SERIALIZED; every
// use goes through `fetch_and_add`, under the lock of `any_thread_window`.
unsafe impl Send for Window {}

fn any_thread_window() -> std::sync::MutexGuard<'static, Option<Window>> {
    static WINDOW: std::sync::Mutex<Option<Window>> = std::sync::Mutex::new(None);
    WINDOW.lock().unwrap_or_else(|e| e.into_inner())
}

/// The rank's turn at MPI while it is held: the one-sided calls of any thread of a hybrid rank
/// (the cross-rank locks' window, `mpi_lock.rs`) are made one at a time with the others'.
pub struct OneAtATime {
    _turn: std::sync::MutexGuard<'static, Option<Window>>,
}

pub fn one_at_a_time() -> OneAtATime {
    OneAtATime {
        _turn: any_thread_window(),
    }
}

/// Whether any thread of the rank may call MPI (`MPI_THREAD_SERIALIZED` was given).
pub fn any_thread_allowed() -> bool {
    any_thread_window().is_some()
}

/// Adds `delta` to word `index` of rank 0's counter window and returns its previous value; the
/// MPI calls of all threads of the rank are made one at a time.
fn fetch_and_add(win: mpi::ffi::MPI_Win, index: usize, delta: i64) -> i64 {
    let _one_at_a_time = any_thread_window();
    let mut old: i64 = 0;
    // SAFETY: the window holds COUNTER_SLOTS + CAPTURE_SLOTS u64 on every rank and stays
    // locked (lock_all) until finalisation; callers reduce `index` below that; both buffers
    // are live values until the flush returns; the lock above serialises the calls.
    unsafe {
        mpi::ffi::MPI_Fetch_and_op(
            (&delta as *const i64).cast(),
            (&mut old as *mut i64).cast(),
            mpi::ffi::RSMPI_INT64_T,
            0,
            index as mpi::ffi::MPI_Aint,
            mpi::ffi::RSMPI_SUM,
            win,
        );
        mpi::ffi::MPI_Win_flush(0, win);
    }
    old
}

/// `atomic capture` on any thread of a hybrid rank: `Comm::capture_fetch_add` without the
/// `Comm`. None when MPI does not allow it (no `MPI_THREAD_SERIALIZED`, or MPI is finalised).
pub fn capture_fetch_add_any_thread(slot: usize, delta: i64) -> Option<i64> {
    let win = any_thread_window().as_ref()?.0;
    Some(fetch_and_add(
        win,
        COUNTER_SLOTS + slot % CAPTURE_SLOTS,
        delta,
    ))
}

/// `MPI_Win_allocate` of the chunk counters (zeroed) and a passive-target `lock_all` epoch
/// that lasts until finalisation.
fn open_counters(world: &SimpleCommunicator) -> Result<(mpi::ffi::MPI_Win, *mut u64), String> {
    let mut base: *mut u64 = std::ptr::null_mut();
    // SAFETY: an MPI_Win handle is a plain pointer-sized value; it is written by MPI_Win_allocate.
    let mut win: mpi::ffi::MPI_Win = unsafe { std::mem::zeroed() };
    let words = COUNTER_SLOTS + CAPTURE_SLOTS;
    let bytes = (words * std::mem::size_of::<u64>()) as mpi::ffi::MPI_Aint;
    // SAFETY: collective call on the world with valid out-pointers; MPI allocates `bytes`
    // bytes at `base`, which we zero before any rank can access them (the barrier below).
    let rc = unsafe {
        mpi::ffi::MPI_Win_allocate(
            bytes,
            std::mem::size_of::<u64>() as i32,
            mpi::ffi::RSMPI_INFO_NULL,
            world.as_raw(),
            (&mut base as *mut *mut u64).cast(),
            &mut win,
        )
    };
    if rc != 0 || base.is_null() {
        return Err("`MPI_Win_allocate` failed for the loop chunk counters".into());
    }
    // SAFETY: `base` points to `words` u64 owned by the window.
    unsafe {
        std::ptr::write_bytes(base, 0, words);
        mpi::ffi::MPI_Win_lock_all(mpi::ffi::MPI_MODE_NOCHECK as i32, win);
    }
    world.barrier();
    Ok((win, base))
}

/// Point-to-point exchange among the ranks of one communicator (a team or the world).
pub struct Link<'a> {
    comm: &'a SimpleCommunicator,
    bytes_sent: &'a mut u64,
    streams: &'a mut Streams,
}

impl Transport for Link<'_> {
    fn rank(&self) -> usize {
        self.comm.rank() as usize
    }

    fn size(&self) -> usize {
        self.comm.size() as usize
    }

    fn exchange(&mut self, peer: usize, data: &[u8]) -> Result<Vec<u8>, String> {
        let p = self.comm.process_at_rank(peer as i32);
        *self.bytes_sent += data.len() as u64;
        let received = mpi::request::scope(|scope| {
            let req = p.immediate_send(scope, data);
            let (v, _status) = p.receive_vec_with_tag::<u8>(0);
            req.wait();
            v
        });
        Ok(received)
    }

    fn send(&mut self, peer: usize, data: &[u8]) -> Result<(), String> {
        *self.bytes_sent += data.len() as u64;
        self.comm.process_at_rank(peer as i32).send(data);
        Ok(())
    }

    fn recv(&mut self, peer: usize) -> Result<Vec<u8>, String> {
        let (v, _status) = self
            .comm
            .process_at_rank(peer as i32)
            .receive_vec_with_tag::<u8>(0);
        Ok(v)
    }

    fn exchange_stream(
        &mut self,
        peer: usize,
        data: &[u8],
        into: &mut Vec<u8>,
        progress: &mut Progress<'_>,
    ) -> Result<(), String> {
        *self.bytes_sent += data.len() as u64;
        self.streams
            .stream(self.comm, peer, Some(data), Some((into, progress)))
    }

    fn send_stream(&mut self, peer: usize, data: &[u8]) -> Result<(), String> {
        *self.bytes_sent += data.len() as u64;
        self.streams.stream(self.comm, peer, Some(data), None)
    }

    fn recv_stream(
        &mut self,
        peer: usize,
        into: &mut Vec<u8>,
        progress: &mut Progress<'_>,
    ) -> Result<(), String> {
        self.streams
            .stream(self.comm, peer, None, Some((into, progress)))
    }
}

/// The world as a Transport (the regions use `Comm::link`).
impl Transport for Comm {
    fn rank(&self) -> usize {
        Comm::rank(self)
    }

    fn size(&self) -> usize {
        Comm::size(self)
    }

    fn exchange(&mut self, peer: usize, data: &[u8]) -> Result<Vec<u8>, String> {
        self.world_link().exchange(peer, data)
    }

    fn send(&mut self, peer: usize, data: &[u8]) -> Result<(), String> {
        self.world_link().send(peer, data)
    }

    fn recv(&mut self, peer: usize) -> Result<Vec<u8>, String> {
        self.world_link().recv(peer)
    }

    fn exchange_stream(
        &mut self,
        peer: usize,
        data: &[u8],
        into: &mut Vec<u8>,
        progress: &mut Progress<'_>,
    ) -> Result<(), String> {
        self.world_link()
            .exchange_stream(peer, data, into, progress)
    }

    fn send_stream(&mut self, peer: usize, data: &[u8]) -> Result<(), String> {
        self.world_link().send_stream(peer, data)
    }

    fn recv_stream(
        &mut self,
        peer: usize,
        into: &mut Vec<u8>,
        progress: &mut Progress<'_>,
    ) -> Result<(), String> {
        self.world_link().recv_stream(peer, into, progress)
    }
}

impl Comm {
    fn world_link(&mut self) -> Link<'_> {
        Link {
            comm: &self.world,
            bytes_sent: &mut self.bytes_sent,
            streams: &mut self.streams,
        }
    }
}

/// Stops the whole job with `code`: `MPI_Abort` when MPI is up, else `exit`.
pub fn abort_job(code: i32) -> ! {
    crate::sys::fd::flush_c_stdio();
    if mpi::environment::is_initialized() && !mpi::environment::is_finalized() {
        // MPI_Abort kills every rank at once: give mpirun's output forwarding a moment to
        // deliver what the ranks already wrote (on a loaded node it may not have read it yet)
        std::thread::sleep(std::time::Duration::from_millis(200));
        SimpleCommunicator::world().abort(code)
    }
    std::process::exit(code)
}

#[cfg(test)]
mod pml_tests {
    use super::local_ob1;

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| {
            vars.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn ob1_only_when_every_rank_is_local_and_nothing_chose() {
        assert!(local_ob1(env(&[])));
        assert!(local_ob1(env(&[
            ("OMPI_COMM_WORLD_SIZE", "4"),
            ("OMPI_COMM_WORLD_LOCAL_SIZE", "4")
        ])));
        assert!(!local_ob1(env(&[
            ("OMPI_COMM_WORLD_SIZE", "8"),
            ("OMPI_COMM_WORLD_LOCAL_SIZE", "4")
        ])));
        assert!(!local_ob1(env(&[
            ("OMPI_COMM_WORLD_SIZE", "4"),
            ("OMPI_COMM_WORLD_LOCAL_SIZE", "4"),
            ("OMPI_MCA_pml", "ucx")
        ])));
        assert!(!local_ob1(env(&[("OMPI_COMM_WORLD_SIZE", "4")])));
    }
}
