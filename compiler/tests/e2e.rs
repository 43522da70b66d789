//! The end-to-end programs as `cargo test` tests, one per program: each runs
//! `tests/e2e/run.sh` (the one implementation of the e2e logic: gcc -fopenmp reference vs
//! capecc under mpirun) with a filter that selects exactly that program, so
//! `cargo test --release --test e2e -- polybench/2mm` runs one program and a failure names it.
//!
//! Environment: `E2E_PROCS` the P list (default run.sh's "1 2 3 4 5 8"; an entry `RxT` runs
//! R ranks of T threads against gcc -fopenmp at R*T threads), `E2E_FILTER`
//! extended regexps (space-separated) narrowing the programs as run.sh's FILTER does,
//! `E2E_TIMEOUT` passed through to run.sh, `E2E_JOBS` programs run at once (default 1), `CAPECC` the compiler (default: the one this test
//! target was built with). A missing mpirun or libcapert.a fails every test unless
//! `CAPECC_ALLOW_SKIP=1` (never set in CI) turns them into ignored tests.

use std::path::{Path, PathBuf};
use std::process::Command;

use libtest_mimic::{Arguments, Failed, Trial};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Program names as run.sh prints them (`clause_if`, `polybench/2mm`, `errors/task`,
/// `examples/pi`), sorted within each directory like run.sh's globs.
fn programs(root: &Path) -> Vec<String> {
    let mut names = Vec::new();
    for (dir, prefix) in [
        ("tests/e2e/progs", ""),
        ("tests/e2e/polybench", "polybench/"),
        ("tests/e2e/errors", "errors/"),
        ("examples", "examples/"),
    ] {
        let mut stems: Vec<String> = std::fs::read_dir(root.join(dir))
            .unwrap_or_else(|e| panic!("{dir}: {e}"))
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter_map(|n| n.strip_suffix(".c").map(str::to_owned))
            .collect();
        stems.sort();
        names.extend(stems.into_iter().map(|s| format!("{prefix}{s}")));
    }
    names
}

/// Why the e2e programs cannot run here, if a tool is missing.
fn missing_tool(capecc: &Path) -> Option<String> {
    let mpirun = Command::new("mpirun").arg("--version").output();
    if !mpirun.is_ok_and(|o| o.status.success()) {
        return Some("no mpirun on PATH (source scripts/env.sh)".into());
    }
    if !capecc.is_file() {
        return Some(format!("capecc not found at {}", capecc.display()));
    }
    let runtime = capecc.with_file_name("libcapert.a");
    if std::env::var_os("CAPECC_RUNTIME").is_none() && !runtime.is_file() {
        return Some(format!(
            "{} not built (cargo build --release)",
            runtime.display()
        ));
    }
    None
}

/// A regexp matching exactly `name` (run.sh's filters are extended regexps).
fn exact(name: &str) -> String {
    let mut pattern = String::from("^");
    for c in name.chars() {
        if !c.is_ascii_alphanumeric() && c != '_' && c != '/' {
            pattern.push('\\');
        }
        pattern.push(c);
    }
    pattern.push('$');
    pattern
}

fn run_program(root: &Path, capecc: &Path, name: &str) -> Result<(), Failed> {
    let out = std::env::temp_dir().join(format!(
        "capecc-e2e-{}-{}",
        std::process::id(),
        name.replace('/', "_")
    ));
    let mut cmd = Command::new(root.join("tests/e2e/run.sh"));
    if let Ok(procs) = std::env::var("E2E_PROCS") {
        cmd.args(["--procs", &procs]);
    }
    let output = cmd
        .arg(exact(name))
        .env("CAPECC", capecc)
        .env("E2E_OUT", &out)
        .output()
        .map_err(|e| format!("cannot run tests/e2e/run.sh: {e}"))?;
    if output.status.success() {
        return Ok(());
    }
    Err(format!(
        "{}{}(build and run directory kept in {})",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
        out.display()
    )
    .into())
}

/// Programs selected by `E2E_FILTER` (none set: all).
fn selected(name: &str, filters: &[String]) -> bool {
    if filters.is_empty() {
        return true;
    }
    // The same extended-regexp test as run.sh, so the two agree on what a filter selects.
    let script = r#"n=$1; shift; for p in "$@"; do [[ $n =~ $p ]] && exit 0; done; exit 1"#;
    Command::new("bash")
        .args(["-c", script, "_", name])
        .args(filters)
        .status()
        .is_ok_and(|s| s.success())
}

fn main() {
    let mut args = Arguments::from_args();
    // One program at a time unless told otherwise: a program runs up to 8 ranks, and two of
    // them side by side on a small machine run into the per-run timeout.
    if args.test_threads.is_none() {
        args.test_threads = Some(
            std::env::var("E2E_JOBS")
                .ok()
                .and_then(|j| j.parse().ok())
                .unwrap_or(1),
        );
    }
    let root = root();
    let capecc = std::env::var_os("CAPECC")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_capecc")));
    let filters: Vec<String> = std::env::var("E2E_FILTER")
        .map(|f| f.split_whitespace().map(str::to_owned).collect())
        .unwrap_or_default();
    let missing = missing_tool(&capecc);
    let allow_skip = std::env::var_os("CAPECC_ALLOW_SKIP").is_some_and(|v| v == "1");
    if let (Some(why), true) = (&missing, allow_skip) {
        eprintln!("SKIPPED: e2e programs: {why} (CAPECC_ALLOW_SKIP=1)");
    }
    let trials = programs(&root)
        .into_iter()
        .filter(|name| selected(name, &filters))
        .map(|name| {
            let skip = missing.is_some() && allow_skip;
            let (root, capecc, missing) = (root.clone(), capecc.clone(), missing.clone());
            Trial::test(name.clone(), move || match missing {
                Some(why) => Err(format!("{why}; set CAPECC_ALLOW_SKIP=1 to skip").into()),
                None => run_program(&root, &capecc, &name),
            })
            .with_ignored_flag(skip)
        })
        .collect();
    libtest_mimic::run(&args, trials).exit();
}
