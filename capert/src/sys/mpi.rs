//! The MPI side of capert: initialisation, the allreduce `Transport`, and the few collectives
//! the region protocol needs (all on `MPI_COMM_WORLD`).

use crate::allreduce::Transport;
use mpi::collective::{CommunicatorCollectives, Root};
use mpi::datatype::PartitionMut;
use mpi::environment::Universe;
use mpi::point_to_point::{Destination, Source};
use mpi::topology::{Communicator, SimpleCommunicator};
use mpi::Threading;

/// MPI state of the process. Dropping it calls `MPI_Finalize`.
pub struct Comm {
    world: SimpleCommunicator,
    universe: Option<Universe>,
    /// Bytes this rank sent through the Transport (for CAPE_STATS).
    pub bytes_sent: u64,
}

// SAFETY: capert is used from the program's single (main) thread only; MPI is initialised with
// MPI_THREAD_FUNNELED and the handles are never touched from another thread. The value lives
// in a Mutex only so that it can be a static.
unsafe impl Send for Comm {}

impl Comm {
    /// `MPI_Init_thread(FUNNELED)`.
    pub fn init() -> Result<Comm, String> {
        if mpi::environment::is_initialized() {
            return Err("MPI was initialised before capert started: do not call `MPI_Init` in a program built with capecc".into());
        }
        let (universe, _level) =
            mpi::initialize_with_threading(Threading::Funneled).ok_or_else(|| {
                "`MPI_Init_thread` failed: check the MPI installation and run with `mpirun`"
                    .to_string()
            })?;
        let world = universe.world();
        Ok(Comm {
            world,
            universe: Some(universe),
            bytes_sent: 0,
        })
    }

    pub fn rank(&self) -> usize {
        self.world.rank() as usize
    }

    pub fn size(&self) -> usize {
        self.world.size() as usize
    }

    /// `MPI_Finalize` (idempotent).
    pub fn finalize(&mut self) {
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

impl Transport for Comm {
    fn rank(&self) -> usize {
        Comm::rank(self)
    }

    fn size(&self) -> usize {
        Comm::size(self)
    }

    fn exchange(&mut self, peer: usize, data: &[u8]) -> Result<Vec<u8>, String> {
        let p = self.world.process_at_rank(peer as i32);
        self.bytes_sent += data.len() as u64;
        let received = mpi::request::scope(|scope| {
            let req = p.immediate_send(scope, data);
            let (v, _status) = p.receive_vec::<u8>();
            req.wait();
            v
        });
        Ok(received)
    }

    fn send(&mut self, peer: usize, data: &[u8]) -> Result<(), String> {
        self.bytes_sent += data.len() as u64;
        self.world.process_at_rank(peer as i32).send(data);
        Ok(())
    }

    fn recv(&mut self, peer: usize) -> Result<Vec<u8>, String> {
        let (v, _status) = self.world.process_at_rank(peer as i32).receive_vec::<u8>();
        Ok(v)
    }
}

/// Stops the whole job with `code`: `MPI_Abort` when MPI is up, else `exit`.
pub fn abort_job(code: i32) -> ! {
    crate::sys::fd::flush_c_stdio();
    if mpi::environment::is_initialized() && !mpi::environment::is_finalized() {
        SimpleCommunicator::world().abort(code)
    }
    std::process::exit(code)
}
