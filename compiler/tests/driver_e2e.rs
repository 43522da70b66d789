//! End-to-end driver tests: the built `capecc` binary with the real backend (`mpicc`).
//! Oracles are gcc itself and readelf, never capecc's own earlier output.
//! A missing tool (mpicc, or `libcapert.a` for the tests that link) fails the test; with
//! `CAPECC_ALLOW_SKIP=1` (never set in CI) such a test prints `SKIPPED` and passes instead.

use std::path::Path;
use std::process::{Command, Output};

const CAPECC: &str = env!("CARGO_BIN_EXE_capecc");

/// A fresh scratch directory per test, removed when the test ends.
fn scratch(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("capecc-driver-test-{name}-"))
        .tempdir()
        .expect("scratch directory")
}

fn write(dir: &Path, name: &str, text: &str) {
    let path = dir.join(name);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    std::fs::write(path, text).unwrap();
}

fn capecc(dir: &Path, args: &[&str]) -> Output {
    Command::new(CAPECC)
        .args(args)
        .current_dir(dir)
        .env_remove("CAPECC_CC")
        .output()
        .expect("capecc runs")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn assert_ok(output: &Output) {
    assert!(
        output.status.success(),
        "capecc failed: {:?}\n{}",
        output.status,
        stderr(output)
    );
}

/// A tool the test needs is missing: a failure, unless `CAPECC_ALLOW_SKIP=1` asks for a
/// printed skip (a developer machine without MPI; CI never sets it).
fn missing(what: &str) -> bool {
    if std::env::var_os("CAPECC_ALLOW_SKIP").is_some_and(|v| v == "1") {
        eprintln!("SKIPPED: {what} (CAPECC_ALLOW_SKIP=1)");
        return false;
    }
    panic!("{what}; set CAPECC_ALLOW_SKIP=1 to skip this test instead");
}

/// mpicc runs, or the test fails (see `missing`).
fn have_mpicc() -> bool {
    let found = Command::new("mpicc")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    found || missing("no mpicc on PATH")
}

/// libcapert.a where capecc itself looks (beside the binary) or `$CAPECC_RUNTIME`, or the test
/// fails (see `missing`).
fn runtime_available() -> bool {
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
fn run_program(path: &Path) -> Output {
    Command::new(path)
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .output()
        .expect("program runs")
}

/// The same program built by `gcc -fopenmp`, run with 1 thread: the oracle.
fn gcc_reference(dir: &Path, sources: &[&str], extra: &[&str]) -> String {
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

const MAIN_C: &str = r#"#include <stdio.h>
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

const SUM_C: &str = r#"#include "sum.h"
long checksum(const int *v, int n) {
    long s = 0;
    for (int i = 0; i < n; i++) s += v[i] % 7;
    return s;
}
"#;

const SUM_H: &str = "long checksum(const int *v, int n);\n";

fn two_file_project(dir: &Path) {
    write(dir, "main.c", MAIN_C);
    write(dir, "sum.c", SUM_C);
    write(dir, "include/sum.h", SUM_H);
}

/// Section names of an object, as readelf (an independent tool) reads them.
fn readelf_sections(path: &Path) -> String {
    let output = Command::new("readelf")
        .arg("-SW")
        .arg(path)
        .output()
        .unwrap();
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// A `readelf -S` line of a `.data*`/`.bss*` section left in place. `.data.rel.ro*` (constants
/// holding addresses, as position-independent code lays them out) is read-only once loaded.
fn untracked_writable_section(line: &str) -> bool {
    (line.contains(" .data") && !line.contains(" .data.rel.ro")) || line.contains(" .bss")
}

#[test]
fn compile_only_renames_data_and_bss_and_keeps_bss_nobits() {
    if !have_mpicc() {
        return;
    }
    let scratch = scratch("sections");
    let dir = scratch.path();
    write(dir, "g.c", "int a = 1; int b; static int c[64]; _Thread_local int t = 2;\nint f(void) { c[0]++; return a + b + c[0] + t; }\n");
    let output = capecc(dir, &["-O2", "-fdata-sections", "-c", "g.c"]);
    assert_ok(&output);
    let sections = readelf_sections(&dir.join("g.o"));
    assert!(sections.contains("cape_data"), "{sections}");
    assert!(
        sections
            .lines()
            .any(|l| l.contains("cape_bss") && l.contains("NOBITS")),
        "{sections}"
    );
    assert!(
        sections.contains(".tdata"),
        "thread-locals stay: {sections}"
    );
    assert!(
        !sections.lines().any(untracked_writable_section),
        "{sections}"
    );
}

#[test]
fn defines_and_include_dirs_reach_the_preprocessor() {
    if !have_mpicc() {
        return;
    }
    let scratch = scratch("cpp");
    let dir = scratch.path();
    write(dir, "inc/val.h", "#define FROM_HEADER 17\n");
    write(dir, "x.c", "#include <val.h>\nint a = FROM_HEADER + FROM_CMDLINE;\n#ifdef _OPENMP\nint openmp = _OPENMP;\n#endif\n");
    let output = capecc(dir, &["-E", "-I", "inc", "-DFROM_CMDLINE=25", "x.c"]);
    assert_ok(&output);
    let text = stdout(&output);
    assert!(text.contains("int a = 17 + 25;"), "{text}");
    assert!(text.contains("int openmp = 201511;"), "{text}");
    // The glued forms too, through the full compile.
    let output = capecc(
        dir,
        &["-Iinc", "-DFROM_CMDLINE=25", "-c", "x.c", "-o", "x.o"],
    );
    assert_ok(&output);
    assert!(dir.join("x.o").is_file());
}

#[test]
fn our_omp_h_comes_first() {
    if !have_mpicc() {
        return;
    }
    let scratch = scratch("omph");
    let dir = scratch.path();
    write(
        dir,
        "x.c",
        "#include <omp.h>\nint n(void) { return omp_get_num_threads(); }\n",
    );
    let output = capecc(dir, &["-E", "x.c"]);
    assert_ok(&output);
    let text = stdout(&output);
    let omp_line = text
        .lines()
        .find(|l| l.starts_with("# ") && l.contains("omp.h"))
        .unwrap_or("");
    assert!(omp_line.contains("/capecc-"), "omp.h from {omp_line}");
}

#[test]
fn compile_separately_then_link_matches_gcc() {
    if !have_mpicc() || !runtime_available() {
        return;
    }
    let scratch = scratch("link");
    let dir = scratch.path();
    two_file_project(dir);
    assert_ok(&capecc(
        dir,
        &["-Iinclude", "-DSCALE=3", "-O2", "-c", "main.c"],
    ));
    assert_ok(&capecc(
        dir,
        &["-I", "include", "-c", "sum.c", "-o", "sum-obj.o"],
    ));
    assert_ok(&capecc(dir, &["main.o", "sum-obj.o", "-o", "prog", "-lm"]));
    let got = run_program(&dir.join("prog"));
    let expected = gcc_reference(dir, &["main.c", "sum.c"], &["-Iinclude", "-DSCALE=3"]);
    assert_eq!(stdout(&got), expected, "stderr: {}", stderr(&got));
}

#[test]
fn assembly_from_dash_s_is_assembled_with_shared_globals() {
    if !have_mpicc() || !runtime_available() {
        return;
    }
    let scratch = scratch("assembly");
    let dir = scratch.path();
    two_file_project(dir);
    assert_ok(&capecc(
        dir,
        &["-Iinclude", "-DSCALE=3", "-O2", "-S", "main.c"],
    ));
    assert_ok(&capecc(dir, &["-c", "main.s"]));
    let sections = readelf_sections(&dir.join("main.o"));
    assert!(
        !sections.lines().any(untracked_writable_section),
        "{sections}"
    );
    assert_ok(&capecc(
        dir,
        &["-Iinclude", "main.o", "sum.c", "-o", "prog"],
    ));
    let got = run_program(&dir.join("prog"));
    let expected = gcc_reference(dir, &["main.c", "sum.c"], &["-Iinclude", "-DSCALE=3"]);
    assert_eq!(stdout(&got), expected, "stderr: {}", stderr(&got));
}

#[test]
fn several_inputs_in_one_command_match_gcc() {
    if !have_mpicc() || !runtime_available() {
        return;
    }
    let scratch = scratch("multi");
    let dir = scratch.path();
    two_file_project(dir);
    assert_ok(&capecc(
        dir,
        &[
            "-fopenmp",
            "-Iinclude",
            "-DSCALE=5",
            "main.c",
            "sum.c",
            "-o",
            "prog",
        ],
    ));
    let got = run_program(&dir.join("prog"));
    let expected = gcc_reference(dir, &["main.c", "sum.c"], &["-Iinclude", "-DSCALE=5"]);
    assert_eq!(stdout(&got), expected, "stderr: {}", stderr(&got));
    // Default output name.
    assert_ok(&capecc(dir, &["-Iinclude", "-DSCALE=5", "main.c", "sum.c"]));
    assert!(dir.join("a.out").is_file());
}

#[test]
fn make_with_cc_capecc_builds_a_two_file_project() {
    if !have_mpicc() || !runtime_available() {
        return;
    }
    let scratch = scratch("make");
    let dir = scratch.path();
    two_file_project(dir);
    write(
        dir,
        "Makefile",
        "CFLAGS = -O2 -fopenmp -Iinclude -DSCALE=2\n\
         prog: main.o sum.o\n\t$(CC) $(CFLAGS) -o $@ main.o sum.o $(LDLIBS)\n\
         %.o: %.c include/sum.h\n\t$(CC) $(CFLAGS) -MMD -c $< -o $@\n",
    );
    let status = Command::new("make")
        .arg(format!("CC={CAPECC}"))
        .current_dir(dir)
        .status()
        .expect("make runs");
    assert!(status.success());
    assert!(dir.join("main.d").is_file(), "-MMD wrote main.d");
    let deps = std::fs::read_to_string(dir.join("main.d")).unwrap();
    assert!(
        deps.starts_with("main.o:") && deps.contains("include/sum.h"),
        "{deps}"
    );
    let got = run_program(&dir.join("prog"));
    let expected = gcc_reference(dir, &["main.c", "sum.c"], &["-Iinclude", "-DSCALE=2"]);
    assert_eq!(stdout(&got), expected);
}

#[test]
fn emit_c_to_stdout_and_file_and_back() {
    if !have_mpicc() {
        return;
    }
    let scratch = scratch("emit");
    let dir = scratch.path();
    two_file_project(dir);
    let output = capecc(dir, &["--emit-c", "-Iinclude", "-DSCALE=4", "main.c"]);
    assert_ok(&output);
    let to_stdout = stdout(&output);
    assert!(to_stdout.contains("checksum"), "{to_stdout}");
    let output = capecc(
        dir,
        &[
            "--emit-c",
            "-Iinclude",
            "-DSCALE=4",
            "main.c",
            "-o",
            "main.emitted.c",
        ],
    );
    assert_ok(&output);
    let to_file = std::fs::read_to_string(dir.join("main.emitted.c")).unwrap();
    assert_eq!(to_stdout, to_file);
    // Given back to capecc, the emitted file compiles (not translated twice).
    assert_ok(&capecc(dir, &["-c", "main.emitted.c", "-o", "emitted.o"]));
    assert!(readelf_sections(&dir.join("emitted.o")).contains("cape_bss"));
    if runtime_available() {
        assert_ok(&capecc(dir, &["-Iinclude", "-c", "sum.c"]));
        assert_ok(&capecc(dir, &["emitted.o", "sum.o", "-o", "prog"]));
        let got = run_program(&dir.join("prog"));
        let expected = gcc_reference(dir, &["main.c", "sum.c"], &["-Iinclude", "-DSCALE=4"]);
        assert_eq!(stdout(&got), expected);
    }
}

#[test]
fn save_temps_keeps_intermediates_in_the_current_directory() {
    if !have_mpicc() {
        return;
    }
    let scratch = scratch("temps");
    let dir = scratch.path();
    two_file_project(dir);
    assert_ok(&capecc(
        dir,
        &["--save-temps", "-Iinclude", "-DSCALE=1", "-c", "main.c"],
    ));
    assert!(dir.join("main.i").is_file());
    assert!(dir.join("main.cape.c").is_file());
    assert!(dir.join("main.o").is_file());
}

#[test]
fn verbose_prints_each_command() {
    if !have_mpicc() {
        return;
    }
    let scratch = scratch("verbose");
    let dir = scratch.path();
    two_file_project(dir);
    let output = capecc(dir, &["-v", "-Iinclude", "-DSCALE=1", "-c", "main.c"]);
    assert_ok(&output);
    let text = stderr(&output);
    assert!(
        text.lines()
            .any(|l| l.starts_with("mpicc -E -dD") && l.contains("main.c")),
        "{text}"
    );
    assert!(
        text.lines()
            .any(|l| l.starts_with("mpicc -c") && l.contains("-fno-common")),
        "{text}"
    );
    assert!(
        text.lines()
            .any(|l| l.starts_with("objcopy --rename-section")),
        "{text}"
    );
}

/// Loops are aligned to 64 bytes (gcc accepts the flag), before the user's flags, which win.
#[test]
fn loop_alignment_comes_before_the_users_flags() {
    let scratch = scratch("align");
    let dir = scratch.path();
    write(dir, "x.c", "int x = 1;\n");
    let output = capecc(dir, &["-v", "--cc=gcc", "-falign-loops=16", "-c", "x.c"]);
    assert_ok(&output);
    let text = stderr(&output);
    let compile = text
        .lines()
        .find(|l| l.starts_with("gcc -c"))
        .unwrap_or_else(|| panic!("no compile command in {text}"));
    let ours = compile.find("-falign-loops=64");
    let theirs = compile.find("-falign-loops=16");
    assert!(
        ours.is_some() && theirs.is_some() && ours < theirs,
        "{compile}"
    );
}

#[test]
fn backend_can_be_chosen() {
    let scratch = scratch("backend");
    let dir = scratch.path();
    write(dir, "x.c", "int x = 1;\n");
    let output = capecc(dir, &["-v", "--cc=gcc", "-c", "x.c"]);
    assert_ok(&output);
    assert!(stderr(&output).lines().any(|l| l.starts_with("gcc -c")));
    let output = Command::new(CAPECC)
        .args(["-v", "-c", "x.c"])
        .current_dir(dir)
        .env("CAPECC_CC", "gcc -std=gnu11")
        .output()
        .unwrap();
    assert_ok(&output);
    assert!(stderr(&output)
        .lines()
        .any(|l| l.starts_with("gcc -std=gnu11 -c")));
    let output = capecc(dir, &["--cc=no-such-compiler-here", "-c", "x.c"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("cannot run `no-such-compiler-here`"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn error_in_a_pragma_points_at_the_original_line_and_column() {
    if !have_mpicc() {
        return;
    }
    let scratch = scratch("pragma-error");
    let dir = scratch.path();
    // Extra spaces that `gcc -E` collapses: the column must still be the original one.
    let source = "#include <stdio.h>\nint main(void) {\n    int s = 0;\n    #pragma omp parallel for   reduction(+:s)   bogus_clause(3)\n    for (int i = 0; i < 4; i++) s += i;\n    printf(\"%d\\n\", s);\n}\n";
    write(dir, "bad.c", source);
    let output = capecc(dir, &["-c", "bad.c"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let text = stderr(&output);
    let line4 = source.lines().nth(3).unwrap();
    let column = line4.find("bogus_clause").unwrap() + 1;
    assert!(
        text.contains(&format!("bad.c:4:{column}")),
        "expected bad.c:4:{column} in:\n{text}"
    );
    // The caret line sits under the clause in the quoted original line.
    let lines: Vec<&str> = text.lines().collect();
    let quoted = lines
        .iter()
        .position(|l| l.trim_start().starts_with("4 │") && l.ends_with(line4.trim_start()))
        .unwrap_or_else(|| panic!("quoted line 4 in:\n{text}"));
    let quoted_line = lines[quoted];
    let text_start = quoted_line.len() - line4.len();
    let caret_line = lines.get(quoted + 1).copied().unwrap_or("");
    let caret = caret_line
        .find('^')
        .unwrap_or_else(|| panic!("caret in:\n{text}"));
    assert_eq!(caret - text_start, column - 1, "caret column:\n{text}");
    assert!(
        caret_line[caret..].starts_with(&"^".repeat("bogus_clause".len())),
        "{text}"
    );
    assert!(!dir.join("bad.o").exists());
}

#[test]
fn c_syntax_error_shows_the_backend_message_at_the_user_file() {
    if !have_mpicc() {
        return;
    }
    let scratch = scratch("syntax");
    let dir = scratch.path();
    write(
        dir,
        "broken.c",
        "int main(void) {\n    int x = ;\n    return 0;\n}\n",
    );
    let output = capecc(dir, &["-c", "broken.c"]);
    assert_eq!(output.status.code(), Some(1));
    let text = stderr(&output);
    let gcc = Command::new("gcc")
        .args(["-fsyntax-only", "broken.c"])
        .current_dir(dir)
        .output()
        .unwrap();
    let gcc_text = String::from_utf8_lossy(&gcc.stderr);
    // gcc's own first error line, at the user's file and line.
    let gcc_first = gcc_text.lines().find(|l| l.contains("error:")).unwrap();
    assert!(gcc_first.starts_with("broken.c:2:"), "{gcc_text}");
    let message = gcc_first.split("error:").nth(1).unwrap();
    assert!(
        text.lines()
            .any(|l| l.starts_with("broken.c:2:") && l.contains(message)),
        "{text}"
    );
}

#[test]
fn preprocessor_failure_shows_the_backend_message() {
    if !have_mpicc() {
        return;
    }
    let scratch = scratch("cpp-fail");
    let dir = scratch.path();
    write(dir, "x.c", "#include \"missing_header.h\"\nint x;\n");
    let output = capecc(dir, &["-c", "x.c"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("missing_header.h"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn exit_statuses_like_gcc() {
    let scratch = scratch("status");
    let dir = scratch.path();
    let output = capecc(dir, &[]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("error: no input files"));
    let output = capecc(dir, &["--version"]);
    assert_eq!(output.status.code(), Some(0));
    assert!(stdout(&output).starts_with("capecc "));
    assert_eq!(capecc(dir, &["--help"]).status.code(), Some(0));
    let output = capecc(dir, &["-shared", "x.c"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("error: `-shared` is not supported"));
    if have_mpicc() {
        // The backend's status for a missing input file (gcc: 1).
        let output = capecc(dir, &["-c", "does_not_exist.c"]);
        assert_eq!(output.status.code(), Some(1));
        assert!(stderr(&output).contains("does_not_exist.c"));
    }
}

#[test]
fn missing_runtime_is_a_clear_error() {
    if !have_mpicc() {
        return;
    }
    let scratch = scratch("noruntime");
    let dir = scratch.path();
    write(dir, "x.c", "int main(void) { return 0; }\n");
    let output = Command::new(CAPECC)
        .arg("x.c")
        .current_dir(dir)
        .env("CAPECC_RUNTIME", dir.join("nowhere"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let text = stderr(&output);
    assert!(
        text.contains("error: cannot find the capert runtime (libcapert.a)"),
        "{text}"
    );
    assert!(
        text.contains("CAPECC_RUNTIME") && text.contains("cargo build --release"),
        "{text}"
    );
}

/// Dependency files name only files that outlive the build: `-MMD` and `-MD` never list the
/// temporary directory holding our `omp.h`, so a second `make` still works.
#[test]
fn dependency_files_do_not_name_the_temporary_omp_h() {
    if !have_mpicc() {
        return;
    }
    let scratch = scratch("deps");
    let dir = scratch.path();
    write(dir, "inc/conf.h", "#define K 3\n");
    write(
        dir,
        "b.c",
        "#include <omp.h>\n#include \"conf.h\"\nint s;\nint main(void)\n{\n\
         #pragma omp parallel for reduction(+: s)\n    for (int i = 0; i < K; i++)\n        s += i;\n\
         return omp_get_max_threads() > 0 ? s : 1;\n}\n",
    );
    for flags in [
        &["-MMD"][..],
        &["-MD"],
        &["-MD", "-MP"],
        &["-MMD", "-MF", "x.d"],
    ] {
        let mut args = vec!["-Iinc", "-c", "b.c", "-o", "b.o"];
        args.extend_from_slice(flags);
        assert_ok(&capecc(dir, &args));
        let file = if flags.contains(&"x.d") { "x.d" } else { "b.d" };
        let deps = std::fs::read_to_string(dir.join(file)).unwrap();
        assert!(
            deps.starts_with("b.o:") && deps.contains("inc/conf.h"),
            "{flags:?}: {deps}"
        );
        assert!(
            !deps.contains("capecc-"),
            "{flags:?} lists a temporary file: {deps}"
        );
        let _ = std::fs::remove_file(dir.join(file));
    }
}

/// `capecc -E` expands macros in `#pragma omp` lines as `gcc -fopenmp -E` does, so the `.i`
/// compiles on its own.
#[test]
fn dash_e_expands_macros_in_omp_pragmas() {
    if !have_mpicc() {
        return;
    }
    let scratch = scratch("dash-e");
    let dir = scratch.path();
    write(
        dir,
        "e.c",
        "#define NT 2\nint main(void)\n{\n    int s = 0;\n\
         #pragma omp parallel for num_threads(NT) reduction(+: s)\n\
         for (int i = 0; i < 4; i++)\n        s += i;\n    return s;\n}\n",
    );
    let out = capecc(dir, &["-E", "e.c"]);
    assert_ok(&out);
    assert!(stdout(&out).contains("num_threads(2)"), "{}", stdout(&out));
}

/// Translated code is warning-free: a program gcc accepts with `-Wall -Wextra -Werror
/// -pedantic-errors` builds with capecc and the same flags (reductions, atomics of a narrow
/// type, a lock pair, worksharing of every kind).
#[test]
fn strict_warning_flags_accept_translated_code() {
    if !have_mpicc() {
        return;
    }
    let scratch = scratch("werror");
    let dir = scratch.path();
    let source = "#include <omp.h>\n#include <stdio.h>\n\
        int a[100];\nchar ch;\nint cnt;\n\
        int main(void)\n{\n    double s = 0;\n    omp_lock_t lock;\n    omp_init_lock(&lock);\n\
        #pragma omp parallel for reduction(+: s)\n    for (int i = 0; i < 100; i++) {\n        a[i] = 1;\n        s += i;\n    }\n\
        #pragma omp parallel\n    {\n\
        #pragma omp atomic\n        cnt++;\n\
        #pragma omp atomic\n        ch += 300;\n\
        omp_set_lock(&lock);\n        cnt += 2;\n        omp_unset_lock(&lock);\n\
        #pragma omp for schedule(dynamic, 2) collapse(2)\n        for (unsigned i = 0; i < 10; i++)\n            for (long j = 10; j > 0; j--)\n                a[i] += (int)j;\n\
        #pragma omp single\n        printf(\"single\\n\");\n\
        #pragma omp sections\n        {\n\
        #pragma omp section\n            a[0] = 1;\n\
        #pragma omp section\n            a[1] = 2;\n        }\n    }\n\
        omp_destroy_lock(&lock);\n    printf(\"%d %d %f\\n\", cnt, ch, s);\n    return 0;\n}\n";
    write(dir, "w.c", source);
    let strict = [
        "-std=gnu11",
        "-Wall",
        "-Wextra",
        "-Werror",
        "-pedantic-errors",
        "-O2",
    ];
    let gcc = Command::new("gcc")
        .args(["-fopenmp", "-c", "w.c", "-o", "ref.o"])
        .args(strict)
        .current_dir(dir)
        .output()
        .expect("gcc runs");
    assert!(gcc.status.success(), "the test itself: {}", stderr(&gcc));
    let mut args = vec!["-c", "w.c", "-o", "w.o"];
    args.extend_from_slice(&strict);
    assert_ok(&capecc(dir, &args));
}

#[test]
fn output_naming_an_input_is_refused_and_the_input_kept() {
    let scratch = scratch("same-file");
    let dir = scratch.path();
    let source = "int main(void) { return 0; }\n";
    write(dir, "same.c", source);
    write(dir, "lib.o", "not really an object\n");
    std::fs::hard_link(dir.join("same.c"), dir.join("alias.c")).unwrap();
    let cases: &[&[&str]] = &[
        &["same.c", "-o", "same.c"],
        &["-c", "same.c", "-o", "same.c"],
        &["--emit-c", "same.c", "-o", "same.c"],
        &["-E", "same.c", "-o", "same.c"],
        &["-c", "same.c", "-o./same.c"],
        &["-c", "alias.c", "-o", "same.c"],
        &["same.c", "lib.o", "-o", "lib.o"],
    ];
    for args in cases {
        let output = capecc(dir, args);
        assert_eq!(output.status.code(), Some(1), "capecc {args:?}");
        assert!(
            stderr(&output).contains("is the same as output file"),
            "capecc {args:?}: {}",
            stderr(&output)
        );
        assert_eq!(std::fs::read_to_string(dir.join("same.c")).unwrap(), source);
        assert_eq!(
            std::fs::read_to_string(dir.join("lib.o")).unwrap(),
            "not really an object\n"
        );
    }
}

#[test]
fn abort_ends_the_program_with_sigabrt_not_a_segmentation_fault() {
    use std::os::unix::process::ExitStatusExt;
    if !have_mpicc() || !runtime_available() {
        return;
    }
    let scratch = scratch("abort");
    let dir = scratch.path();
    write(
        dir,
        "abort.c",
        r#"#include <stdio.h>
#include <stdlib.h>
int values[16];
int main(int argc, char **argv) {
    (void)argv;
    if (argc > 1) {
        #pragma omp parallel for
        for (int i = 0; i < 16; i++) { values[i] = i; if (i == 15) abort(); }
    }
    printf("%d\n", values[3]);
    abort();
}
"#,
    );
    assert_ok(&capecc(dir, &["abort.c", "-o", "abort"]));
    for in_region in [false, true] {
        let mut command = Command::new(dir.join("abort"));
        if in_region {
            command.arg("region");
        }
        let output = command
            .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
            .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
            .output()
            .unwrap();
        // what the shell reports as "Aborted", status 134, like the gcc -fopenmp build
        assert_eq!(
            output.status.signal(),
            Some(SIGABRT),
            "in region: {in_region}: {:?}\n{}",
            output.status,
            stderr(&output)
        );
        assert!(
            !stderr(&output).contains("Segmentation fault"),
            "in region: {in_region}:\n{}",
            stderr(&output)
        );
    }
}

/// SIGABRT on Linux (every architecture capert supports).
const SIGABRT: i32 = 6;

#[test]
fn writable_data_left_outside_the_tracked_sections_is_named_at_link_time() {
    if !have_mpicc() || !runtime_available() {
        return;
    }
    let scratch = scratch("untracked");
    let dir = scratch.path();
    write(dir, "lib.c", "int counters[16];\nint shared_lib_total;\n");
    write(dir, "main.c", "extern int counters[16];\nextern int shared_lib_total;\nint main(void) {\n#pragma omp parallel for\n    for (int i = 0; i < 16; i++) counters[i] = i;\n    shared_lib_total = counters[3];\n    return 0;\n}\n");
    // a common symbol (gcc -fcommon) cannot be moved to the tracked sections
    let gcc = |args: &[&str]| {
        let status = Command::new("gcc")
            .args(args)
            .current_dir(dir)
            .status()
            .unwrap();
        assert!(status.success());
    };
    gcc(&["-fcommon", "-c", "lib.c", "-o", "common.o"]);
    let output = capecc(dir, &["main.c", "common.o", "-o", "prog"]);
    assert_ok(&output);
    let warned = stderr(&output);
    assert!(
        warned.contains("warning: `counters`") && warned.contains("(in `common.o`)"),
        "{warned}"
    );
    // a shared library's variables are copied into the program, untracked
    gcc(&["-fPIC", "-shared", "lib.c", "-o", "libcounts.so"]);
    let output = capecc(dir, &["main.c", "-L.", "-lcounts", "-o", "prog"]);
    assert_ok(&output);
    assert!(
        stderr(&output).contains("data of a shared library"),
        "{}",
        stderr(&output)
    );
    // the same library as a plain object is moved: no warning
    gcc(&["-c", "lib.c", "-o", "plain.o"]);
    let output = capecc(dir, &["main.c", "plain.o", "-o", "prog"]);
    assert_ok(&output);
    assert!(!stderr(&output).contains("warning"), "{}", stderr(&output));
}

/// A `.i` from `gcc -fopenmp -E` (gcc's own `omp.h` expanded in it, which lang-c cannot parse)
/// builds and runs like the gcc build, also when the source it came from is not at hand.
#[test]
fn preprocessed_input_from_gcc_with_its_omp_h_builds() {
    if !have_mpicc() || !runtime_available() {
        return;
    }
    let scratch = scratch("gcc-dot-i");
    let dir = scratch.path();
    let source = "#include <stdio.h>\n#include <omp.h>\n\
        int main(void)\n{\n    int hits = 0;\n    omp_lock_t lock;\n    omp_init_lock(&lock);\n\
        #pragma omp parallel for reduction(+: hits)\n    for (int i = 0; i < 100; i++)\n\
        hits += omp_get_thread_num() >= 0;\n\
        printf(\"%d %d\\n\", hits, omp_in_parallel());\n    omp_destroy_lock(&lock);\n    return 0;\n}\n";
    write(dir, "prog.c", source);
    let expected = gcc_reference(dir, &["prog.c"], &[]);
    let gcc = Command::new("gcc")
        .args(["-fopenmp", "-E", "prog.c", "-o", "prog.i"])
        .current_dir(dir)
        .output()
        .expect("gcc runs");
    assert!(gcc.status.success(), "{}", stderr(&gcc));
    assert_ok(&capecc(dir, &["prog.i", "-o", "prog"]));
    assert_eq!(stdout(&run_program(&dir.join("prog"))), expected);
    // the same `.i` elsewhere: system headers are included by the names their markers give
    let elsewhere = dir.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::fs::copy(dir.join("prog.i"), elsewhere.join("moved.i")).unwrap();
    assert_ok(&capecc(
        &elsewhere,
        &["-Wall", "-Werror", "moved.i", "-o", "moved"],
    ));
    assert_eq!(stdout(&run_program(&elsewhere.join("moved"))), expected);
}

/// C89's implicit `int` compiles, with a warning at the declaration (as gcc warns).
#[test]
fn implicit_int_compiles_with_a_warning_at_the_declaration() {
    let scratch = scratch("implicit_int");
    let dir = scratch.path();
    write(
        dir,
        "x.c",
        "#include <stdio.h>\nstatic count = 2;\nmain(argc, argv) int argc; char **argv;\n{\n    printf(\"%d\\n\", count + argc);\n    return 0;\n}\n",
    );
    let output = capecc(dir, &["-c", "x.c"]);
    assert_ok(&output);
    let text = stderr(&output);
    assert!(text.contains("type defaults to `int`"), "{text}");
    assert!(text.contains("x.c:2:8"), "{text}");
    assert!(text.contains("x.c:3:1"), "{text}");
}

/// Runs a program built by capecc as `mpirun -np ranks` (oversubscribed, as root if need be).
fn run_program_on(path: &Path, ranks: usize) -> Output {
    Command::new("mpirun")
        .args(["--oversubscribe", "-np", &ranks.to_string()])
        .arg(path)
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .output()
        .expect("mpirun runs")
}

const TALLY_MAIN_C: &str = r#"#include <stdio.h>
long count;
void general_tally(void);
int main(void) {
    #pragma omp parallel for schedule(static)
    for (int i = 0; i < 900; i++) {
        if (i % 3 == 0) {
            #pragma omp critical(tally)
            count += 1;
        } else {
            general_tally();
        }
    }
    printf("count %ld\n", count);
    return 0;
}
"#;

const TALLY_GENERAL_C: &str = r#"extern long count;
long last_seen;
void general_tally(void) {
    #pragma omp critical(tally)
    {
        long c = count;
        last_seen = c;
        count = c + 1;
    }
}
"#;

/// A `critical` of updates in one file and a general `critical` of the same name in another,
/// compiled separately: the update section must still exclude the general one (the link
/// decides), or updates are lost.
#[test]
fn update_critical_excludes_a_general_one_of_another_file() {
    if !have_mpicc() || !runtime_available() {
        return;
    }
    let scratch = scratch("tally");
    let dir = scratch.path();
    write(dir, "main.c", TALLY_MAIN_C);
    write(dir, "general.c", TALLY_GENERAL_C);
    assert_ok(&capecc(dir, &["-O2", "-c", "main.c"]));
    assert_ok(&capecc(dir, &["-O2", "-c", "general.c"]));
    assert_ok(&capecc(dir, &["main.o", "general.o", "-o", "prog"]));
    let expected = gcc_reference(dir, &["main.c", "general.c"], &[]);
    assert_eq!(expected, "count 900\n");
    for ranks in [2, 3] {
        let got = run_program_on(&dir.join("prog"), ranks);
        assert_eq!(stdout(&got), expected, "P = {ranks}: {}", stderr(&got));
    }
}

/// A library function whose address position-independent code takes (a plain `gcc -c`
/// object, PIE by default) gets one fixed address in the executable (a
/// canonical PLT entry: its dynamic symbol has a value), the same in every run, as pointers
/// stored by one rank and called by another need. A program taking no such address links once.
#[test]
fn library_functions_whose_address_is_taken_get_a_fixed_address() {
    if !have_mpicc() || !runtime_available() {
        return;
    }
    let scratch = scratch("canonical-plt");
    let dir = scratch.path();
    write(
        dir,
        "plain.c",
        "#include <math.h>\nvoid *plain_sin(void) { return (void *)sin; }\n",
    );
    write(dir, "main.c", "#include <stdio.h>\n#include <string.h>\nvoid *plain_sin(void);\nint main(void) {\n    int (*volatile order)(const char *, const char *) = strcmp;\n    printf(\"%p %p %d\\n\", plain_sin(), (void *)order, order(\"a\", \"a\"));\n    return 0;\n}\n");
    let status = Command::new("gcc")
        .args(["-O2", "-c", "plain.c", "-o", "plain.o"])
        .current_dir(dir)
        .status()
        .unwrap();
    assert!(status.success());
    let output = capecc(
        dir,
        &["-v", "-O2", "main.c", "plain.o", "-lm", "-o", "prog"],
    );
    assert_ok(&output);
    let links = stderr(&output)
        .lines()
        .filter(|l| l.contains(" -no-pie "))
        .count();
    assert_eq!(links, 2, "{}", stderr(&output));
    let symbols = Command::new("readelf")
        .args(["--dyn-syms", "-W", "prog"])
        .current_dir(dir)
        .output()
        .expect("readelf runs");
    let symbols = stdout(&symbols);
    for name in [" sin@", " strcmp@"] {
        let line = symbols
            .lines()
            .find(|l| l.contains(name))
            .unwrap_or_default();
        let value = line.split_whitespace().nth(1).unwrap_or("0");
        assert!(
            !value.trim_start_matches('0').is_empty(),
            "{name} has no fixed address:\n{symbols}"
        );
    }
    let first = stdout(&run_program(&dir.join("prog")));
    let second = stdout(&run_program(&dir.join("prog")));
    assert!(first.ends_with(" 0\n"), "{first}");
    assert_eq!(first, second);

    write(dir, "alone.c", "#include <math.h>\n#include <stdio.h>\nint main(int argc, char **argv) {\n    (void)argv;\n    printf(\"%f\\n\", sin(argc));\n    return 0;\n}\n");
    let output = capecc(dir, &["-v", "-O2", "alone.c", "-lm", "-o", "alone"]);
    assert_ok(&output);
    let links = stderr(&output)
        .lines()
        .filter(|l| l.contains(" -no-pie "))
        .count();
    assert_eq!(links, 1, "{}", stderr(&output));
}

/// Translated code is position-independent, as gcc's is by default (a global array is reached
/// through a PC-relative address), and uses absolute addresses when the user asks for
/// `-fno-pie`, as gcc does. Oracle: the object's relocations.
#[test]
fn position_independent_code_unless_the_user_asks_otherwise() {
    let dir = scratch("pie");
    let dir = dir.path();
    write(
        dir,
        "get.c",
        "int table[100];\nint get(int i) { return table[i]; }\n",
    );
    let relocations = |args: &[&str]| -> String {
        let output = capecc(dir, args);
        assert_ok(&output);
        let shown = Command::new("readelf")
            .args(["-r", "-W", "get.o"])
            .current_dir(dir)
            .output()
            .expect("readelf runs");
        let text = stdout(&shown);
        // the code's references only (capecc's object tables hold the address as data)
        let code = text
            .split("Relocation section")
            .find(|section| section.starts_with(" '.rela.text"))
            .unwrap_or_default();
        code.lines()
            .filter(|l| l.contains(" table"))
            .map(|l| l.split_whitespace().nth(2).unwrap_or("").to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    if !Path::new("/usr/bin/readelf").exists() && missing("readelf") {
        return;
    }
    let default = relocations(&["-c", "-O2", "get.c"]);
    assert_eq!(default, "R_X86_64_PC32", "default build");
    let absolute = relocations(&["-c", "-O2", "-fno-pie", "get.c"]);
    assert_eq!(absolute, "R_X86_64_32S", "-fno-pie build");
}
