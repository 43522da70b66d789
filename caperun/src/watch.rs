//! Watching the ranks of an attempt: a rank that dies is seen within a poll (20 ms) instead
//! of when mpirun notices and tears the job down, which takes seconds. The ranks are the
//! processes below mpirun that run the program (found by `/proc/PID/exe`); one that is gone
//! or a zombie other than with exit status 0 is reported (run.rs decides: killed by a
//! signal is a failure at once, anything else only when no `DIR/status` follows).

use crate::procs;
use crate::sys;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How often the process table is searched for ranks not seen yet.
const SCAN_EVERY: Duration = Duration::from_millis(100);

/// A rank's state from its `/proc/PID/stat` text: None while it runs; for a zombie its
/// wait status (field 52, `exit_code`).
pub fn ended_from_stat(stat: &str) -> Option<Option<i32>> {
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // `rest` starts at field 3 (state): field n is fields[n - 3].
    match fields.first() {
        Some(&"Z") | Some(&"X") => Some(fields.get(49).and_then(|f| f.parse().ok())),
        _ => None,
    }
}

/// Whether a wait status is a failure (killed by a signal, or a nonzero exit).
pub fn is_failure(wait_status: i32) -> bool {
    wait_status != 0
}

pub struct Ranks {
    exe: Option<PathBuf>,
    pids: Vec<u32>,
    /// Readable when a rank ends (pidfds): caperun sleeps on them, so a death is seen when
    /// it happens, most often while the rank is still a zombie with its wait status.
    notifiers: Vec<(u32, OwnedFd)>,
    next_scan: Instant,
}

impl Ranks {
    /// The ranks of `program` (as given on the command line, found through `PATH` like
    /// mpirun does when it has no slash).
    pub fn new(program: &str) -> Ranks {
        Ranks {
            exe: resolve(program),
            pids: Vec::new(),
            notifiers: Vec::new(),
            next_scan: Instant::now(),
        }
    }

    /// The ranks seen so far.
    pub fn pids(&self) -> &[u32] {
        &self.pids
    }

    /// What to sleep on: readable when a rank seen so far ends.
    pub fn notifiers(&self) -> impl Iterator<Item = BorrowedFd<'_>> {
        self.notifiers.iter().map(|(_, fd)| fd.as_fd())
    }

    /// A rank below `mpirun` that died, with its wait status when it was seen as a zombie
    /// (None: already reaped by its parent).
    pub fn dead(&mut self, mpirun: u32) -> Option<(u32, Option<i32>)> {
        let exe = self.exe.as_ref()?;
        if Instant::now() >= self.next_scan {
            self.next_scan = Instant::now() + SCAN_EVERY;
            for pid in descendants(mpirun) {
                let runs_it =
                    std::fs::read_link(format!("/proc/{pid}/exe")).is_ok_and(|e| e == *exe);
                if runs_it && !self.pids.contains(&pid) {
                    self.pids.push(pid);
                    self.notifiers
                        .extend(sys::exit_notifier(pid).map(|fd| (pid, fd)));
                }
            }
        }
        let mut found = None;
        let mut ended = Vec::new();
        for &pid in &self.pids {
            let seen = match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
                Err(_) => Some(None),
                Ok(stat) => ended_from_stat(&stat),
            };
            match seen {
                None => continue,
                Some(Some(status)) if !is_failure(status) => {}
                Some(status) => found = found.or(Some((pid, status))),
            }
            ended.push(pid);
        }
        // an ended rank's notifier stays readable: sleeping on it would spin
        self.notifiers.retain(|(pid, _)| !ended.contains(pid));
        found
    }
}

/// The processes below `pid`, through the kernel's lists of children (a few small files,
/// unlike a scan of the whole process table); the table when the kernel has no such lists.
pub fn descendants(pid: u32) -> Vec<u32> {
    let mut out = Vec::new();
    let mut todo = vec![pid];
    while let Some(p) = todo.pop() {
        let Ok(tasks) = std::fs::read_dir(format!("/proc/{p}/task")) else {
            continue;
        };
        for task in tasks.flatten() {
            let Ok(list) = std::fs::read_to_string(task.path().join("children")) else {
                return procs::descendants_of(&procs::process_table(), pid);
            };
            for child in list.split_whitespace().filter_map(|c| c.parse().ok()) {
                if !out.contains(&child) {
                    out.push(child);
                    todo.push(child);
                }
            }
        }
    }
    out
}

fn resolve(program: &str) -> Option<PathBuf> {
    let p = Path::new(program);
    if program.contains('/') {
        return p.canonicalize().ok();
    }
    std::env::var_os("PATH").and_then(|path| {
        std::env::split_paths(&path)
            .map(|d| d.join(p))
            .find(|c| c.is_file())
            .and_then(|c| c.canonicalize().ok())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zombie_status_from_stat() {
        let mut tail: Vec<String> = (4..=52).map(|n| n.to_string()).collect();
        let running = format!("12 (a (b)) S {}", tail.join(" "));
        assert_eq!(ended_from_stat(&running), None);
        *tail.last_mut().unwrap() = "9".into();
        let killed = format!("12 (jacobi) Z {}", tail.join(" "));
        assert_eq!(ended_from_stat(&killed), Some(Some(9)));
        assert!(is_failure(9) && is_failure(256) && !is_failure(0));
        assert_eq!(ended_from_stat("12 (x) Z 1"), Some(None));
    }

    /// A child killed by a signal is seen as a dead rank; one that exits with 0 is not.
    #[test]
    fn watches_real_children() {
        let me = std::process::id();
        let mut sleeper = std::process::Command::new("sleep")
            .arg("30")
            .spawn()
            .unwrap();
        let mut ranks = Ranks::new("sleep");
        assert_eq!(ranks.dead(me), None);
        assert!(ranks.pids.contains(&sleeper.id()));
        sleeper.kill().unwrap();
        let deadline = Instant::now() + Duration::from_secs(5);
        let found = loop {
            if let Some(d) = ranks.dead(me) {
                break Some(d);
            }
            if Instant::now() > deadline {
                break None;
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        assert_eq!(found, Some((sleeper.id(), Some(9))));
        let _ = sleeper.wait();
    }
}
