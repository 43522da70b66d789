//! `capert::schedule` against gcc's libgomp: a C program compiled with `gcc -fopenmp` records
//! which thread runs each iteration of `schedule(static)` and `schedule(static, c)` loops; the
//! owners must match ours exactly. Skipped (with a message) when gcc or libgomp is missing.

use capert::schedule::{static_chunks, static_runs_last};
use std::path::PathBuf;
use std::process::Command;

const PROGRAM: &str = r#"
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

/* Print owners run-length encoded: "tid:lo-hi" for each maximal range of one owner. */
static void print_owners(const int *owner, unsigned long long n) {
    unsigned long long lo = 0;
    for (unsigned long long i = 1; i <= n; i++) {
        if (i == n || owner[i] != owner[lo]) {
            printf(" %d:%llu-%llu", owner[lo], lo, i);
            lo = i;
        }
    }
    printf("\n");
}

int main(int argc, char **argv) {
    omp_set_dynamic(0);
    for (int a = 1; a < argc; a++) {
        unsigned long long n, chunk;
        int team, shape, got_team = 0;
        if (sscanf(argv[a], "%llu,%d,%llu,%d", &n, &team, &chunk, &shape) != 4) return 2;
        int *owner = malloc((n + 1) * sizeof(int));
        long long sn = (long long)n;
        /* Three loop shapes with the same trip count n: the owner of the k-th iteration must
           depend on k only, which is what the compiler's normalisation to [0, n) relies on. */
        if (chunk == 0 && shape == 0) {
#pragma omp parallel for schedule(static) num_threads(team)
            for (unsigned long long i = 0; i < n; i++) {
                owner[i] = omp_get_thread_num();
                if (i == 0) got_team = omp_get_num_threads();
            }
        } else if (chunk == 0 && shape == 1) {
#pragma omp parallel for schedule(static) num_threads(team)
            for (long long i = -5; i < -5 + 3 * sn; i += 3) {
                owner[(i + 5) / 3] = omp_get_thread_num();
                if (i == -5) got_team = omp_get_num_threads();
            }
        } else if (chunk == 0) {
#pragma omp parallel for schedule(static) num_threads(team)
            for (long long i = sn - 1; i >= 0; i--) {
                owner[sn - 1 - i] = omp_get_thread_num();
                if (i == 0) got_team = omp_get_num_threads();
            }
        } else if (shape == 0) {
#pragma omp parallel for schedule(static, chunk) num_threads(team)
            for (unsigned long long i = 0; i < n; i++) {
                owner[i] = omp_get_thread_num();
                if (i == 0) got_team = omp_get_num_threads();
            }
        } else if (shape == 1) {
#pragma omp parallel for schedule(static, chunk) num_threads(team)
            for (long long i = -5; i < -5 + 3 * sn; i += 3) {
                owner[(i + 5) / 3] = omp_get_thread_num();
                if (i == -5) got_team = omp_get_num_threads();
            }
        } else {
#pragma omp parallel for schedule(static, chunk) num_threads(team)
            for (long long i = sn - 1; i >= 0; i--) {
                owner[sn - 1 - i] = omp_get_thread_num();
                if (i == 0) got_team = omp_get_num_threads();
            }
        }
        if (n > 0 && got_team != team) {
            fprintf(stderr, "asked for %d threads, got %d\n", team, got_team);
            return 3;
        }
        printf("%s:", argv[a]);
        print_owners(owner, n);
        free(owner);
    }
    return 0;
}
"#;

/// Our owners, encoded like the C program's output.
fn expected_line(case: &str, n: u64, team: u64, chunk: u64) -> String {
    let mut owner = vec![u64::MAX; n as usize];
    for tid in 0..team {
        for (lo, hi) in static_chunks(n, team, tid, chunk) {
            for slot in &mut owner[lo as usize..hi as usize] {
                *slot = tid;
            }
        }
        assert_eq!(
            static_runs_last(n, team, tid, chunk),
            n > 0
                && owner.last() == Some(&tid)
                && static_chunks(n, team, tid, chunk).any(|(_, hi)| hi == n),
            "static_runs_last({n}, {team}, {tid}, {chunk})"
        );
    }
    let mut line = format!("{case}:");
    let mut lo = 0;
    for i in 1..=owner.len() {
        if i == owner.len() || owner[i] != owner[lo] {
            line.push_str(&format!(" {}:{}-{}", owner[lo], lo, i));
            lo = i;
        }
    }
    line
}

#[test]
fn static_schedule_matches_libgomp() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("core_schedule_libgomp");
    if let Err(e) = std::fs::create_dir_all(&dir) {
        panic!("cannot create {}: {e}", dir.display());
    }
    let src = dir.join("owners.c");
    let exe = dir.join("owners");
    std::fs::write(&src, PROGRAM).expect("write C program");
    let compiled = Command::new("gcc")
        .args(["-fopenmp", "-O1", "-o"])
        .arg(&exe)
        .arg(&src)
        .output();
    // A missing gcc fails the test unless CAPECC_ALLOW_SKIP=1 (never set in CI) asks for a skip.
    let problem = match compiled {
        Err(e) => format!("gcc not available ({e})"),
        Ok(out) if !out.status.success() => format!(
            "gcc -fopenmp failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        ),
        Ok(_) => String::new(),
    };
    if !problem.is_empty() {
        if std::env::var_os("CAPECC_ALLOW_SKIP").is_some_and(|v| v == "1") {
            eprintln!("SKIPPED: {problem} (CAPECC_ALLOW_SKIP=1)");
            return;
        }
        panic!("{problem}; set CAPECC_ALLOW_SKIP=1 to skip this test instead");
    }

    let mut cases = Vec::new();
    for n in [0u64, 1, 2, 3, 5, 7, 8, 10, 16, 17, 31, 100, 1001] {
        for team in [1u64, 2, 3, 4, 5, 7, 8] {
            for chunk in [0u64, 1, 2, 3, 5, 16] {
                cases.push((n, team, chunk, (n + team + chunk) % 3));
            }
        }
    }
    for (team, chunk) in [(7, 0), (3, 0), (8, 1000), (5, 4096)] {
        cases.push((1_000_003, team, chunk, 0));
    }
    let args: Vec<String> = cases
        .iter()
        .map(|(n, team, chunk, shape)| format!("{n},{team},{chunk},{shape}"))
        .collect();
    let out = Command::new(&exe)
        .args(&args)
        .env_remove("OMP_NUM_THREADS")
        .env_remove("OMP_THREAD_LIMIT")
        .env("OMP_DYNAMIC", "false")
        .output()
        .expect("run the libgomp program");
    assert!(
        out.status.success(),
        "libgomp program failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).expect("utf-8 output");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), cases.len());
    for ((n, team, chunk, _), (arg, got)) in cases.iter().zip(args.iter().zip(lines)) {
        assert_eq!(
            got,
            expected_line(arg, *n, *team, *chunk),
            "case n,team,chunk,shape = {arg}"
        );
    }
}
