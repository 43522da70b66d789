//! Driver tests of C as gcc accepts it beyond what the parser takes as written: GNU keywords
//! in the user's files and in system headers, x86 intrinsic headers, `threadprivate` on the
//! `extern` declarations of a header. Oracles are gcc's builds.
//! A missing tool fails the test; with `CAPECC_ALLOW_SKIP=1` it prints `SKIPPED` and passes.

mod driver;

use driver::*;

/// `extern int tp;` and its `threadprivate` in a header, the definition in another file:
/// every declaration in both files is the one thread-local object, like gcc's.
#[test]
fn threadprivate_extern_in_a_header_across_two_files_matches_gcc() {
    if !have_mpicc() || !runtime_available() {
        return;
    }
    let scratch = scratch("tp-extern");
    let dir = scratch.path();
    write(
        dir,
        "tp.h",
        "extern int tp;\n#pragma omp threadprivate(tp)\nint get_tp(void);\nvoid add_tp(int by);\n",
    );
    write(
        dir,
        "def.c",
        "#include \"tp.h\"\nint tp = 1;\nint get_tp(void) { return tp; }\nvoid add_tp(int by) { tp += by; }\n",
    );
    write(
        dir,
        "main.c",
        "#include <stdio.h>\n#include \"tp.h\"\n#define N 120\nint out[N];\n\
         int main(void)\n{\n    tp = 7;\n    long done = 0;\n\
         #pragma omp parallel copyin(tp)\n    {\n\
         #pragma omp for schedule(static)\n        for (int i = 0; i < N; i++) {\n            out[i] = get_tp() * 100 + i;\n        }\n\
         #pragma omp for schedule(static)\n        for (int i = 0; i < N; i++)\n            add_tp(1);\n\
         #pragma omp atomic\n        done += tp - 7;\n    }\n\
         long sum = 0;\n    for (int i = 0; i < N; i++)\n        sum += out[i];\n\
         printf(\"%ld %ld\\n\", sum, done);\n    return 0;\n}\n",
    );
    let expected = gcc_reference(dir, &["main.c", "def.c"], &[]);
    assert_ok(&capecc(dir, &["-O2", "main.c", "def.c", "-o", "prog"]));
    for ranks in [1, 3] {
        let got = run_program_on(&dir.join("prog"), ranks);
        assert_eq!(stdout(&got), expected, "P = {ranks}: {}", stderr(&got));
    }
}

/// GNU `__thread` (in the user's file and in a system header) means `_Thread_local`.
#[test]
fn gnu_thread_in_the_program_and_a_system_header_matches_gcc() {
    if !have_mpicc() || !runtime_available() {
        return;
    }
    let scratch = scratch("gnu-thread");
    let dir = scratch.path();
    write(
        dir,
        "sys/tls.h",
        "extern __thread int tls_hits;\nstatic __inline int tls_bump(void) { return ++tls_hits; }\n",
    );
    write(
        dir,
        "main.c",
        "#include <stdio.h>\n#include <tls.h>\n__thread int tls_hits = 10;\nstatic __thread long mine;\n\
         int main(void)\n{\n    mine = tls_bump();\n    int got[8] = {0};\n\
         #pragma omp parallel for\n    for (int i = 0; i < 8; i++)\n        got[i] = i;\n\
         printf(\"%ld %d %d\\n\", mine, tls_bump(), got[7]);\n    return 0;\n}\n",
    );
    let expected = gcc_reference(dir, &["main.c"], &["-isystem", "sys"]);
    assert_ok(&capecc(
        dir,
        &["-O2", "-isystem", "sys", "main.c", "-o", "prog"],
    ));
    let got = run_program_on(&dir.join("prog"), 2);
    assert_eq!(stdout(&got), expected, "{}", stderr(&got));
}

/// The x86 intrinsic headers compile, at the default target and with `-mavx2`, with an
/// intrinsic in a parallel loop.
#[test]
fn x86_intrinsic_headers_compile() {
    if !have_mpicc() {
        return;
    }
    if !cfg!(target_arch = "x86_64") {
        return;
    }
    let scratch = scratch("intrinsics");
    let dir = scratch.path();
    for header in [
        "xmmintrin.h",
        "emmintrin.h",
        "pmmintrin.h",
        "smmintrin.h",
        "immintrin.h",
        "x86intrin.h",
    ] {
        let source = format!(
            "#include <{header}>\nfloat a[64], b[64];\nvoid f(void);\nvoid f(void)\n{{\n\
             #pragma omp parallel for\n    for (int i = 0; i < 64; i += 4)\n        \
             _mm_storeu_ps(&a[i], _mm_add_ps(_mm_loadu_ps(&a[i]), _mm_loadu_ps(&b[i])));\n}}\n"
        );
        write(dir, "h.c", &source);
        for flags in [&[][..], &["-mavx2"][..]] {
            let mut args = vec!["-c", "h.c", "-o", "h.o", "-Wall", "-Werror"];
            args.extend_from_slice(flags);
            let out = capecc(dir, &args);
            assert!(
                out.status.success(),
                "<{header}> {flags:?}: {}",
                stderr(&out)
            );
        }
    }
    write(
        dir,
        "avx.c",
        "#include <immintrin.h>\nfloat a[64];\nvoid f(void);\nvoid f(void)\n{\n\
         #pragma omp parallel for\n    for (int i = 0; i < 64; i += 8)\n        \
         _mm256_storeu_ps(&a[i], _mm256_add_ps(_mm256_loadu_ps(&a[i]), _mm256_set1_ps(1.0f)));\n}\n",
    );
    assert_ok(&capecc(
        dir,
        &["-mavx2", "-Wall", "-Werror", "-c", "avx.c", "-o", "avx.o"],
    ));
}
