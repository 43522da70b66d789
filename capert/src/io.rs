//! Output and input across ranks.
//!
//! Sequential output appears once: on ranks other than 0, fds 1 and 2 point to /dev/null
//! outside parallel regions. Inside them (as threads would all print) fd 2 is the real stderr
//! and fd 1 a memfd whose bytes rank 0 prints at the next merge point (see `take_printed`).
//! `CAPE_OUTPUT=all` leaves every rank's output visible. C stdio buffers are flushed before
//! every switch so that text lands where it was written. Files that sequential code opens
//! for writing are rank 0's in the same way (ffi/files.rs, sys/streams.rs): what the other
//! ranks write to them inside a region reaches rank 0 at the merge point (`take_written`).
//!
//! stdin: `mpirun` feeds it to rank 0 only. At the first stdin use rank 0 reads all of it
//! and broadcasts it; every rank then gets a memfd with those bytes as fd 0. With
//! checkpointing rank 0 does so even alone, to record a digest of what the program read.

use crate::config::OutputMode;
use crate::diag::eprint_line;
use crate::sys::fd;
use crate::sys::mpi::Comm;
use crate::sys::streams;
use std::sync::atomic::{AtomicBool, Ordering};

/// The program reads stdin somewhere (`__cape_stdin_reader`, from a constructor).
static STDIN_READER: AtomicBool = AtomicBool::new(false);

pub fn note_stdin_reader() {
    STDIN_READER.store(true, Ordering::Relaxed);
}

pub fn stdin_reader() -> bool {
    STDIN_READER.load(Ordering::Relaxed)
}

pub struct Io {
    real_out: i32,
    real_err: i32,
    null: i32,
    /// Ranks other than 0: a memfd that holds what they print inside a parallel region until
    /// the next merge point, where rank 0 prints it (in rank order, after its own), so that
    /// it lands between the sequential output before and after the region.
    captured: i32,
    /// This rank's sequential output is hidden.
    hide_sequential: bool,
    /// Only rank 0's output appears (not `CAPE_OUTPUT=all`): files opened for writing in
    /// sequential code are rank 0's too.
    files_by_rank0: bool,
    stdin_done: bool,
}

impl Io {
    pub fn init(rank: usize, mode: OutputMode) -> Result<Io, String> {
        let real_out = fd::dup_cloexec(1).unwrap_or(-1);
        let real_err = fd::dup_cloexec(2).unwrap_or(-1);
        if real_err >= 0 {
            crate::diag::set_real_stderr(real_err);
        }
        let hide_sequential = rank != 0 && mode == OutputMode::Rank0;
        let null = if hide_sequential {
            fd::open_dev_null().map_err(|e| format!("cannot open `/dev/null`: {e}"))?
        } else {
            -1
        };
        let captured = if hide_sequential {
            fd::memfd_with(&[]).unwrap_or(-1)
        } else {
            -1
        };
        let io = Io {
            real_out,
            real_err,
            null,
            captured,
            hide_sequential,
            files_by_rank0: mode == OutputMode::Rank0,
            stdin_done: false,
        };
        io.show(false);
        Ok(io)
    }

    /// Region begin: every rank's output becomes visible (rank 0 with a checkpoint
    /// directory: written directly, not counted; see `ft::output`).
    pub fn enter_region(&self) {
        crate::ft::output::direct();
        self.show(true);
        // after the flush: what sequential code wrote to rank 0's files stays unwritten here
        streams::set_capturing(true);
    }

    /// Region end: back to rank-0-only output.
    pub fn leave_region(&self) {
        self.show(false);
        streams::set_capturing(false);
        crate::ft::output::piped();
    }

    /// What this rank printed in the region since the last call (ranks other than 0).
    pub fn take_printed(&self) -> Vec<u8> {
        if self.captured < 0 {
            return Vec::new();
        }
        fd::flush_c_stdio();
        fd::take_all(self.captured)
    }

    /// Rank 0 at a merge point: the other ranks' output of the epoch, after its own.
    pub fn print_for_others(&self, bytes: &[u8]) {
        if bytes.is_empty() {
            return;
        }
        fd::flush_c_stdio();
        fd::write_all(1, bytes);
    }

    /// Whether files opened for writing in sequential code are rank 0's.
    pub fn files_by_rank0(&self) -> bool {
        self.files_by_rank0
    }

    /// What this rank wrote in the region since the last call to the files rank 0 writes
    /// (ranks other than 0): (stream number, bytes), in the order written.
    pub fn take_written(&self) -> Vec<(u32, Vec<u8>)> {
        if !self.files_by_rank0 {
            return Vec::new();
        }
        fd::flush_c_stdio();
        streams::take_captured()
    }

    /// Rank 0 at a merge point: the other ranks' writes to its files, after its own.
    pub fn write_for_others(&self, written: &[(u32, Vec<u8>)]) {
        for (stream, bytes) in written {
            streams::append(*stream, bytes);
        }
    }

    /// A rank leaving abruptly (`exit()` inside a region): what it printed goes out now.
    pub fn release_printed(&self) {
        let printed = self.take_printed();
        if self.real_out >= 0 {
            fd::write_all(self.real_out, &printed);
        }
    }

    /// Duplicates of the original fds 1 and 2 (-1 when closed at start).
    pub fn real_fds(&self) -> [i32; 2] {
        [self.real_out, self.real_err]
    }

    /// Flushes C stdio (called at shutdown).
    pub fn flush(&self) {
        fd::flush_c_stdio();
    }

    fn show(&self, visible: bool) {
        fd::flush_c_stdio();
        if !self.hide_sequential {
            return;
        }
        let (out, err) = if visible {
            let out = if self.captured >= 0 {
                self.captured
            } else {
                self.real_out
            };
            (out, self.real_err)
        } else {
            (self.null, self.null)
        };
        // A descriptor that was closed at start stays as it is.
        if out >= 0 && self.real_out >= 0 {
            let _ = fd::dup2(out, 1);
        }
        if err >= 0 && self.real_err >= 0 {
            let _ = fd::dup2(err, 2);
        }
    }

    /// Makes fd 0 hold the same bytes on every rank (idempotent). `digest`: checkpointing is
    /// on, so rank 0 reads stdin even alone and records a digest of it (`ft::inputs`).
    pub fn stdin_sync(&mut self, comm: Option<&Comm>, digest: bool) -> Result<(), String> {
        if self.stdin_done {
            return Ok(());
        }
        self.stdin_done = true;
        let size = comm.map_or(1, Comm::size);
        if size == 1 && !digest {
            return Ok(());
        }
        // Message: one flag byte (1 = data follows, 0 = rank 0 keeps its terminal) + data.
        let mut msg = Vec::new();
        let rank0 = comm.is_none_or(|c| c.rank() == 0);
        if rank0 {
            if fd::is_open(0) && !fd::is_terminal(0) {
                msg.push(1);
                match fd::read_to_end(0) {
                    Ok(bytes) => msg.extend_from_slice(&bytes),
                    Err(e) => {
                        eprint_line(&format!(
                            "capert: warning: cannot read stdin ({e}); the program sees empty input"
                        ));
                    }
                }
                if digest {
                    crate::ft::inputs::note_stdin(&msg[1..]);
                }
            } else {
                msg.push(0);
            }
        }
        if let Some(comm) = comm.filter(|c| c.size() > 1) {
            comm.broadcast_from_root(&mut msg);
        }
        let has_data = msg.first() == Some(&1);
        if rank0 && !has_data {
            return Ok(());
        }
        let data = msg.get(1..).unwrap_or(&[]);
        let memfd = fd::memfd_with(data)
            .map_err(|e| format!("cannot create the stdin copy (`memfd_create`): {e}"))?;
        fd::dup2(memfd, 0).map_err(|e| format!("cannot replace stdin (`dup2`): {e}"))?;
        fd::close(memfd);
        Ok(())
    }
}
