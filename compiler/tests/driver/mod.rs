//! Helpers shared by the driver tests (driver_e2e.rs, driver_link.rs).

#![allow(dead_code)]

use std::path::Path;
use std::process::{Command, Output};

pub const CAPECC: &str = env!("CARGO_BIN_EXE_capecc");

/// A fresh scratch directory per test, removed when the test ends.
pub fn scratch(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("capecc-driver-test-{name}-"))
        .tempdir()
        .expect("scratch directory")
}

pub fn write(dir: &Path, name: &str, text: &str) {
    let path = dir.join(name);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    std::fs::write(path, text).unwrap();
}

pub fn capecc(dir: &Path, args: &[&str]) -> Output {
    Command::new(CAPECC)
        .args(args)
        .current_dir(dir)
        .env_remove("CAPECC_CC")
        .output()
        .expect("capecc runs")
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub fn assert_ok(output: &Output) {
    assert!(
        output.status.success(),
        "capecc failed: {:?}\n{}",
        output.status,
        stderr(output)
    );
}

/// A tool the test needs is missing: a failure, unless `CAPECC_ALLOW_SKIP=1` asks for a
/// printed skip (a developer machine without MPI; CI never sets it).
pub fn missing(what: &str) -> bool {
    if std::env::var_os("CAPECC_ALLOW_SKIP").is_some_and(|v| v == "1") {
        eprintln!("SKIPPED: {what} (CAPECC_ALLOW_SKIP=1)");
        return false;
    }
    panic!("{what}; set CAPECC_ALLOW_SKIP=1 to skip this test instead");
}

/// mpicc runs, or the test fails (see `missing`).
pub fn have_mpicc() -> bool {
    let found = Command::new("mpicc")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    found || missing("no mpicc on PATH")
}

/// libcapert.a where capecc itself looks (beside the binary) or `$CAPECC_RUNTIME`, or the test
/// fails (see `missing`).
pub fn runtime_available() -> bool {
    if std::env::var_os("CAPECC_RUNTIME").is_some() {
        return true;
    }
    let exe = Path::new(CAPECC);
    let found = exe
        .parent()
        .is_some_and(|d| d.join("libcapert.a").is_file());
    found
        || missing(&format!(
            "libcapert.a not built next to {CAPECC} (run `cargo build` first)"
        ))
}

/// Runs a program built by capecc as a 1-rank MPI job (singleton init).
pub fn run_program(path: &Path) -> Output {
    Command::new(path)
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .output()
        .expect("program runs")
}

/// The same program built by `gcc -fopenmp`, run with 1 thread: the oracle.
pub fn gcc_reference(dir: &Path, sources: &[&str], extra: &[&str]) -> String {
    let out = dir.join("reference");
    let status = Command::new("gcc")
        .arg("-fopenmp")
        .args(extra)
        .args(sources)
        .arg("-o")
        .arg(&out)
        .current_dir(dir)
        .status()
        .unwrap();
    assert!(status.success());
    let output = Command::new(&out)
        .env("OMP_NUM_THREADS", "1")
        .output()
        .unwrap();
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub const MAIN_C: &str = r#"#include <stdio.h>
#include "sum.h"
int data[1000];
int main(void) {
    long total = 0;
    #pragma omp parallel for reduction(+:total)
    for (int i = 0; i < 1000; i++) {
        data[i] = i * SCALE;
        total += data[i];
    }
    printf("total %ld check %ld\n", total, checksum(data, 1000));
    return 0;
}
"#;

pub const SUM_C: &str = r#"#include "sum.h"
long checksum(const int *v, int n) {
    long s = 0;
    for (int i = 0; i < n; i++) s += v[i] % 7;
    return s;
}
"#;

pub const SUM_H: &str = "long checksum(const int *v, int n);\n";

pub fn two_file_project(dir: &Path) {
    write(dir, "main.c", MAIN_C);
    write(dir, "sum.c", SUM_C);
    write(dir, "include/sum.h", SUM_H);
}

/// Section names of an object, as readelf (an independent tool) reads them.
pub fn readelf_sections(path: &Path) -> String {
    let output = Command::new("readelf")
        .arg("-SW")
        .arg(path)
        .output()
        .unwrap();
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// A `readelf -S` line of a `.data*`/`.bss*` section left in place. `.data.rel.ro*` (constants
/// holding addresses, as position-independent code lays them out) is read-only once loaded.
pub fn untracked_writable_section(line: &str) -> bool {
    (line.contains(" .data") && !line.contains(" .data.rel.ro")) || line.contains(" .bss")
}

/// Runs a program built by capecc as `mpirun -np ranks` (oversubscribed, as root if need be).
pub fn run_program_on(path: &Path, ranks: usize) -> Output {
    Command::new("mpirun")
        .args(["--oversubscribe", "-np", &ranks.to_string()])
        .arg(path)
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .output()
        .expect("mpirun runs")
}
