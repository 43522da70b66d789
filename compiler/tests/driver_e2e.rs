//! End-to-end driver tests: the built `capecc` binary with the real backend (`mpicc`).
//! Oracles are gcc itself and readelf, never capecc's own earlier output.
//! A missing tool (mpicc, or `libcapert.a` for the tests that link) fails the test; with
//! `CAPECC_ALLOW_SKIP=1` (never set in CI) such a test prints `SKIPPED` and passes instead.
//! This file: compiling (flags, preprocessing, errors, outputs); driver_link.rs: linking.

mod driver;

use std::process::Command;

use driver::*;

/// SIGABRT on Linux (every architecture capert supports).
const SIGABRT: i32 = 6;

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

/// A `single` block that calls `rand` (or reads a file) changes C library state on one rank
/// only: a warning at the call; standard input is every rank's, so reading it is not warned.
#[test]
fn one_rank_library_state_in_single_is_a_warning() {
    if !have_mpicc() {
        return;
    }
    let scratch = scratch("one-rank-state");
    let dir = scratch.path();
    write(
        dir,
        "r.c",
        "#include <stdio.h>\n#include <stdlib.h>\nint x;\nchar line[80];\nint main(void)\n{\n\
         #pragma omp parallel\n    {\n\
         #pragma omp single\n        {\n            x = rand();\n            fgets(line, 80, stdin);\n        }\n    }\n\
         return x + rand();\n}\n",
    );
    let out = capecc(dir, &["-c", "r.c"]);
    assert_ok(&out);
    let err = stderr(&out);
    assert!(
        err.contains("warning: `rand` in a `single` block changes the C library's random sequence on one rank only")
            && err.contains("r.c:11:"),
        "{err}"
    );
    assert!(!err.contains("`fgets`"), "{err}");
}

/// `-save-temps` keeps `q.cape.c` for `q.c`, but never over an input of that name.
#[test]
fn save_temps_never_overwrites_an_input() {
    if !have_mpicc() || !runtime_available() {
        return;
    }
    let scratch = scratch("save-temps-input");
    let dir = scratch.path();
    let helper = "int helper(void) { return 42; }\n";
    write(dir, "q.cape.c", helper);
    write(
        dir,
        "q.c",
        "#include <stdio.h>\nint helper(void);\nint main(void)\n{\n    printf(\"%d\\n\", helper());\n    return 0;\n}\n",
    );
    assert_ok(&capecc(
        dir,
        &["-save-temps", "q.cape.c", "q.c", "-o", "prog"],
    ));
    assert_eq!(
        std::fs::read_to_string(dir.join("q.cape.c")).unwrap(),
        helper
    );
    assert_eq!(stdout(&run_program(&dir.join("prog"))), "42\n");
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
    // `-M`/`-MM` print the rule (to standard output, `-o` or `-MF`) without our headers, and
    // a rule whose last prerequisite was ours ends without a continuation
    for flags in [
        &["-M"][..],
        &["-MM"],
        &["-M", "-MF", "m.d"],
        &["-MM", "-o", "m.d"],
        &["-M", "-MP"],
    ] {
        let mut args = vec!["-Iinc", "b.c"];
        args.extend_from_slice(flags);
        let out = capecc(dir, &args);
        assert_ok(&out);
        let deps = if flags.contains(&"m.d") {
            std::fs::read_to_string(dir.join("m.d")).unwrap()
        } else {
            stdout(&out)
        };
        assert!(
            deps.starts_with("b.o:") && deps.contains("inc/conf.h"),
            "{flags:?}: {deps}"
        );
        assert!(
            !deps.contains("capecc-"),
            "{flags:?} lists a temporary file: {deps}"
        );
        let last = deps.lines().rfind(|l| !l.trim().is_empty()).unwrap_or("");
        assert!(
            !last.ends_with('\\'),
            "{flags:?} ends in a continuation: {deps}"
        );
        let _ = std::fs::remove_file(dir.join("m.d"));
    }
}

/// `-x c` holds for the inputs after it whatever their names, as with gcc, and `-E` reads
/// standard input without it.
#[test]
fn dash_x_names_the_language_of_any_file() {
    if !have_mpicc() {
        return;
    }
    let scratch = scratch("dash-x");
    let dir = scratch.path();
    write(
        dir,
        "prog.txt",
        "#include <omp.h>\nint main(void)\n{\n    int s = 0;\n\
         #pragma omp parallel for reduction(+: s)\n    for (int i = 0; i < 4; i++)\n        s += i;\n\
         return s == 6 ? 0 : 1;\n}\n",
    );
    assert_ok(&capecc(dir, &["-c", "-x", "c", "prog.txt", "-o", "prog.o"]));
    assert!(dir.join("prog.o").is_file());
    let out = capecc(dir, &["-E", "-dM", "-x", "c", "/dev/null"]);
    assert_ok(&out);
    assert!(
        stdout(&out).contains("#define _OPENMP "),
        "{}",
        stdout(&out)
    );
    let out = Command::new(env!("CARGO_BIN_EXE_capecc"))
        .args(["-E", "-dM", "-"])
        .current_dir(dir)
        .stdin(std::fs::File::open(dir.join("prog.txt")).unwrap())
        .output()
        .unwrap();
    assert_ok(&out);
    assert!(
        stdout(&out).contains("#define _OPENMP "),
        "{}",
        stdout(&out)
    );
    // gcc's rule: without `-E`, standard input needs `-x`
    let out = capecc(dir, &["-c", "-"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("`-E` or `-x` required when input is from standard input"));
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

    // common stricter flags, at -O0 too: the reduction's private copy must not shadow the
    // global it stands for, `main` needs no prototype, a `char` loop variable's chunk
    // arithmetic converts nothing the program does not, a VLA parameter is no `sizeof`, and
    // an `atomic` update of an `int` at -O0 warns of no overflow, and a `volatile` reduction
    // variable (scalar, in a `parallel`, array section) is passed to the runtime without a
    // discarded-qualifier warning, and so are `volatile` variables of `atomic` and `critical`
    // updates and of an `atomic capture` (and the updates counted with it)
    let source = "#include <stdio.h>\ndouble gsum;\nunsigned char uc[200];\nint cnt;\n\
        volatile int vsum;\nvolatile long varr[4];\nvolatile int vcount;\nvolatile long vcap;\n\
        static void fill(int n, int m, double a[n][m])\n{\n\
        #pragma omp parallel for\n    for (int i = 0; i < n; i++)\n        for (int j = 0; j < m; j++)\n            a[i][j] = i * m + j;\n}\n\
        int main(void)\n{\n    double a[4][3];\n    fill(4, 3, a);\n\
        #pragma omp parallel for reduction(+: gsum)\n    for (int i = 0; i < 100; i++)\n        gsum += i;\n\
        #pragma omp parallel for\n    for (unsigned char c = 0; c < 200; c++)\n        uc[c] = 1;\n\
        #pragma omp parallel\n    {\n\
        #pragma omp atomic\n        cnt += 1;\n    }\n\
        #pragma omp parallel for reduction(+: vsum) reduction(+: varr[0:4])\n    for (int i = 0; i < 100; i++) {\n        vsum += i;\n        varr[i % 4] += i;\n    }\n\
        #pragma omp parallel reduction(+: vsum)\n    vsum += 1;\n\
        #pragma omp parallel\n    {\n        long t;\n\
        #pragma omp atomic\n        vcount += 2;\n\
        #pragma omp critical\n        vcount -= 1;\n\
        #pragma omp atomic\n        vcap += 3;\n\
        #pragma omp atomic capture\n        t = vcap++;\n\
        if (t < 0)\n            printf(\"negative\\n\");\n    }\n\
        printf(\"%.0f %d %d %.0f %d %ld %d\\n\", gsum, uc[199], cnt, a[3][2], vsum, varr[3], vcount);\n    return 0;\n}\n";
    write(dir, "v.c", source);
    for optimise in ["-O0", "-O2"] {
        let strict = [
            "-Wall",
            "-Wextra",
            "-Wshadow",
            "-Wmissing-prototypes",
            "-Wconversion",
            "-Werror",
            optimise,
        ];
        let gcc = Command::new("gcc")
            .args(["-fopenmp", "-c", "v.c", "-o", "ref.o"])
            .args(strict)
            .current_dir(dir)
            .output()
            .expect("gcc runs");
        assert!(gcc.status.success(), "the test itself: {}", stderr(&gcc));
        let mut args = vec!["-c", "v.c", "-o", "v.o"];
        args.extend_from_slice(&strict);
        assert_ok(&capecc(dir, &args));
    }
}

/// The private copies capecc declares warn of nothing the program built by gcc -fopenmp does
/// not: a `private` array a region only writes (-Wunused-but-set-variable), copies named like
/// the variable they stand for in place (`for` reduction on a `static` local, `single`
/// `firstprivate`, `task` private: -Wshadow), lastprivate and firstprivate copies never read.
#[test]
fn private_copies_warn_of_nothing_gcc_does_not() {
    if !have_mpicc() {
        return;
    }
    let scratch = scratch("werror-copies");
    let dir = scratch.path();
    let source = "#include <stdio.h>\n#include <omp.h>\ndouble a[8];\nint last;\n\
        static double dot(const double *v, int n)\n{\n    static double s;\n\
        #pragma omp single\n    s = 0;\n\
        #pragma omp for reduction(+ : s)\n    for (int i = 0; i < n; i++)\n        s += v[i];\n    return s;\n}\n\
        int main(void)\n{\n    double v[100], r = 0;\n    int k = 3, w = 0;\n\
        for (int i = 0; i < 100; i++)\n        v[i] = i;\n\
        #pragma omp parallel private(a)\n    {\n        for (int i = 0; i < 8; i++)\n            a[i] = omp_get_thread_num() + i;\n    }\n\
        #pragma omp parallel\n    {\n        double t = dot(v, 100);\n\
        #pragma omp master\n        r = t;\n\
        #pragma omp single firstprivate(k)\n        k = 4;\n\
        #pragma omp for lastprivate(last) firstprivate(w)\n        for (int i = 0; i < 10; i++)\n            last = i;\n\
        #pragma omp single\n        {\n\
        #pragma omp task private(w)\n            w = 1;\n        }\n    }\n\
        printf(\"%.1f %.1f %d %d %d\\n\", a[7], r, k, last, w);\n    return 0;\n}\n";
    write(dir, "c.c", source);
    for optimise in ["-O0", "-O2"] {
        let strict = ["-Wall", "-Wextra", "-Wshadow", "-Werror", optimise];
        let gcc = Command::new("gcc")
            .args(["-fopenmp", "-c", "c.c", "-o", "ref.o"])
            .args(strict)
            .current_dir(dir)
            .output()
            .expect("gcc runs");
        assert!(gcc.status.success(), "the test itself: {}", stderr(&gcc));
        let mut args = vec!["-c", "c.c", "-o", "c.o"];
        args.extend_from_slice(&strict);
        assert_ok(&capecc(dir, &args));
    }
    // a warning about code capecc generates (every function's stack usage: the outlined
    // regions' and those at the file's end too) names a line of the user's file
    let out = capecc(dir, &["-c", "c.c", "-o", "c.o", "-Wstack-usage=1"]);
    assert_ok(&out);
    let lines = source.lines().count();
    let mut warnings = 0;
    for line in stderr(&out).lines() {
        let at = line.strip_prefix("c.c:").map(|rest| rest.split(':').next());
        if let Some(Ok(n)) = at.flatten().map(str::parse::<usize>) {
            assert!(
                n >= 1 && n <= lines,
                "a line past the file's {lines}: {line}"
            );
            warnings += 1;
        }
    }
    assert!(warnings > 3, "{}", stderr(&out));
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
