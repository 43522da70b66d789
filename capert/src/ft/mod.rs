//! Fault tolerance: the durable region log, restart by replay, exactly-once
//! output and the `DIR/status` file. See ARCHITECTURE.md, "Fault tolerance".
//!
//! Every top-level parallel region is numbered (1, 2, ... identically on every rank and for
//! every rank count). World rank 0 appends each region's net change on shared memory, with
//! the fingerprint of the state before it, to `DIR/cape.log`; a restart replays the logged
//! regions (injects them instead of running them) and continues from the first one not logged.

pub mod auth;
pub mod exact;
pub mod fingerprint;
pub mod inputs;
pub use cape_format::log;
mod log_file;
pub mod output;
pub mod replay;
pub mod writer;

use crate::config::{Every, FtConfig};
use crate::sys::checkpoint_dir::{CheckpointDir, DirError};
use crate::sys::mpi::Comm;
use crate::tickpt::Tickpt;
use auth::{Job, LogKey};
use cape_format::log_compact::{control_step, CallState, Snapshot};
use fingerprint::Fingerprint;
use log::{Entry, Header, Inputs};
use log_file::LogFile;
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use writer::{Background, Logged, SnapshotJob};

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

/// The moments of a start-up or restart (`CAPE_STATS=2`, rank 0): one line each,
/// `capert: stats: ft: WHAT at SECONDS` in Unix time, so that they line up with caperun's
/// lines (scripts/bench_ft.sh takes a recovery apart with them).
pub fn trace(stats: u8, rank: usize, what: &str) {
    if stats >= 2 && rank == 0 {
        crate::diag::eprint_line(&format!("capert: stats: ft: {what} at {}", unix_now()));
    }
}

/// The time now in Unix seconds with microseconds (text).
pub fn unix_now() -> String {
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    format!("{}.{:06}", t.as_secs(), t.subsec_micros())
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

/// Rank 0, when the job stops at start-up before the log was opened (a setting no rank could
/// use): `error` in `DIR/status` of the directory `CAPE_RESTART`/`CAPE_CHECKPOINT` names,
/// when it exists and passes the directory's checks, so that caperun does not relaunch a job
/// that would stop the same way. Nothing is created; failures are ignored (the error line
/// is printed all the same).
pub fn record_error_at_start() {
    let Some(dir) = ["CAPE_RESTART", "CAPE_CHECKPOINT"]
        .iter()
        .find_map(|v| std::env::var_os(v).filter(|d| !d.is_empty()))
    else {
        return;
    };
    if let Ok(dir) = CheckpointDir::open(Path::new(&dir), false) {
        if dir.refuse_foreign(&["status"]).is_ok() {
            let _ = dir.replace("status", b"error\n");
        }
    }
}

pub struct Ft {
    pub dir: PathBuf,
    rank0: bool,
    every: Every,
    compact: bool,
    /// Snapshot mode (`CAPE_CHECKPOINT_EVERY=<secs>s` with compaction): regions are logged
    /// thinned, without a fingerprint, and become durable only with a snapshot, every
    /// `<secs>` (or when requested).
    snapshots_only: bool,
    /// `CAPE_CHECKPOINT_EVERY=auto`: the time from one snapshot to the next.
    interval: Duration,
    /// `auto`: a snapshot was taken and timed (until then the first one's copy is estimated).
    copy_timed: bool,
    /// Rank 0: the arena's `unseen_changes` when last looked at.
    heap_seen: u64,
    /// Rank 0: the fingerprint table missed writes (snapshot mode skips it): rehash all.
    fingerprint_stale: bool,
    /// Numbered regions started so far.
    seq: u64,
    /// Regions 1..=replay_count come from the log (known on every rank).
    replay_count: u64,
    /// Regions 1..=snapshot_at were thinned by the log's snapshot, injected at the end of
    /// region snapshot_at (0: none; known on every rank).
    snapshot_at: u64,
    /// Rank 0: the validated log's entries (entry i = region i + 1) and snapshot.
    replay: Vec<Entry>,
    snapshot: Option<Snapshot>,
    writer: Option<Background>,
    pub fingerprint: Fingerprint,
    /// Rank 0: (region, fingerprint and inputs before it) of the logged region in progress.
    current: Option<(u64, u64, Inputs)>,
    pending: Vec<Logged>,
    /// Rank 0: regions handed to the writer (or durable at start-up).
    handed: u64,
    /// Rank 0: payload bytes logged since the last snapshot.
    since_snapshot: usize,
    /// Rank 0: the control digest of the regions so far (`log_compact::control_step`).
    control: u64,
    last_flush: Instant,
    /// `cape_checkpoint_now` inside a region: make the batch durable at the region's end.
    requested: bool,
}

/// A snapshot rank 0 took at a logged region's end: the image of the shared state, the
/// region's stack pointer, how long taking it took, and the user's control state.
pub struct Taken {
    pub image: Tickpt,
    pub sp: usize,
    pub copy: Duration,
    pub call: CallState,
}

/// `CAPE_CHECKPOINT_EVERY=auto`: the first snapshot after `AUTO_FIRST`, or later when its copy,
/// estimated at `AUTO_ASSUMED_COPY_RATE`, would cost more than 1/`AUTO_COST_FACTOR` of the
/// time run so far (matmul N = 1500's one region of 1.5 s paid a 63 ms copy at 1 s); the next ones after
/// `AUTO_COST_FACTOR` times what taking the last one cost the job (copying its image on rank
/// 0's critical path: about 2 % overhead), but at least `AUTO_MIN` and at most `AUTO_MAX`
/// apart, so that a failure loses at most about `AUTO_MAX` of work plus the time to write a
/// snapshot; and never while the writer still writes the previous one.
const AUTO_FIRST: Duration = Duration::from_secs(1);
const AUTO_MIN: Duration = Duration::from_millis(250);
const AUTO_MAX: Duration = Duration::from_secs(1);
const AUTO_COST_FACTOR: u32 = 50;
/// Bytes per second a first snapshot's copy is assumed to move (into fresh pages: 54 MB took
/// 63 ms, 0.86 GB/s, on the 2-core test machine).
const AUTO_ASSUMED_COPY_RATE: f64 = 1e9;

/// What rank 0's start-up found: the log's sink, its entries and snapshot, the output
/// delivered by earlier attempts.
struct Opened {
    log: LogFile,
    entries: Vec<Entry>,
    snapshot: Option<Snapshot>,
    skip: [u64; 2],
}

fn io_error(path: &Path, what: &str, e: std::io::Error) -> String {
    format!(
        "cannot {what} `{}`: {e}: check the directory given to `CAPE_CHECKPOINT`/`CAPE_RESTART`",
        path.display()
    )
}

/// The job this program and its arguments are, and the user's secret key.
fn job_and_secret(
    cfg: &FtConfig,
    args: &[Vec<u8>],
) -> Result<(Job, [u8; auth::SECRET_LEN]), String> {
    let exe = std::fs::read("/proc/self/exe")
        .map_err(|e| io_error(Path::new("/proc/self/exe"), "read", e))?;
    let job = Job::new(&exe, args);
    let key_file = cfg.key_file.as_ref().ok_or(
        "no place for the checkpoint key: set `CAPE_KEY_FILE` (or `HOME`) to keep it outside the checkpoint directory",
    )?;
    let secret = auth::load_or_create_secret(key_file, crate::sys::ft::effective_uid())?;
    Ok((job, secret))
}

/// A restart's log, read and validated completely (it changes nothing in the directory).
fn read_log(
    dir: &CheckpointDir,
    cfg: &FtConfig,
    args: &[Vec<u8>],
) -> Result<log::Validated, String> {
    let (job, secret) = job_and_secret(cfg, args)?;
    let shown = dir.path().display().to_string();
    let mut file = match dir.open_read("cape.log") {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(format!(
                "there is no checkpoint log in {shown} (no `cape.log`): start with `CAPE_CHECKPOINT={shown}`"
            ))
        }
        Err(e) => return Err(io_error(&dir.join("cape.log"), "read", e)),
    };
    // the header first: what lies past the committed length (a torn tail) is never read
    let mut bytes = Vec::new();
    let mut read_up_to = |bytes: &mut Vec<u8>, len: u64| {
        let more = len.saturating_sub(bytes.len() as u64);
        std::io::Read::read_to_end(&mut std::io::Read::take(&mut file, more), bytes)
            .map_err(|e| io_error(&dir.join("cape.log"), "read", e))
    };
    read_up_to(&mut bytes, log::HEADER_LEN as u64)?;
    let header = log::authentic_header(&bytes, &job, &secret, &shown)?;
    // every logged address lies in shared memory as the log's run mapped it
    if let Some(e) = cfg.layout.difference(&header.layout, &shown) {
        return Err(e);
    }
    read_up_to(&mut bytes, header.committed_len)?;
    log::validate(&bytes, &job, &secret, &shown)
}

/// What rank 0 needs of the log before the first region, read on a thread while `MPI_Init`
/// runs: a restart's log, read and validated (a few hundred ms with a log of tens of MB); for
/// a new log the job's identity (a hash of the executable: 10-25 ms for a 12 MB program).
enum Prefetched {
    Log(Box<log::Validated>),
    Job(Job, [u8; auth::SECRET_LEN]),
}

/// [`Prefetched`] on its way: started by the process the launcher says is rank 0.
pub struct Prefetch(std::thread::JoinHandle<Result<Prefetched, String>>);

impl Prefetch {
    /// Before `MPI_Init`: starts the thread when the launcher's environment names this
    /// process rank 0 (Open MPI, MPICH/Hydra, PMIx); None otherwise (rank 0 then does the
    /// work after `MPI_Init`). It changes nothing in the directory.
    pub fn start(cfg: &FtConfig, args: &[Vec<u8>]) -> Option<Prefetch> {
        let rank0 = ["OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"]
            .iter()
            .find_map(|v| std::env::var(v).ok())
            .is_some_and(|r| r.trim() == "0");
        if !rank0 {
            return None;
        }
        let (cfg, args) = (cfg.clone(), args.to_vec());
        std::thread::Builder::new()
            .name("capert-log-read".into())
            .spawn(move || {
                if cfg.restart {
                    read_log(&open_dir(&cfg)?, &cfg, &args).map(|v| Prefetched::Log(Box::new(v)))
                } else {
                    job_and_secret(&cfg, &args).map(|(job, secret)| Prefetched::Job(job, secret))
                }
            })
            .ok()
            .map(Prefetch)
    }

    fn finish(self) -> Result<Prefetched, String> {
        self.0
            .join()
            .unwrap_or_else(|_| Err("internal error: the log's reader thread failed".into()))
    }
}

/// Rank 0's start: the log (new or validated; `prefetched`: read already), and the output
/// counts to skip.
fn open_rank0(
    dir: &CheckpointDir,
    cfg: &FtConfig,
    args: &[Vec<u8>],
    prefetched: Option<Prefetch>,
) -> Result<Opened, String> {
    // never replace a file of the user's (a restart's log is validated whole below)
    let ours: &[&str] = if cfg.restart {
        &["status", "output"]
    } else {
        &["cape.log", "status", "output"]
    };
    dir.refuse_foreign(ours).map_err(|e| {
        let another = if cfg.restart {
            ""
        } else {
            ", or choose another directory with `CAPE_CHECKPOINT`"
        };
        format!("{e}; nothing was written: move it away{another}")
    })?;
    let finished = dir
        .read_at_most("status", 4096)
        .ok()
        .filter(|s| s.starts_with(b"exit"));
    dir.remove("status")
        .map_err(|e| io_error(&dir.join("status"), "remove", e))?;
    reserve_status(dir)?;
    let path = dir.join("cape.log");
    let shown = dir.path().display().to_string();
    if cfg.restart {
        let v = match prefetched.map(Prefetch::finish).transpose()? {
            Some(Prefetched::Log(v)) => *v,
            _ => read_log(dir, cfg, args)?,
        };
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
        let thinned = v.snapshot.as_ref().map_or(0, |s| s.region as usize);
        let log = LogFile::new(
            dir,
            file,
            (v.header, v.key),
            &v.entries,
            thinned,
            cfg.kill_in_compaction,
        )
        .map_err(|e| io_error(dir.path(), "open", e))?;
        Ok(Opened {
            log,
            entries: v.entries,
            snapshot: v.snapshot,
            skip,
        })
    } else {
        let (job, secret) = match prefetched.map(Prefetch::finish).transpose()? {
            Some(Prefetched::Job(job, secret)) => (job, secret),
            _ => job_and_secret(cfg, args)?,
        };
        let log_id =
            auth::new_log_id().map_err(|e| io_error(Path::new("/dev/urandom"), "read", e))?;
        let header = Header::new(&job, log_id, cfg.layout);
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
        let log = LogFile::new(dir, file, (header, key), &[], 0, cfg.kill_in_compaction)
            .map_err(|e| io_error(dir.path(), "open", e))?;
        Ok(Opened {
            log,
            entries: Vec::new(),
            snapshot: None,
            skip: [0, 0],
        })
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
        prefetched: Option<Prefetch>,
    ) -> Result<Ft, String> {
        let rank0 = comm.rank() == 0;
        let mut writer = None;
        let mut replay = Vec::new();
        let mut snapshot = None;
        let mut msg = Vec::new();
        if rank0 {
            match open_dir(cfg).and_then(|dir| {
                let o = open_rank0(&dir, cfg, args, prefetched)?;
                output::start(&dir, real, o.skip, o.snapshot.is_some())?;
                let durable = o.entries.len() as u64;
                let w = Background::start(o.log, durable, cfg.buffer)?;
                Ok((w, o.entries, o.snapshot))
            }) {
                Ok((w, entries, snap)) => {
                    msg.push(0);
                    msg.extend_from_slice(&(entries.len() as u64).to_le_bytes());
                    let at = snap.as_ref().map_or(0, |s| s.region);
                    msg.extend_from_slice(&at.to_le_bytes());
                    writer = Some(w);
                    replay = entries;
                    snapshot = snap;
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
        let word = |at: usize| {
            msg.get(at..at + 8)
                .and_then(|b| b.try_into().ok())
                .map_or(0, u64::from_le_bytes)
        };
        let (replay_count, snapshot_at) = (word(1), word(9));
        if let Err(e) = crate::sys::ft::install_sigusr1() {
            return Err(format!("cannot install the SIGUSR1 handler: {e}"));
        }
        Ok(Ft {
            dir: cfg.dir.clone(),
            rank0,
            every: cfg.every,
            compact: cfg.compact,
            snapshots_only: cfg.compact && !matches!(cfg.every, Every::Regions(_)),
            interval: AUTO_FIRST,
            copy_timed: false,
            heap_seen: 0,
            fingerprint_stale: false,
            seq: 0,
            replay_count,
            snapshot_at,
            replay,
            snapshot,
            writer,
            fingerprint: Fingerprint::default(),
            current: None,
            pending: Vec::new(),
            handed: replay_count,
            since_snapshot: 0,
            control: 0,
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

    /// Rank 0: region `k` begins (logged or replayed) with the stack pointer `sp`.
    pub fn note_region(&mut self, k: u64, sp: usize) {
        self.control = control_step(self.control, k, sp as u64);
    }

    /// Rank 0: a logged region begins with this fingerprint.
    pub fn begin_logged(&mut self, region: u64, fingerprint: u64) {
        self.current = Some((region, fingerprint, inputs::current()));
    }

    /// Rank 0: the payload of logged region `region` once the inputs read so far and the
    /// state (`fingerprint`) match the log and every run of it lies inside `shared` (the
    /// shared ranges now). A region the snapshot thinned runs on an earlier state: its
    /// fingerprint is not compared. The error is the sentence of the refusal.
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
        let now = inputs::current();
        if region <= self.snapshot_at {
            replay::admit_thinned(entry, &now, shared, region, &dir)?;
        } else {
            replay::admit(entry, &now, fingerprint, shared, region, &dir)?;
        }
        Ok(&entry.tickpt)
    }

    /// The region whose end the log's snapshot holds (0: none; every rank).
    pub fn snapshot_at(&self) -> u64 {
        self.snapshot_at
    }

    /// Rank 0 at the end of the snapshot's region in a replay: the image to inject, once
    /// the regions so far were the logged ones (numbers and stack depths) and every run lies
    /// inside `shared`; and the output written up to that point.
    pub fn replay_snapshot(&self, shared: &[(usize, usize)]) -> Result<(&[u8], [u64; 2]), String> {
        let s = self
            .snapshot
            .as_ref()
            .ok_or("internal error: the log's snapshot is missing")?;
        let dir = self.dir.display().to_string();
        if s.control != self.control {
            return Err(format!(
                "the program reached parallel region {} by another path than the run that wrote the log in {dir} (its sequential code depends on data the compacted log no longer holds, or another program version): restart with `CAPE_CHECKPOINT_COMPACT=0` from the start, `CAPE_CHECKPOINT={dir}`",
                s.region
            ));
        }
        let image = crate::tickpt::Tickpt::view(&s.image)
            .map_err(|e| format!("bad snapshot in the log in {dir}: {e}"))?;
        replay::check(image.runs(), &replay::normalize(shared), s.region, &dir)?;
        Ok((&s.image, s.output))
    }

    /// Rank 0, once `replay_snapshot` accepted it: the snapshot's image, taken out of the
    /// log's copy (it is broadcast as it is, not copied again).
    pub fn take_snapshot_image(&mut self) -> Vec<u8> {
        self.snapshot
            .as_mut()
            .map_or_else(Vec::new, |s| std::mem::take(&mut s.image))
    }

    /// Rank 0 at the snapshot's region in a replay: the user's control state to resume with,
    /// once `exact::check` accepted it for the region call in progress (`now`, with the user
    /// stack now from its return address to `top`).
    pub fn replay_call(
        &self,
        now: Option<(crate::sys::region_call::CallSite, &[u8])>,
        top: usize,
    ) -> Result<&CallState, String> {
        let s = self
            .snapshot
            .as_ref()
            .ok_or("internal error: the log's snapshot is missing")?;
        let dir = self.dir.display().to_string();
        let code = crate::sys::bounds::executable_code();
        exact::check(&s.call, now, top, code, s.region, &dir)?;
        Ok(&s.call)
    }

    /// Rank 0: whether a logged region's end is the time for a snapshot of the shared state
    /// (`shared_bytes` long): when the log grew since the last one by as much as the
    /// compacted log holds (the image and about `THINNED_BYTES` per region before it), so
    /// that the log stays within about twice that and compaction rewrites, over a run, no
    /// more than it appends; and the region's end hands its batch to the writer anyway
    /// (`CAPE_CHECKPOINT_EVERY` is kept).
    pub fn snapshot_due(&self, shared_bytes: usize) -> bool {
        const THINNED_BYTES: usize = 128;
        if self.compact && self.heap_seen > 0 && self.requested {
            return true;
        }
        if self.snapshots_only {
            let writer_idle = self.writer.as_ref().is_none_or(Background::idle);
            return (self.batch_due(1) && writer_idle && self.first_copy_cheap(shared_bytes))
                || self.requested
                || crate::sys::ft::signal_requested();
        }
        let compacted = shared_bytes + THINNED_BYTES * self.handed as usize;
        self.compact
            && self.since_snapshot >= compacted.max(64 << 10)
            && (self.batch_due(1) || self.requested)
    }

    /// Rank 0 at a logged region's end, with the arena's `unseen_changes`: when a region
    /// allocated in the arena (a `single`/`master` block), sequential code after it may
    /// follow pointers it made, which a replay from a later snapshot would not have: a
    /// snapshot is due now (this region's effects are in it) and compaction stops; snapshot
    /// mode falls back to one record per region. Returns whether a snapshot is forced.
    pub fn heap_changed(&mut self, unseen_changes: u64) -> bool {
        if unseen_changes == self.heap_seen || !self.compact {
            return false;
        }
        self.heap_seen = unseen_changes;
        self.requested = true;
        true
    }

    /// After the snapshot `heap_changed` forced: no more compaction.
    fn stop_compaction(&mut self) {
        self.compact = false;
        if self.snapshots_only {
            self.snapshots_only = false;
            self.every = Every::Regions(1);
            self.fingerprint_stale = true;
        }
    }

    /// Rank 0: the fingerprint table must be rebuilt (once).
    pub fn take_fingerprint_stale(&mut self) -> bool {
        std::mem::take(&mut self.fingerprint_stale)
    }

    /// Snapshot mode: regions are logged thinned, without fingerprint, and made durable only
    /// with a snapshot (see the field).
    pub fn snapshot_mode(&self) -> bool {
        self.snapshots_only
    }

    /// Whether the batch goes to the writer once it has `more` further regions.
    fn batch_due(&self, more: u64) -> bool {
        match self.every {
            Every::Regions(n) => self.pending.len() as u64 + more >= n,
            Every::Time(t) => self.last_flush.elapsed() >= t,
            Every::Auto => self.last_flush.elapsed() >= self.interval,
        }
    }

    /// `auto` before a snapshot was timed: whether the first one's copy of `shared_bytes`,
    /// estimated, costs at most 1/`AUTO_COST_FACTOR` of the time since the job started.
    fn first_copy_cheap(&self, shared_bytes: usize) -> bool {
        if self.copy_timed || !matches!(self.every, Every::Auto) {
            return true;
        }
        let copy = Duration::from_secs_f64(shared_bytes as f64 / AUTO_ASSUMED_COPY_RATE);
        self.last_flush.elapsed() >= copy * AUTO_COST_FACTOR
    }

    /// `auto`: the interval after a snapshot whose image took `copy` to take.
    fn next_interval(&mut self, copy: Duration) {
        self.copy_timed = true;
        self.interval = (copy * AUTO_COST_FACTOR).clamp(AUTO_MIN, AUTO_MAX);
    }

    /// Rank 0: the logged region in progress ended with this net change (and, when
    /// `snapshot_due` said so, the snapshot taken after it).
    pub fn end_logged(&mut self, change: Tickpt, image: Option<Taken>) -> Result<(), String> {
        let Some((region, fingerprint, inputs)) = self.current.take() else {
            return Ok(());
        };
        let first = self.handed + self.pending.len() as u64 + 1;
        if first != region {
            return Err(format!(
                "internal error: region {region} logged out of order (expected {first})"
            ));
        }
        self.since_snapshot += change.encoded_len();
        self.pending.push(Logged {
            fingerprint,
            inputs,
            change,
        });
        let due = self.batch_due(0) && !self.snapshots_only;
        if let Some(Taken {
            image,
            sp,
            copy,
            call,
        }) = image
        {
            self.next_interval(copy);
            if !self.snapshots_only {
                self.hand_over()?;
            }
            self.since_snapshot = 0;
            self.last_flush = Instant::now();
            let regions = std::mem::take(&mut self.pending);
            self.handed += regions.len() as u64;
            let job = SnapshotJob {
                regions,
                region,
                control: self.control,
                sp: sp as u64,
                output: output::counts(),
                call,
                image,
            };
            if let Some(w) = self.writer.as_ref() {
                w.submit(writer::Job::Snapshot(job))?;
            }
            if self.heap_seen > 0 {
                self.stop_compaction();
            }
        }
        let signal = crate::sys::ft::take_signal_request();
        if signal || std::mem::take(&mut self.requested) {
            self.flush()?;
        } else if due {
            self.hand_over()?;
        }
        Ok(())
    }

    /// `cape_checkpoint_now` inside a region.
    pub fn request(&mut self) {
        self.requested = true;
    }

    /// Rank 0: hands the pending regions to the background writer.
    fn hand_over(&mut self) -> Result<(), String> {
        self.last_flush = Instant::now();
        let Some(w) = self.writer.as_ref() else {
            return Ok(());
        };
        if self.pending.is_empty() {
            return Ok(());
        }
        self.handed += self.pending.len() as u64;
        w.submit(writer::Job::Regions(std::mem::take(&mut self.pending)))
    }

    /// Rank 0 at the end of the job. In snapshot mode the job does not wait for a snapshot
    /// still being written: nothing needs the log of a completed job (a `--resume` of it
    /// replays what is durable and recomputes the rest, printing nothing again); the
    /// writer stops with the process, leaving the previous log or a torn tail.
    pub fn finish(&mut self) -> Result<(), String> {
        if self.snapshots_only {
            return self
                .writer
                .as_ref()
                .map_or(Ok(()), |w| w.error().map_or(Ok(()), Err));
        }
        self.flush()
    }

    /// Rank 0: makes every region so far durable (waits for the writer); in snapshot mode,
    /// every region up to the last snapshot.
    pub fn flush(&mut self) -> Result<(), String> {
        if !self.snapshots_only {
            self.hand_over()?;
        }
        self.writer.as_ref().map_or(Ok(()), Background::sync)
    }

    /// Regions durable in the log (rank 0's view).
    pub fn durable_regions(&self) -> u64 {
        self.writer.as_ref().map_or(0, Background::durable)
    }

    /// Region ends that waited for the writer's bounded buffer (rank 0).
    pub fn writer_stalls(&self) -> u64 {
        self.writer.as_ref().map_or(0, Background::stalls)
    }
}
