//! caperun against a fake mpirun (tests/fake_mpirun.sh) that plays a plan of failures.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

struct Case {
    root: PathBuf,
}

impl Case {
    fn new(name: &str, plan: &[&str]) -> Case {
        let root = std::env::temp_dir().join(format!("caperun-test-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("state")).unwrap();
        std::fs::write(root.join("plan"), plan.join("\n") + "\n").unwrap();
        Case { root }
    }

    fn ckpt(&self) -> PathBuf {
        self.root.join("ckpt")
    }

    fn run(&self, args: &[&str], stdin: &[u8]) -> Output {
        let fake = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fake_mpirun.sh");
        let mut child = Command::new(env!("CARGO_BIN_EXE_caperun"))
            .arg("--mpirun")
            .arg(&fake)
            .arg("--checkpoint")
            .arg(self.ckpt())
            .args(args)
            .env("FAKE_STATE", self.root.join("state"))
            .env("FAKE_PLAN", self.root.join("plan"))
            .env_remove("CAPE_CHECKPOINT")
            .env_remove("CAPE_RESTART")
            .env_remove("OMPI_MCA_mca_base_env_list")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        // caperun may refuse to start before it reads its input
        let _ = child.stdin.take().unwrap().write_all(stdin);
        child.wait_with_output().unwrap()
    }

    fn state(&self, file: &str) -> String {
        std::fs::read_to_string(self.root.join("state").join(file)).unwrap_or_default()
    }

    fn attempts(&self) -> u32 {
        self.state("count").trim().parse().unwrap_or(0)
    }
}

impl Drop for Case {
    fn drop(&mut self) {
        let _ = Command::new("chattr").arg("-i").arg(self.ckpt()).output();
        let _ = Command::new("chmod").arg("700").arg(self.ckpt()).output();
        let _ = Command::new("umount").arg(self.ckpt()).output();
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

fn is_root() -> bool {
    std::fs::read_to_string("/proc/self/status").is_ok_and(|s| {
        s.lines()
            .any(|l| l.starts_with("Uid:") && l.split_whitespace().nth(2) == Some("0"))
    })
}

/// The seconds of `X s of work lost` in caperun's report.
fn work_lost(err: &str) -> f64 {
    let at = err.find(" s of work lost").expect(err);
    let start = err[..at]
        .rfind(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap()
        + 1;
    err[start..at].parse().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn relaunches_from_the_log_until_the_job_completes() {
    let c = Case::new("relaunch", &["die", "die", "exit 0"]);
    let o = c.run(&["-np", "4", "./prog", "a1"], b"the input\n");
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert_eq!(c.attempts(), 3);
    assert!(
        err.contains("caperun: attempt 1 failed after")
            && err.contains("(mpirun exit 137): relaunching from the log (10 regions durable"),
        "{err}"
    );
    assert!(err.contains("caperun: attempt 2 failed after"), "{err}");
    assert!(err.contains("(20 regions durable"), "{err}");
    assert!(
        err.contains("caperun: completed after 2 restart(s); time lost to failures: "),
        "{err}"
    );
    let dir = c.ckpt();
    let dir = dir.to_str().unwrap();
    assert!(c
        .state("env.1")
        .contains(&format!("CAPE_CHECKPOINT={dir}\n")));
    assert!(!c.state("env.1").contains("CAPE_RESTART"));
    for n in [2, 3] {
        let env = c.state(&format!("env.{n}"));
        assert!(env.contains(&format!("CAPE_RESTART={dir}\n")), "{env}");
        assert!(!env.contains("CAPE_CHECKPOINT="), "{env}");
        assert!(
            env.contains("OMPI_MCA_mca_base_env_list=CAPE_RESTART"),
            "{env}"
        );
    }
    for n in 1..=3 {
        assert_eq!(c.state(&format!("stdin.{n}")), "the input\n");
        assert_eq!(c.state(&format!("args.{n}")), "-np\n4\n./prog\na1\n");
    }
}

#[test]
fn exit_status_is_the_programs() {
    let c = Case::new("status", &["exit 7"]);
    let o = c.run(&["./prog"], b"");
    assert_eq!(o.status.code(), Some(7));
    assert_eq!(stderr(&o), "");
    assert_eq!(c.attempts(), 1);
}

#[test]
fn a_runtime_error_is_not_retried() {
    let c = Case::new("error", &["error", "exit 0"]);
    let o = c.run(&["./prog"], b"");
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(c.attempts(), 1);
    assert!(err.contains("capert: error: refused"), "{err}");
    assert!(
        err.contains("caperun: error: the job stopped with a runtime error"),
        "{err}"
    );
}

#[test]
fn gives_up_when_the_retries_run_out() {
    let c = Case::new("giveup", &["die", "die", "die", "die"]);
    let o = c.run(&["--retries", "2", "./prog"], b"");
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert_eq!(c.attempts(), 3);
    assert!(
        err.contains("caperun: error: attempt 3 failed after")
            && err.contains("giving up after 2 restart(s)"),
        "{err}"
    );
}

#[test]
fn a_stale_status_is_not_taken_for_the_new_run() {
    let c = Case::new("stale", &["die", "exit 0"]);
    std::fs::create_dir_all(c.ckpt()).unwrap();
    std::fs::write(c.ckpt().join("status"), "exit 5\n").unwrap();
    let o = c.run(&["./prog"], b"");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(c.attempts(), 2);
}

#[test]
fn a_hung_attempt_is_killed_at_the_timeout_and_relaunched() {
    let c = Case::new("timeout", &["stuck", "exit 0"]);
    let start = Instant::now();
    let o = c.run(&["--timeout", "0.5", "./prog"], b"");
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(err.contains("(timed out after 0.5 s"), "{err}");
    // relaunched from the start: the stuck attempt wrote no log
    assert!(
        err.contains("relaunching from the start (no log written"),
        "{err}"
    );
    assert!(c.state("env.2").contains("CAPE_CHECKPOINT="));
    assert!(start.elapsed() < Duration::from_secs(10));
}

#[test]
fn processes_left_behind_by_mpirun_are_killed() {
    let c = Case::new("orphan", &["orphan", "exit 0"]);
    let o = c.run(&["./prog"], b"");
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(err.contains("1 leftover process(es) killed"), "{err}");
    let pid = c.state("orphan.pid");
    assert!(!pid.is_empty());
    assert!(!Path::new(&format!("/proc/{}", pid.trim())).exists());
}

#[test]
fn no_status_and_success_is_a_warning() {
    let c = Case::new("nostatus", &["nostatus"]);
    let o = c.run(&["./prog"], b"");
    assert_eq!(o.status.code(), Some(0));
    assert!(stderr(&o).contains("caperun: warning: the job ended without writing"));
}

#[test]
fn resume_starts_from_the_existing_log() {
    let c = Case::new("resume", &["die", "exit 0"]);
    let o = c.run(&["--retries", "0", "./prog"], b"saved input");
    assert_eq!(o.status.code(), Some(1));
    let o = c.run(&["--resume", "./prog"], b"other input");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(c.state("env.2").contains("CAPE_RESTART="));
    assert_eq!(c.state("stdin.2"), "saved input");
}

#[test]
fn usage_errors() {
    let c = Case::new("usage", &[]);
    let o = c.run(&["-np"], b"");
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stderr(&o), "caperun: error: `-np` needs a value\n");
    let o = Command::new(env!("CARGO_BIN_EXE_caperun"))
        .args(["--mpirun", "/nonexistent/mpirun", "--checkpoint"])
        .arg(c.ckpt())
        .arg("./prog")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).starts_with("caperun: error: cannot run `/nonexistent/mpirun`"));
}

#[test]
fn a_hang_until_the_timeout_is_time_lost() {
    // the log is written once more while the job is torn down, as a stopped rank does when
    // mpirun continues it to deliver SIGTERM: the hang before it is lost all the same
    let c = Case::new("hanglost", &["hanglog"]);
    let o = c.run(&["--timeout", "2", "--retries", "0", "./prog"], b"");
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("(timed out after 2.0 s"), "{err}");
    assert!(err.contains("(11 regions durable"), "{err}");
    // the header is written at most a few tenths of a second after the start, even loaded
    assert!(work_lost(&err) >= 1.0, "{err}");
}

#[test]
fn a_checkpoint_directory_that_became_unwritable_is_reported() {
    let c = Case::new("readonly", &["readonly", "exit 0"]);
    let o = c.run(&["./prog"], b"");
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert_eq!(c.attempts(), 1);
    assert!(!err.contains("built with capecc"), "{err}");
    assert!(
        err.contains("caperun: error: attempt 1 ended (mpirun exit 0) without writing")
            && err.contains("the checkpoint directory cannot be written: ")
            && err.contains("(os error "),
        "{err}"
    );
}

#[test]
fn a_full_disk_is_not_retried() {
    // a real full file system: a small tmpfs (root only), filled before the job starts
    if !is_root() {
        eprintln!("skipped: mounting a tmpfs needs root");
        return;
    }
    let c = Case::new("full", &["die", "die", "die", "exit 0"]);
    std::fs::create_dir_all(c.ckpt()).unwrap();
    let mounted = Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=64k,mode=700", "tmpfs"])
        .arg(c.ckpt())
        .status()
        .unwrap();
    assert!(mounted.success());
    let _ = Command::new("dd")
        .args(["if=/dev/zero", "bs=4k", "count=100"])
        .arg(format!("of={}", c.ckpt().join("filler").display()))
        .output()
        .unwrap();
    let o = c.run(&["./prog"], b"");
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    // the directory is probed once the relaunch is on its way (off the recovery's path) and
    // the relaunch killed when the probe fails: the fake launcher may have counted it
    assert!(c.attempts() <= 2, "{} attempts: {err}", c.attempts());
    assert!(
        err.contains("caperun: error: attempt 1 ended (mpirun exit 137) without writing")
            && err.contains("the checkpoint directory cannot be written: No space left on device")
            && !err.contains("attempt 2"),
        "{err}"
    );
}

#[test]
fn a_checkpoint_directory_writable_by_others_is_refused() {
    use std::os::unix::fs::PermissionsExt;
    let c = Case::new("world", &["exit 0"]);
    std::fs::create_dir_all(c.ckpt()).unwrap();
    std::fs::set_permissions(c.ckpt(), std::fs::Permissions::from_mode(0o777)).unwrap();
    let o = c.run(&["./prog"], b"input");
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert_eq!(c.attempts(), 0);
    assert_eq!(
        err,
        format!(
            "caperun: error: the checkpoint directory `{}` is writable by other users; remove it or choose another with `--checkpoint`\n",
            c.ckpt().display()
        )
    );
    assert!(!c.ckpt().join("stdin").exists());
}

#[test]
fn symlinks_in_the_checkpoint_directory_are_not_followed() {
    let c = Case::new("links", &["logexit 0"]);
    std::fs::create_dir_all(c.ckpt()).unwrap();
    let victim = c.root.join("victim");
    std::fs::write(&victim, "precious").unwrap();
    for name in ["stdin", "stdin.tmp", "status", "caperun.probe"] {
        std::os::unix::fs::symlink(&victim, c.ckpt().join(name)).unwrap();
    }
    let o = c.run(&["./prog"], b"the input");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    assert_eq!(c.state("stdin.1"), "the input");
    use std::os::unix::fs::MetadataExt;
    let mode = std::fs::symlink_metadata(c.ckpt().join("stdin"))
        .unwrap()
        .mode();
    assert_eq!(mode & 0o7777, 0o600);
}

#[test]
fn a_new_checkpoint_directory_is_private() {
    use std::os::unix::fs::MetadataExt;
    let c = Case::new("private", &["exit 0"]);
    let o = c.run(&["./prog"], b"x");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(std::fs::metadata(c.ckpt()).unwrap().mode() & 0o7777, 0o700);
}

#[test]
fn files_of_the_user_under_our_names_are_refused_and_kept() {
    use std::os::unix::fs::PermissionsExt;
    for (name, text) in [
        ("output", "my experiment results, 3 weeks of runs\n"),
        ("status", "notes on job status\n"),
        ("stdin", "input deck\n"),
        ("cape.log", "this is my own cape.log, not a checkpoint\n"),
    ] {
        let c = Case::new(&format!("foreign-{name}"), &["exit 0"]);
        std::fs::create_dir_all(c.ckpt()).unwrap();
        std::fs::set_permissions(c.ckpt(), std::fs::Permissions::from_mode(0o700)).unwrap();
        std::fs::write(c.ckpt().join(name), text).unwrap();
        let o = c.run(&["./prog"], b"the input");
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{err}");
        assert_eq!(c.attempts(), 0, "{err}");
        let path = c.ckpt().join(name);
        assert!(
            err.starts_with(&format!(
                "caperun: error: `{}` was not written by capecc: ",
                path.display()
            )) && err.ends_with(
                "; nothing was written: move it away, or choose another directory with `--checkpoint`\n"
            )
            && err.lines().count() == 1,
            "{err}"
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
        let left: Vec<_> = std::fs::read_dir(c.ckpt()).unwrap().collect();
        assert_eq!(left.len(), 1, "{name}: {left:?}");
    }
}

#[test]
fn a_directory_of_the_users_other_files_is_used() {
    use std::os::unix::fs::PermissionsExt;
    let c = Case::new("otherfiles", &["exit 0"]);
    std::fs::create_dir_all(c.ckpt()).unwrap();
    std::fs::set_permissions(c.ckpt(), std::fs::Permissions::from_mode(0o700)).unwrap();
    std::fs::write(c.ckpt().join("notes.txt"), "mine").unwrap();
    let o = c.run(&["./prog"], b"the input");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        std::fs::read_to_string(c.ckpt().join("notes.txt")).unwrap(),
        "mine"
    );
}

#[test]
fn the_input_of_a_job_that_wrote_no_log_is_removed() {
    // a second run in the same directory must not find a `stdin` without a log beside it
    let c = Case::new("nolog", &["exit 3", "exit 0"]);
    let o = c.run(&["./prog"], b"the input");
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(!c.ckpt().join("stdin").exists());
    let o = c.run(&["./prog"], b"the input");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(c.state("stdin.2"), "the input");
}

#[test]
fn a_launch_that_never_started_is_not_relaunched() {
    let c = Case::new("nostart", &["nostart", "nostart", "exit 0"]);
    let o = c.run(&["--bogus", "./prog"], b"");
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert_eq!(c.attempts(), 1, "{err}");
    assert_eq!(err.matches("unknown option").count(), 1, "{err}");
    assert!(
        err.ends_with(
            "caperun: error: attempt 1 never started (mpirun exit 1 before any process of `./prog` ran, the launcher's error above): not relaunching: correct the mpirun options or the program\n"
        ),
        "{err}"
    );
}

#[test]
fn an_option_value_that_is_an_option_is_refused() {
    let c = Case::new("optvalue", &["exit 0"]);
    let o = Command::new(env!("CARGO_BIN_EXE_caperun"))
        .current_dir(&c.root)
        .args(["--checkpoint", "-np", "2", "./prog"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "caperun: error: `--checkpoint` needs a value, but the next argument is the option `-np` (a value starting with `-` is given as `--checkpoint=-np`)\n"
    );
    assert!(!c.root.join("-np").exists());
}
