//! Fault tolerance: the durable region log, restart by replay, exactly-once
//! output and the `DIR/status` file. See ARCHITECTURE.md, "Fault tolerance".
//!
//! Every top-level parallel region is numbered (1, 2, ... identically on every rank and for
//! every rank count). World rank 0 appends each region's net change on shared memory, with
//! the fingerprint of the state before it, to `DIR/cape.log`; a restart replays the logged
//! regions (injects them instead of running them) and continues from the first one not logged.

pub mod auth;
pub mod fingerprint;
pub mod inputs;
pub use cape_format::log;
pub mod output;
pub mod replay;

use crate::config::{Every, FtConfig};
use crate::sys::checkpoint_dir::{CheckpointDir, DirError};
use crate::sys::mpi::Comm;
use crate::tickpt::Tickpt;
use auth::{Job, LogKey};
use fingerprint::Fingerprint;
use log::{Entry, Header, Inputs};
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

/// Rank 0's `DIR/status`: the checked directory and `status.tmp`, created at start-up with
/// room for the final line, so that `error` can still be recorded when the disk is full.
struct StatusFile {
    dir: CheckpointDir,
    reserved: Option<File>,
}

static STATUS: Mutex<Option<StatusFile>> = Mutex::new(None);

/// Bytes reserved for the status line (`exit -2147483648` is 16).
const STATUS_ROOM: usize = 64;

/// Rank 0: creates the reserved `DIR/status.tmp` and makes the directory the status's.
fn reserve_status(dir: &CheckpointDir) -> Result<(), String> {
    let tmp = "status.tmp";
    let file = dir
        .create_fresh(tmp)
        .and_then(|f| {
            f.write_all_at(&[b' '; STATUS_ROOM], 0)?;
            f.sync_all()?;
            Ok(f)
        })
        .map_err(|e| io_error(&dir.join(tmp), "create", e))?;
    let dir = dir
        .try_clone()
        .map_err(|e| io_error(dir.path(), "open", e))?;
    *STATUS.lock().unwrap_or_else(|e| e.into_inner()) = Some(StatusFile {
        dir,
        reserved: Some(file),
    });
    Ok(())
}

impl StatusFile {
    /// Writes `DIR/status` atomically: the reserved file (or a new one), fsync, rename.
    fn write(&mut self, text: &str) -> Result<(), String> {
        let dir = &self.dir;
        let result = match self.reserved.take() {
            Some(f) => f
                .write_all_at(text.as_bytes(), 0)
                .and_then(|()| f.set_len(text.len() as u64))
                .and_then(|()| f.sync_all())
                .and_then(|()| dir.rename("status.tmp", "status")),
            None => dir.replace("status", text.as_bytes()),
        };
        result.map_err(|e| {
            format!(
                "cannot write `{}`: {e}: how the job ended is not recorded (caperun and restarts read it)",
                dir.join("status").display()
            )
        })
    }
}

/// Rank 0 at the end of a job: writes `DIR/status` (no-op without a checkpoint directory).
pub fn write_status(text: &str) -> Result<(), String> {
    match STATUS.lock().unwrap_or_else(|e| e.into_inner()).as_mut() {
        Some(status) => status.write(text),
        None => Ok(()),
    }
}

/// A `capert: error:` stops the job: on rank 0 forward the pending output and write
/// `error` into the status file (no-op without a checkpoint directory).
pub fn record_error() {
    let Ok(mut guard) = STATUS.try_lock() else {
        return;
    };
    if let Some(status) = guard.as_mut() {
        output::finish(true);
        if let Err(e) = status.write("error\n") {
            crate::diag::eprint_line(&format!("capert: error: {e}"));
        }
    }
}

struct Writer {
    file: File,
    header: Header,
    key: LogKey,
}

pub struct Ft {
    pub dir: PathBuf,
    rank0: bool,
    every: Every,
    /// Numbered regions started so far.
    seq: u64,
    /// Regions 1..=replay_count come from the log (known on every rank).
    replay_count: u64,
    /// Rank 0: the validated log's entries (entry i = region i + 1).
    replay: Vec<Entry>,
    writer: Option<Writer>,
    pub fingerprint: Fingerprint,
    /// Rank 0: (region, fingerprint and inputs before it) of the logged region in progress.
    current: Option<(u64, u64, Inputs)>,
    pending: Vec<Entry>,
    last_flush: Instant,
    /// `cape_checkpoint_now` inside a region: make the batch durable at the region's end.
    requested: bool,
}

fn io_error(path: &Path, what: &str, e: std::io::Error) -> String {
    format!(
        "cannot {what} `{}`: {e}: check the directory given to `CAPE_CHECKPOINT`/`CAPE_RESTART`",
        path.display()
    )
}

/// Rank 0's start: the log (new or validated), and the output counts to skip.
fn open_rank0(
    dir: &CheckpointDir,
    cfg: &FtConfig,
    args: &[Vec<u8>],
) -> Result<(Writer, Vec<Entry>, [u64; 2]), String> {
    let finished = dir.read("status").ok().filter(|s| s.starts_with(b"exit"));
    dir.remove("status")
        .map_err(|e| io_error(&dir.join("status"), "remove", e))?;
    reserve_status(dir)?;
    let exe = std::fs::read("/proc/self/exe")
        .map_err(|e| io_error(Path::new("/proc/self/exe"), "read", e))?;
    let job = Job::new(&exe, args);
    let key_file = cfg.key_file.as_ref().ok_or(
        "no place for the checkpoint key: set `CAPE_KEY_FILE` (or `HOME`) to keep it outside the checkpoint directory",
    )?;
    let secret = auth::load_or_create_secret(key_file, crate::sys::ft::effective_uid())?;
    let path = dir.join("cape.log");
    let shown = dir.path().display().to_string();
    if cfg.restart {
        let bytes = match dir.read("cape.log") {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(format!(
                    "there is no checkpoint log in {shown} (no `cape.log`): start with `CAPE_CHECKPOINT={shown}`"
                ))
            }
            Err(e) => return Err(io_error(&path, "read", e)),
        };
        let v = log::validate(&bytes, &job, &secret, &shown)?;
        let file = dir
            .open_rw("cape.log")
            .map_err(|e| io_error(&path, "open", e))?;
        // The torn tail of a crash during an append goes.
        file.set_len(v.header.committed_len)
            .and_then(|()| file.sync_all())
            .map_err(|e| io_error(&path, "truncate", e))?;
        let skip = output::delivered(dir);
        if let Some(status) = finished {
            crate::diag::eprint_line(&format!(
                "capert: note: the log in {shown} is of a run that completed (`{}`): it is replayed \
                 and its output, printed then, is not printed again",
                String::from_utf8_lossy(&status).trim()
            ));
        }
        Ok((
            Writer {
                file,
                header: v.header,
                key: v.key,
            },
            v.entries,
            skip,
        ))
    } else {
        let log_id =
            auth::new_log_id().map_err(|e| io_error(Path::new("/dev/urandom"), "read", e))?;
        let header = Header::new(&job, log_id);
        let key = LogKey::derive(&secret, &log_id, &job);
        let tmp = "cape.log.tmp";
        let file = dir
            .create_fresh(tmp)
            .map_err(|e| io_error(&dir.join(tmp), "create", e))?;
        file.write_all_at(&header.encode(&key), 0)
            .and_then(|()| file.sync_all())
            .and_then(|()| dir.rename(tmp, "cape.log"))
            .map_err(|e| io_error(&path, "write", e))?;
        dir.remove("output")
            .map_err(|e| io_error(&dir.join("output"), "remove", e))?;
        Ok((Writer { file, header, key }, Vec::new(), [0, 0]))
    }
}

/// Rank 0: opens and checks the checkpoint directory (created 0700 for a new log).
fn open_dir(cfg: &FtConfig) -> Result<CheckpointDir, String> {
    CheckpointDir::open(&cfg.dir, !cfg.restart).map_err(|e| match e {
        DirError::Io(msg) => msg,
        DirError::Unsafe(msg) => {
            format!("{msg}; remove it or choose another with `CAPE_CHECKPOINT`")
        }
    })
}

impl Ft {
    /// Start-up (collective): rank 0 opens or validates the log and starts the output
    /// forwarding; every rank learns how many regions to replay. `real`: duplicates of the
    /// original fds 1 and 2 (rank 0).
    pub fn start(
        cfg: &FtConfig,
        comm: &Comm,
        args: &[Vec<u8>],
        real: [i32; 2],
    ) -> Result<Ft, String> {
        let rank0 = comm.rank() == 0;
        let mut writer = None;
        let mut replay = Vec::new();
        let mut msg = Vec::new();
        if rank0 {
            match open_dir(cfg).and_then(|dir| {
                let (w, e, skip) = open_rank0(&dir, cfg, args)?;
                output::start(&dir, real, skip)?;
                Ok((w, e))
            }) {
                Ok((w, entries)) => {
                    msg.push(0);
                    msg.extend_from_slice(&(entries.len() as u64).to_le_bytes());
                    writer = Some(w);
                    replay = entries;
                }
                Err(e) => {
                    msg.push(1);
                    msg.extend_from_slice(e.as_bytes());
                }
            }
        }
        comm.broadcast_from_root(&mut msg);
        if msg.first() != Some(&0) {
            return Err(String::from_utf8_lossy(msg.get(1..).unwrap_or(&[])).into_owned());
        }
        let replay_count = msg
            .get(1..9)
            .and_then(|b| b.try_into().ok())
            .map_or(0, u64::from_le_bytes);
        if let Err(e) = crate::sys::ft::install_sigusr1() {
            return Err(format!("cannot install the SIGUSR1 handler: {e}"));
        }
        Ok(Ft {
            dir: cfg.dir.clone(),
            rank0,
            every: cfg.every,
            seq: 0,
            replay_count,
            replay,
            writer,
            fingerprint: Fingerprint::default(),
            current: None,
            pending: Vec::new(),
            last_flush: Instant::now(),
            requested: false,
        })
    }

    pub fn rank0(&self) -> bool {
        self.rank0
    }

    /// A top-level region starts: its number.
    pub fn next_region(&mut self) -> u64 {
        self.seq += 1;
        self.seq
    }

    pub fn is_replay(&self, region: u64) -> bool {
        region <= self.replay_count
    }

    pub fn replay_count(&self) -> u64 {
        self.replay_count
    }

    /// Rank 0: the logged entry of `region`.
    pub fn replay_entry(&self, region: u64) -> Option<&Entry> {
        let i = usize::try_from(region.checked_sub(1)?).ok()?;
        self.replay.get(i)
    }

    /// Rank 0: the replay is over; free the log's copy.
    pub fn replay_done(&mut self) {
        self.replay = Vec::new();
    }

    /// Rank 0: a logged region begins with this fingerprint.
    pub fn begin_logged(&mut self, region: u64, fingerprint: u64) {
        self.current = Some((region, fingerprint, inputs::current()));
    }

    /// Rank 0: the payload of logged region `region` once the inputs read so far and the
    /// state (`fingerprint`) match the log and every run of it lies inside `shared` (the
    /// shared ranges now). The error is the sentence of the refusal.
    pub fn replay_payload(
        &self,
        region: u64,
        fingerprint: u64,
        shared: &[(usize, usize)],
    ) -> Result<&[u8], String> {
        let entry = self
            .replay_entry(region)
            .ok_or("internal error: a replayed region is missing from the log")?;
        let dir = self.dir.display().to_string();
        replay::admit(entry, &inputs::current(), fingerprint, shared, region, &dir)?;
        Ok(&entry.tickpt)
    }

    /// Rank 0: the logged region in progress ended with this net change.
    pub fn end_logged(&mut self, change: &Tickpt) -> Result<(), String> {
        let Some((region, fingerprint, inputs)) = self.current.take() else {
            return Ok(());
        };
        let first = self.durable_regions() + self.pending.len() as u64 + 1;
        if first != region {
            return Err(format!(
                "internal error: region {region} logged out of order (expected {first})"
            ));
        }
        self.pending.push(Entry {
            fingerprint,
            inputs,
            tickpt: change.encode(),
        });
        let due = match self.every {
            Every::Regions(n) => self.pending.len() as u64 >= n,
            Every::Time(t) => self.last_flush.elapsed() >= t,
        };
        let signal = crate::sys::ft::take_signal_request();
        if due || signal || std::mem::take(&mut self.requested) {
            self.flush()?;
        }
        Ok(())
    }

    /// `cape_checkpoint_now` inside a region.
    pub fn request(&mut self) {
        self.requested = true;
    }

    /// Rank 0: makes the pending regions durable (one append + fsync, then the header).
    pub fn flush(&mut self) -> Result<(), String> {
        self.last_flush = Instant::now();
        let Some(w) = self.writer.as_mut() else {
            return Ok(());
        };
        if self.pending.is_empty() {
            return Ok(());
        }
        let path = self.dir.join("cape.log");
        let first = w.header.committed_regions + 1;
        let record = log::encode_record(&w.key, w.header.committed_len, first, &self.pending);
        w.file
            .write_all_at(&record, w.header.committed_len)
            .and_then(|()| w.file.sync_data())
            .map_err(|e| io_error(&path, "append to", e))?;
        if first == 1 {
            w.header.first_fingerprint = self.pending[0].fingerprint;
        }
        w.header.committed_len += record.len() as u64;
        w.header.committed_regions += self.pending.len() as u64;
        w.file
            .write_all_at(&w.header.encode(&w.key), 0)
            .and_then(|()| w.file.sync_data())
            .map_err(|e| io_error(&path, "update", e))?;
        self.pending.clear();
        Ok(())
    }

    /// Regions durable in the log (rank 0's view).
    pub fn durable_regions(&self) -> u64 {
        self.writer
            .as_ref()
            .map_or(0, |w| w.header.committed_regions)
    }
}
