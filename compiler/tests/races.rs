//! The checkers' corpus (tests/races: racy, clean and divergent programs) through
//! tests/races/run.sh: every third program of each directory by default (`RACES_SAMPLE=1`:
//! all of them), at P = 2 and 4. Fails on a missed race, a false positive, a wrong answer or
//! a divergence not reported. A missing mpirun fails unless `CAPECC_ALLOW_SKIP=1`.

use std::path::Path;
use std::process::Command;

#[test]
fn race_corpus() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let has_mpirun = Command::new("mpirun")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_mpirun {
        if std::env::var_os("CAPECC_ALLOW_SKIP").is_some_and(|v| v == "1") {
            eprintln!("SKIPPED: race corpus: no mpirun on PATH (CAPECC_ALLOW_SKIP=1)");
            return;
        }
        panic!("no mpirun on PATH (source scripts/env.sh)");
    }
    let sample = std::env::var("RACES_SAMPLE").unwrap_or_else(|_| "3".to_string());
    let output = Command::new(root.join("tests/races/run.sh"))
        .env("CAPECC", env!("CARGO_BIN_EXE_capecc"))
        .env("NP", "2 4")
        .env("SAMPLE", sample)
        .output()
        .expect("cannot run tests/races/run.sh");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // the summary says what ran: a run that checked nothing must not pass
    assert!(
        stdout.contains("reported with the variable and the line"),
        "{stdout}"
    );
    assert!(stdout.contains("0 false positive(s)"), "{stdout}");
}
