//! Translated programs, built against the sequential runtime shared with capert's C tests
//! (capert/tests/sequential_runtime.c, run with FAKE_THREADS=3: each region as 3 threads one
//! after another), must print exactly what the gcc -fopenmp build prints.

use std::path::PathBuf;
use std::process::Command;

#[allow(dead_code)]
mod support;
use support as golden;

#[test]
fn translated_programs_match_gcc_openmp() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/run");
    let temp = tempfile::Builder::new()
        .prefix("capecc-run-")
        .tempdir()
        .expect("temp dir");
    let tmp = temp.path();
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("tests/run")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".c"))
        .collect();
    names.sort();
    for name in names {
        let stem = name.trim_end_matches(".c");
        let reference = tmp.join(format!("{stem}.omp"));
        let status = Command::new("gcc")
            .args(["-fopenmp", "-O1", "-o"])
            .arg(&reference)
            .arg(dir.join(&name))
            .status()
            .expect("gcc runs");
        assert!(status.success(), "gcc -fopenmp {name}");
        let expected = Command::new(&reference)
            .env("OMP_NUM_THREADS", "3")
            .output()
            .expect("runs");

        let pre = golden::preprocess(&dir, &name);
        let read = |f: &str| std::fs::read_to_string(dir.join(f)).ok();
        let opts = capecc::TranslateOptions {
            line_markers: true,
            collapse_system_headers: true,
        };
        let translated = match capecc::translate(&pre, &opts, &read) {
            Ok(t) => t,
            Err(d) => panic!("{name}: {}", golden::render_diagnostics(&pre, &d)),
        };
        let c_file = tmp.join(format!("{stem}.cape.c"));
        std::fs::write(&c_file, &translated.c).expect("write");
        let binary = tmp.join(format!("{stem}.cape"));
        let mut cc = Command::new("gcc");
        cc.current_dir(&dir)
            .args(["-O1", "-std=gnu11", "-o"])
            .arg(&binary)
            .arg(&c_file)
            .arg(golden::root().join("../capert/tests/sequential_runtime.c"));
        for d in golden::include_dirs() {
            cc.arg("-I").arg(d);
        }
        let out = cc.output().expect("gcc runs");
        assert!(
            out.status.success(),
            "{name} translated does not build:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let actual = Command::new(&binary)
            .env("FAKE_THREADS", "3")
            .output()
            .expect("runs");
        assert_eq!(
            String::from_utf8_lossy(&actual.stdout),
            String::from_utf8_lossy(&expected.stdout),
            "{name}: translated output differs from gcc -fopenmp"
        );
    }
}

/// The same programs built by the real driver (`target/release/capecc`, or `$CAPECC`) against
/// the real runtime, run under `mpirun -np 1..4`; the gcc -fopenmp build with as many threads
/// is the reference. Needs a release build and Open MPI:
/// `cargo build --release && cargo test -p capecc --test run -- --ignored`.
#[test]
#[ignore]
fn capecc_builds_match_gcc_openmp_under_mpirun() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/run");
    let capecc = std::env::var_os("CAPECC")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/release/capecc")
        });
    let temp = tempfile::Builder::new()
        .prefix("capecc-mpirun-")
        .tempdir()
        .expect("temp dir");
    let tmp = temp.path();
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("tests/run")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".c"))
        .collect();
    names.sort();
    let mut failures = Vec::new();
    for name in names {
        let stem = name.trim_end_matches(".c");
        let reference = tmp.join(format!("{stem}.omp"));
        let cape = tmp.join(format!("{stem}.cape"));
        let gcc = Command::new("gcc")
            .args(["-fopenmp", "-O1", "-o"])
            .arg(&reference)
            .arg(dir.join(&name))
            .status()
            .expect("gcc runs");
        assert!(gcc.success(), "gcc -fopenmp {name}");
        let built = Command::new(&capecc)
            .arg(dir.join(&name))
            .arg("-o")
            .arg(&cape)
            .output()
            .expect("capecc runs");
        assert!(
            built.status.success(),
            "capecc {name}:\n{}",
            String::from_utf8_lossy(&built.stderr)
        );
        for np in 1..=4 {
            let expected = Command::new(&reference)
                .env("OMP_NUM_THREADS", np.to_string())
                .output()
                .expect("runs");
            let actual = Command::new("mpirun")
                .args(["-np", &np.to_string()])
                .arg(&cape)
                .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
                .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
                .env("OMPI_MCA_rmaps_base_oversubscribe", "1")
                .env("OMP_NUM_THREADS", np.to_string())
                .output()
                .expect("mpirun runs");
            if !actual.status.success() || actual.stdout != expected.stdout {
                failures.push(format!(
                    "{name} -np {np}: expected\n{}got\n{}{}",
                    String::from_utf8_lossy(&expected.stdout),
                    String::from_utf8_lossy(&actual.stdout),
                    String::from_utf8_lossy(&actual.stderr)
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
