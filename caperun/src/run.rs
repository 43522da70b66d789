//! The job loop: launch mpirun, watch it, decide on `DIR/status`, relaunch from the log.

use crate::args::{self, Command, Options};
use crate::procs;
use crate::state::{self, LogHeader, Status};
use crate::sys;
use crate::sys::checkpoint_dir::{CheckpointDir, DirError};
use crate::watch::Ranks;
use std::ffi::OsString;
use std::io::Read;
use std::os::fd::AsFd;
use std::path::PathBuf;
use std::process::{Child, ExitStatus, Stdio};
use std::time::{Duration, Instant, SystemTime};

/// How often caperun looks at the job (timeout, new ranks, the log's progress) when the end
/// of mpirun or of a rank wakes it at once (pidfds, Linux >= 5.3); `POLL` without them.
/// Fewer wake-ups are fewer interruptions of the ranks on a node with no spare core.
const POLL_NOTIFIED: Duration = Duration::from_millis(100);
const POLL: Duration = Duration::from_millis(20);
/// How long mpirun gets after a SIGTERM (timeout, or a signal to caperun) before every
/// process of the job is killed.
const KILL_GRACE: Duration = Duration::from_secs(3);
/// After a rank died: how long mpirun gets to forward what the ranks wrote before they were
/// killed (rank 0 counts output as delivered once it is in the pipe to mpirun's daemon) and
/// to end by itself, before every process of the job is killed.
const OUTPUT_DRAIN: Duration = Duration::from_millis(300);

/// Entry point of the binary; returns the exit status.
pub fn main() -> i32 {
    let mut argv = Vec::new();
    for a in std::env::args_os().skip(1) {
        match a.into_string() {
            Ok(s) => argv.push(s),
            Err(bad) => {
                error(&format!(
                    "argument `{}` is not valid UTF-8",
                    bad.to_string_lossy()
                ));
                return 2;
            }
        }
    }
    match args::parse(&argv) {
        Ok(Command::Help) => {
            println!("{}", args::USAGE);
            0
        }
        Ok(Command::Version) => {
            println!("caperun {}", env!("CARGO_PKG_VERSION"));
            0
        }
        Ok(Command::Run(o)) => match run(o) {
            Ok(code) => code,
            Err(msg) => {
                error(&msg);
                1
            }
        },
        Err(msg) => {
            error(&msg);
            2
        }
    }
}

fn error(msg: &str) {
    eprintln!("caperun: error: {msg}");
}

/// With `CAPE_STATS=2` (which the ranks read too): one line per step of an attempt,
/// `caperun: stats: WHAT at SECONDS` in Unix time, to line up with the ranks' lines.
fn trace(what: &str) {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    let on = *ON.get_or_init(|| {
        std::env::var("CAPE_STATS")
            .ok()
            .and_then(|v| v.trim().parse::<u32>().ok())
            .is_some_and(|level| level >= 2)
    });
    if on {
        let t = SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .unwrap_or_default();
        eprintln!(
            "caperun: stats: {what} at {}.{:06}",
            t.as_secs(),
            t.subsec_micros()
        );
    }
}

/// How one attempt ended.
struct Attempt {
    /// mpirun's exit status.
    status: ExitStatus,
    timed_out: bool,
    /// Until every process of the attempt was gone (strays included).
    duration: Duration,
    started: SystemTime,
    /// The log's last write seen before the failure was detected (timeout, signal, mpirun's
    /// exit): what ranks write while the job is torn down does not make the time before it
    /// useful.
    last_write: Option<SystemTime>,
    /// Restart attempts: when the log first grew past what the failed attempt had made
    /// durable (relaunch + replay + one new record).
    recovered_after: Option<Duration>,
    /// Processes still alive after mpirun exited, killed by caperun.
    strays_killed: usize,
    /// A rank caperun saw die (its pid), which made it kill the job at once.
    rank_died: Option<u32>,
    /// Processes of the program caperun saw below mpirun.
    ranks_seen: usize,
}

impl Attempt {
    /// mpirun failed by itself before the job started: no rank of the program was seen and
    /// nothing was written to the log (an option mpirun rejects, a program it cannot find or
    /// run, no slots). A relaunch would fail the same way.
    fn never_started(&self) -> bool {
        !self.status.success()
            && !self.timed_out
            && self.rank_died.is_none()
            && self.ranks_seen == 0
            && self.last_write.is_none()
    }
}

fn seconds(d: Duration) -> String {
    format!("{:.1} s", d.as_secs_f64())
}

fn describe_exit(a: &Attempt, timeout: Option<Duration>) -> String {
    use std::os::unix::process::ExitStatusExt;
    let mut s = if let Some(pid) = a.rank_died {
        format!("rank process {pid} died, job killed at once")
    } else if a.timed_out {
        format!("timed out after {}", seconds(timeout.unwrap_or(a.duration)))
    } else if let Some(code) = a.status.code() {
        format!("mpirun exit {code}")
    } else if let Some(sig) = a.status.signal() {
        format!("mpirun killed by signal {sig}")
    } else {
        "mpirun ended".to_string()
    };
    if a.strays_killed > 0 {
        s += &format!(", {} leftover process(es) killed", a.strays_killed);
    }
    s
}

fn read_header(dir: &CheckpointDir) -> Option<LogHeader> {
    let mut buf = [0u8; 64];
    let mut f = dir.open_read("cape.log").ok()?;
    f.read_exact(&mut buf).ok()?;
    state::parse_log_header(&buf)
}

fn read_status(dir: &CheckpointDir) -> Option<Status> {
    let bytes = dir.read_at_most("status", 4096).ok()?;
    state::parse_status(std::str::from_utf8(&bytes).ok()?)
}

/// When the log was last written.
fn log_modified(dir: &CheckpointDir) -> Option<SystemTime> {
    dir.open_read("cape.log")
        .ok()?
        .metadata()
        .ok()?
        .modified()
        .ok()
}

/// The launcher: `--mpirun`, else `$CAPERUN_MPIRUN`, else `mpirun`.
fn launcher(o: &Options) -> Vec<String> {
    if let Some(m) = &o.mpirun {
        return m.clone();
    }
    std::env::var("CAPERUN_MPIRUN")
        .ok()
        .and_then(|v| args::split_command(&v))
        .unwrap_or_else(|| vec!["mpirun".to_string()])
}

/// Open MPI forwards only the variables it is told about to ranks on other nodes; the list in
/// `OMPI_MCA_mca_base_env_list` does that without an Open MPI-only command-line option (other
/// MPIs ignore it and forward the whole environment).
fn env_list_with(existing: Option<OsString>, names: &[String]) -> OsString {
    let mut list = existing.unwrap_or_default();
    for n in names {
        let present = list
            .to_string_lossy()
            .split(';')
            .any(|item| item.split('=').next() == Some(n.as_str()));
        if present {
            continue;
        }
        if !list.is_empty() {
            list.push(";");
        }
        list.push(n);
    }
    list
}

struct Job {
    opts: Options,
    launcher: Vec<String>,
    /// The directory as given to the runtime (absolute).
    dir: PathBuf,
    files: CheckpointDir,
    /// Standard input is saved in `DIR/stdin` (false: a terminal, passed through).
    saved_stdin: bool,
}

impl Job {
    fn command(&self, restart: bool) -> std::process::Command {
        let mut cmd = std::process::Command::new(&self.launcher[0]);
        cmd.args(&self.launcher[1..]);
        cmd.args(&self.opts.mpirun_args);
        if let Some(n) = self.opts.np {
            cmd.arg("-np").arg(n.to_string());
        }
        cmd.arg(&self.opts.program).args(&self.opts.program_args);
        let (set, unset) = if restart {
            ("CAPE_RESTART", "CAPE_CHECKPOINT")
        } else {
            ("CAPE_CHECKPOINT", "CAPE_RESTART")
        };
        cmd.env(set, &self.dir).env_remove(unset);
        // every CAPE_* setting must reach every rank
        let mut names: Vec<String> = std::env::vars_os()
            .filter_map(|(k, _)| k.into_string().ok())
            .filter(|k| k.starts_with("CAPE_") && k != unset)
            .collect();
        names.push(set.to_string());
        names.sort();
        names.dedup();
        cmd.env(
            "OMPI_MCA_mca_base_env_list",
            env_list_with(std::env::var_os("OMPI_MCA_mca_base_env_list"), &names),
        );
        sys::kill_child_with_parent(&mut cmd);
        cmd
    }

    /// One attempt. `probe`: the failed attempt before it (number, how it ended), after which
    /// the directory must be found writable: probed once the relaunch is on its way (the
    /// probe's fsync is off the recovery's path), the relaunch killed if it is not.
    fn attempt(
        &self,
        restart: bool,
        baseline: Option<u64>,
        probe: Option<(u32, String)>,
    ) -> Result<Attempt, String> {
        // a status left by an earlier run must not be taken for this attempt's
        self.files.remove("status").map_err(|e| {
            format!(
                "cannot remove `{}`: {e}",
                self.files.join("status").display()
            )
        })?;
        let stdin = if self.saved_stdin {
            Stdio::from(self.files.open_read("stdin").map_err(|e| {
                format!("cannot open `{}`: {e}", self.files.join("stdin").display())
            })?)
        } else {
            Stdio::inherit()
        };
        let started = SystemTime::now();
        let start = Instant::now();
        trace(if restart {
            "mpirun starts (restart)"
        } else {
            "mpirun starts"
        });
        let mut child = self.command(restart).stdin(stdin).spawn().map_err(|e| {
            format!(
                "cannot run `{}`: {e} (set the launcher with `--mpirun` or `CAPERUN_MPIRUN`)",
                self.launcher[0]
            )
        })?;
        let mpirun_ended = sys::exit_notifier(child.id());
        if let Some((number, how)) = probe {
            if let Err(e) = check_writable(self, number, &how) {
                kill_tree(&mut child);
                let _ = child.wait();
                kill_strays();
                return Err(e);
            }
        }
        let mut timed_out = false;
        let mut kill_at: Option<Instant> = None;
        let mut forwarded_terminate = false;
        let mut recovered_after = None;
        let mut next_header_poll = start;
        let mut last_write = None;
        let mut ranks = Ranks::new(&self.opts.program);
        let mut rank_died = None;
        let status = loop {
            if let Some(st) = child
                .try_wait()
                .map_err(|e| format!("cannot wait for mpirun: {e}"))?
            {
                if kill_at.is_none() {
                    last_write = log_modified(&self.files);
                }
                trace("mpirun gone");
                break st;
            }
            let now = Instant::now();
            for sig in sys::take_forward_signals() {
                sys::send_signal(child.id(), sig);
            }
            if now >= next_header_poll && kill_at.is_none() {
                last_write = log_modified(&self.files);
            }
            if let (Some(sig), false) = (sys::terminate_signal(), forwarded_terminate) {
                forwarded_terminate = true;
                sys::send_signal(child.id(), sig);
                kill_at.get_or_insert(now + KILL_GRACE);
            }
            if let (Some(limit), false) = (self.opts.timeout, timed_out) {
                if now.duration_since(start) >= limit {
                    timed_out = true;
                    sys::send_signal(child.id(), libc::SIGTERM);
                    kill_at.get_or_insert(now + KILL_GRACE);
                }
            }
            if kill_at.is_none() && rank_died.is_none() {
                match ranks.dead(child.id()) {
                    // killed by a signal: a failure at once
                    Some((pid, Some(w))) if w & 0x7f != 0 => rank_died = Some(pid),
                    // an exit with a status, or gone unseen (its parent reaped it): a job
                    // that ends writes DIR/status before any rank exits (rank 0 writes it,
                    // then every rank passes a barrier), so without it this is a failure
                    Some((pid, _)) if read_status(&self.files).is_none() => rank_died = Some(pid),
                    _ => {}
                }
                if rank_died.is_some() {
                    trace("rank death seen");
                    last_write = log_modified(&self.files);
                    // the ranks at once, mpirun's daemons only once they have forwarded
                    // the ranks' last output (killed with them, it was lost)
                    for &pid in ranks.pids() {
                        sys::send_signal(pid, libc::SIGKILL);
                    }
                    kill_at = Some(now + OUTPUT_DRAIN);
                }
            }
            let killing = kill_at.is_some_and(|t| now >= t);
            if killing {
                kill_tree(&mut child);
                trace("job killed");
            }
            if now >= next_header_poll {
                next_header_poll = now + Duration::from_millis(100);
                if let (Some(base), None) = (baseline, recovered_after) {
                    if read_header(&self.files).is_some_and(|h| h.regions > base) {
                        recovered_after = Some(now.duration_since(start));
                    }
                }
            }
            // the ranks are watched until the job is being stopped; then only mpirun's end
            // matters (the notifiers of ranks that ended stay readable)
            let mut notifiers: Vec<_> = if kill_at.is_none() {
                ranks.notifiers().collect()
            } else {
                Vec::new()
            };
            notifiers.extend(mpirun_ended.as_ref().map(|fd| fd.as_fd()));
            let poll = if mpirun_ended.is_some() {
                POLL_NOTIFIED
            } else {
                POLL
            };
            sys::wait_for_exit(&notifiers, poll);
        };
        let strays_killed = kill_strays();
        trace("attempt over");
        Ok(Attempt {
            status,
            timed_out,
            duration: start.elapsed(),
            started,
            last_write: last_write.filter(|t| *t >= started),
            recovered_after,
            strays_killed,
            rank_died,
            ranks_seen: ranks.pids().len(),
        })
    }
}

/// SIGKILL to mpirun and every process below it.
fn kill_tree(child: &mut Child) {
    for pid in procs::descendants_of(&procs::process_table(), child.id()) {
        sys::send_signal(pid, libc::SIGKILL);
    }
    let _ = child.kill();
}

/// After mpirun has exited: kills whatever is left below caperun (ranks stuck in a
/// collective, orphaned daemons: as subreaper they are our children now) and reaps them.
/// Returns how many there were.
fn kill_strays() -> usize {
    let me = sys::own_pid();
    let mut killed = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        sys::reap_exited_children();
        // the kernel's lists of children: no scan of the whole process table at every end
        let left = crate::watch::descendants(me);
        if left.is_empty() || Instant::now() >= deadline {
            break;
        }
        for pid in left {
            if sys::send_signal(pid, libc::SIGKILL) && !killed.contains(&pid) {
                killed.push(pid);
            }
        }
        // a killed process is gone within a few ms (its memory freed): the relaunch waits
        std::thread::sleep(Duration::from_millis(2));
    }
    killed.len()
}

/// Saves caperun's standard input in `DIR/stdin` so that every attempt reads the same bytes;
/// false when stdin is a terminal (passed through).
fn save_stdin(dir: &CheckpointDir) -> Result<bool, String> {
    if sys::stdin_is_terminal() {
        return Ok(false);
    }
    let mut data = Vec::new();
    std::io::stdin()
        .read_to_end(&mut data)
        .map_err(|e| format!("cannot read standard input: {e}"))?;
    dir.replace("stdin", &data)
        .map_err(|e| format!("cannot write `{}`: {e}", dir.join("stdin").display()))?;
    Ok(true)
}

/// Time lost by a failed attempt: from its last durable record before the failure was
/// detected (the log's last write then) to the end of the attempt, or the whole attempt when
/// it made nothing durable. A hang until `--timeout` is lost time.
fn work_lost(a: &Attempt) -> Duration {
    let end = a.started + a.duration;
    match a.last_write {
        Some(t) => end.duration_since(t).unwrap_or_default(),
        None => a.duration,
    }
}

/// After an attempt that left no status: an error when the checkpoint directory cannot be
/// written any more (full, read-only, permissions), which a relaunch would meet again.
fn check_writable(job: &Job, number: u32, how: &str) -> Result<(), String> {
    job.files.probe_writable("caperun.probe").map_err(|e| {
        format!(
            "attempt {number} ended ({how}) without writing `{}`: the checkpoint directory cannot be written: {e}; not relaunching: free space or make it writable, or choose another with `--checkpoint` (the log in it is kept)",
            job.files.join("status").display()
        )
    })
}

fn run(opts: Options) -> Result<i32, String> {
    sys::become_subreaper();
    sys::install_signal_handlers();
    let dir = opts
        .checkpoint
        .clone()
        .unwrap_or_else(|| args::default_checkpoint_dir(&opts.program));
    let dir = std::path::absolute(&dir)
        .map_err(|e| format!("bad checkpoint directory `{}`: {e}", dir.display()))?;
    let files = CheckpointDir::open(&dir, true).map_err(|e| match e {
        DirError::Io(msg) => msg,
        DirError::Unsafe(msg) => format!("{msg}; remove it or choose another with `--checkpoint`"),
    })?;
    // nothing of the user's is replaced: checked before caperun writes `stdin`
    files
        .refuse_foreign(&["cape.log", "status", "output", "stdin"])
        .map_err(|e| {
            format!(
                "{e}; nothing was written: move it away, or choose another directory with `--checkpoint`"
            )
        })?;
    // --resume reuses the input saved by the run that wrote the log
    let (saved_stdin, wrote_stdin) = if opts.resume && files.open_read("stdin").is_ok() {
        (true, false)
    } else {
        let saved = save_stdin(&files)?;
        (saved, saved)
    };
    if opts.resume && read_header(&files).is_none() {
        return Err(format!(
            "`--resume`: there is no checkpoint log in `{}`",
            dir.display()
        ));
    }
    let job = Job {
        launcher: launcher(&opts),
        opts,
        dir,
        files,
        saved_stdin,
    };
    let result = attempts(&job);
    // the input saved for a job that never wrote a log is no checkpoint's: a later run in
    // the directory would take it for the user's (see `refuse_foreign`)
    if wrote_stdin && read_header(&job.files).is_none() {
        let _ = job.files.remove("stdin");
    }
    result
}

/// The attempts of a job until it completes, fails for good or the retries run out.
fn attempts(job: &Job) -> Result<i32, String> {
    let job_start = Instant::now();
    let mut restart = job.opts.resume;
    let mut lost_work = Duration::ZERO;
    let mut recovery = Duration::ZERO;
    // regions durable when the previous attempt failed
    let mut baseline: Option<u64> = None;
    let mut probe = None;
    for number in 1u32.. {
        // every attempt after the first is a restart
        let restarts = number - 1;
        let a = job.attempt(restart, baseline, probe.take())?;
        if baseline.is_some() {
            // relaunch + replay: until the log grew; all of a successful attempt that never
            // got past the old log; a failed one counts below as work lost
            match (a.recovered_after, read_status(&job.files)) {
                (Some(t), _) => recovery += t,
                (None, Some(_)) => recovery += a.duration,
                (None, None) => {}
            }
        }
        if let Some(sig) = sys::terminate_signal() {
            eprintln!(
                "caperun: stopped by signal {sig} during attempt {number}; the log in `{}` is kept (continue with `caperun --resume`)",
                job.dir.display()
            );
            return Ok(128 + sig);
        }
        match read_status(&job.files) {
            Some(Status::Exit(code)) => {
                if restarts > 0 {
                    let lost = lost_work + recovery;
                    eprintln!(
                        "caperun: completed after {restarts} restart(s); time lost to failures: {} of {} (work redone {}, relaunch and replay {})",
                        seconds(lost),
                        seconds(job_start.elapsed()),
                        seconds(lost_work),
                        seconds(recovery)
                    );
                }
                return Ok(code & 0xff);
            }
            Some(Status::Error) => {
                return Err(format!(
                    "the job stopped with a runtime error (attempt {number}, the error above); not relaunching: it would stop the same way"
                ));
            }
            None => {}
        }
        let how = describe_exit(&a, job.opts.timeout);
        if a.status.success() && !a.timed_out {
            check_writable(job, number, &how)?;
            eprintln!(
                "caperun: warning: the job ended without writing `{}`: is `{}` built with capecc?",
                job.dir.join("status").display(),
                job.opts.program
            );
            return Ok(0);
        }
        if a.never_started() {
            check_writable(job, number, &how)?;
            return Err(format!(
                "attempt {number} never started ({how} before any process of `{}` ran, the launcher's error above): not relaunching: correct the mpirun options or the program",
                job.opts.program
            ));
        }
        let header = read_header(&job.files);
        let lost = work_lost(&a);
        lost_work += lost;
        let progress = match header {
            Some(h) => format!(
                "{} regions durable, {} of work lost",
                h.regions,
                seconds(lost)
            ),
            None => format!("no log written, {} of work lost", seconds(lost)),
        };
        if restarts >= job.opts.retries {
            check_writable(job, number, &how)?;
            return Err(format!(
                "attempt {number} failed after {} ({how}); giving up after {restarts} restart(s) ({progress}; the log in `{}` is kept: continue with `caperun --resume`)",
                seconds(a.duration),
                job.dir.display()
            ));
        }
        let from = if header.is_some() {
            "relaunching from the log"
        } else {
            "relaunching from the start"
        };
        eprintln!(
            "caperun: attempt {number} failed after {} ({how}): {from} ({progress})",
            seconds(a.duration)
        );
        restart = header.is_some();
        probe = Some((number, how));
        // with nothing durable the whole restart is new work, counted as such
        baseline = header.map(|h| h.regions).filter(|&r| r > 0);
    }
    unreachable!("the attempt loop only ends by returning")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn env_list_appends_once() {
        let names = vec!["CAPE_RESTART".to_string(), "CAPE_X".to_string()];
        assert_eq!(env_list_with(None, &names), "CAPE_RESTART;CAPE_X");
        assert_eq!(
            env_list_with(Some("FOO=1;CAPE_X".into()), &names),
            "FOO=1;CAPE_X;CAPE_RESTART"
        );
    }
}
