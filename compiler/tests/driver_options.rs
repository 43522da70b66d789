//! Driver tests of gcc options beyond the usual build: response files, `-fsyntax-only`,
//! options capecc refuses or leaves out, backend tools that fail, inputs whose nesting is deep,
//! and `-Werror` with warnings gcc -fopenmp's build does not have. gcc is the oracle: what it
//! accepts, capecc accepts.

mod driver;

use std::path::Path;
use std::process::{Command, Output};

use capecc::driver::response_files::split;
use driver::*;

const HELLO_C: &str = r#"#include <stdio.h>
int a[100];
int main(void) {
    long s = 0;
#pragma omp parallel for reduction(+: s)
    for (int i = 0; i < 100; i++) {
        a[i] = i;
        s += i;
    }
    printf("%ld\n", s);
    return 0;
}
"#;

/// `gcc -fopenmp ARGS` in `dir` succeeds (the oracle of what capecc must accept).
fn gcc_accepts(dir: &Path, args: &[&str]) -> bool {
    Command::new("gcc")
        .arg("-fopenmp")
        .args(args)
        .current_dir(dir)
        .status()
        .unwrap()
        .success()
}

/// capecc with `CAPECC_CC`/`CAPECC_OBJCOPY` set as given.
fn capecc_with(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(CAPECC);
    command.args(args).current_dir(dir).env_remove("CAPECC_CC");
    for (key, value) in env {
        command.env(key, value);
    }
    command.output().expect("capecc runs")
}

#[test]
fn response_files_are_split_like_gcc() {
    assert_eq!(split("a.c  -o\tprog\n-O2\n"), ["a.c", "-o", "prog", "-O2"]);
    assert_eq!(
        split(r#"'with space.c' "-DX=\"y z\"" back\ slash '' end"#),
        ["with space.c", r#"-DX="y z""#, "back slash", "", "end"]
    );
    assert_eq!(split(r#"-D'A=1'"B" \'q"#), ["-DA=1B", "'q"]);
    assert!(split(" \n\t").is_empty());
}

#[test]
fn response_files_are_expanded_before_the_arguments_are_read() {
    if !have_mpicc() || !runtime_available() {
        return;
    }
    let scratch = scratch("rsp");
    let dir = scratch.path();
    write(dir, "rp.c", HELLO_C);
    // nested: the outer file names the inner one; the output name has a space in it
    write(dir, "inner.rsp", "-o 'rp x'\n");
    write(dir, "rp.rsp", "rp.c -O2 @inner.rsp\n");
    let output = capecc(dir, &["@rp.rsp"]);
    assert_ok(&output);
    assert!(dir.join("rp x").is_file(), "{}", stderr(&output));
    assert!(!dir.join("a.out").exists());
    let run = run_program(&dir.join("rp x"));
    assert_eq!(
        String::from_utf8_lossy(&run.stdout),
        gcc_reference(dir, &["rp.c"], &[])
    );
    // translated, not compiled as plain C: --emit-c through a response file
    write(dir, "emit.rsp", "--emit-c rp.c");
    let output = capecc(dir, &["@emit.rsp"]);
    assert_ok(&output);
    assert!(stdout(&output).contains("__cape_"), "{}", stdout(&output));
    let output = capecc(dir, &["@missing.rsp"]);
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("cannot read response file `missing.rsp`"),
        "{}",
        stderr(&output)
    );
    write(dir, "loop.rsp", "@loop.rsp");
    let output = capecc(dir, &["@loop.rsp"]);
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("nested more than"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn deeply_nested_c_is_translated() {
    if !have_mpicc() {
        return;
    }
    let scratch = scratch("deep");
    let dir = scratch.path();
    let depth = 8000;
    let parens = format!(
        "int a[10];\nint main(void){{\n#pragma omp parallel for\nfor(int i=0;i<10;i++) a[i] = {}i{};\nreturn 0;}}\n",
        "(".repeat(depth),
        ")".repeat(depth)
    );
    let terms = vec!["x"; 60000].join(" + ");
    let sum = format!("int x = 1;\nint main(void){{ int s = {terms};\nreturn s & 1;}}\n");
    let arms: String = (1..12000)
        .map(|j| format!(" else if (argc == {j}) s = {j};"))
        .collect();
    let chain = format!(
        "int main(int argc, char **argv){{ int s = 0; (void)argv;\nif (argc == 0) s = 0;{arms}\nreturn s & 1;}}\n"
    );
    for (name, text) in [("parens.c", parens), ("sum.c", sum), ("chain.c", chain)] {
        write(dir, name, &text);
        assert!(gcc_accepts(dir, &["-fsyntax-only", name]), "{name}");
        let output = capecc(dir, &["--emit-c", name, "-o", "out.c"]);
        assert_ok(&output);
    }
}

#[test]
fn syntax_only_checks_and_writes_nothing() {
    if !have_mpicc() {
        return;
    }
    let scratch = scratch("syntax-only");
    let dir = scratch.path();
    write(dir, "hello.c", HELLO_C);
    let output = capecc(dir, &["-O2", "hello.c", "-fsyntax-only"]);
    assert_ok(&output);
    assert!(stdout(&output).is_empty() && stderr(&output).is_empty());
    let left: Vec<_> = std::fs::read_dir(dir).unwrap().collect();
    assert_eq!(left.len(), 1, "only hello.c: {left:?}");
    // an OpenMP error and a C error both fail, as gcc does
    write(
        dir,
        "bad.c",
        &HELLO_C.replace("reduction(+: s)", "num_threads(2.5)"),
    );
    assert!(
        !gcc_accepts(dir, &["-fsyntax-only", "bad.c"])
            || !gcc_accepts(dir, &["-c", "bad.c", "-o", "/dev/null"])
    );
    let output = capecc(dir, &["-fsyntax-only", "bad.c"]);
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("integer expression"),
        "{}",
        stderr(&output)
    );
    write(dir, "cbad.c", "int main(void) { return undeclared; }\n");
    let output = capecc(dir, &["-fsyntax-only", "cbad.c"]);
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("undeclared"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn options_capecc_cannot_honour_are_named() {
    let scratch = scratch("refused");
    let dir = scratch.path();
    write(dir, "hello.c", HELLO_C);
    for (option, said) in [
        ("-static", "`-static` is not supported"),
        (
            "-fsanitize=address",
            "`-fsanitize=address` is not supported",
        ),
        (
            "-fsanitize=undefined,thread",
            "`-fsanitize=thread` is not supported",
        ),
    ] {
        let output = capecc(dir, &["hello.c", option, "-o", "h"]);
        assert!(!output.status.success(), "{option}");
        let text = stderr(&output);
        assert!(text.contains(said), "{option}: {text}");
        if option.contains("sanitize") {
            assert!(text.contains("--check=races"), "{text}");
        }
    }
}

#[test]
fn lto_is_left_out_with_a_warning() {
    if !have_mpicc() {
        return;
    }
    let scratch = scratch("lto");
    let dir = scratch.path();
    write(dir, "hello.c", HELLO_C);
    let output = capecc(dir, &["-flto", "-O2", "-c", "hello.c", "-o", "hello.o"]);
    assert_ok(&output);
    assert!(
        stderr(&output).contains("warning: `-flto` is ignored"),
        "{}",
        stderr(&output)
    );
    assert!(dir.join("hello.o").is_file());
}

#[test]
fn failing_backend_tools_are_named() {
    if !have_mpicc() {
        return;
    }
    let scratch = scratch("tools");
    let dir = scratch.path();
    write(dir, "hello.c", HELLO_C);
    write(dir, "killed.sh", "#!/bin/sh\nkill -9 $$\n");
    write(dir, "segv.sh", "#!/bin/sh\nkill -11 $$\n");
    for script in ["killed.sh", "segv.sh"] {
        Command::new("chmod")
            .args(["+x", script])
            .current_dir(dir)
            .status()
            .unwrap();
    }
    let cases: [(&[(&str, &str)], &str); 5] = [
        (
            &[("CAPECC_CC", "false")],
            "`false` failed with exit status 1",
        ),
        (
            &[("CAPECC_CC", "./killed.sh")],
            "`./killed.sh` was killed by signal 9",
        ),
        (
            &[("CAPECC_CC", "./segv.sh")],
            "`./segv.sh` was killed by signal 11",
        ),
        (
            &[("CAPECC_OBJCOPY", "false")],
            "`false` failed with exit status 1",
        ),
        (&[("CAPECC_OBJCOPY", "no-such-objcopy")], "`CAPECC_OBJCOPY`"),
    ];
    for (env, said) in cases {
        let output = capecc_with(dir, &["-c", "hello.c", "-o", "hello.o"], env);
        assert!(!output.status.success(), "{env:?}");
        assert!(
            stderr(&output).contains(said),
            "{env:?}: {}",
            stderr(&output)
        );
    }
}

/// A program with many constructs, built with `-Werror` and each warning flag that gcc
/// -fopenmp's build passes: the generated code must not add a warning.
const CONSTRUCTS_C: &str = r#"#include <stdio.h>
#include <omp.h>
int a[64], b[64][8];
double d[64];
float f;
int main(void) {
    long s = 0;
    int m = 0, x = 0;
#pragma omp parallel for reduction(+: s) schedule(static, 4)
    for (int i = 0; i < 64; i++) {
        a[i] = i;
        s += i;
    }
#pragma omp parallel for collapse(2) private(x)
    for (int i = 0; i < 64; i++)
        for (int j = 0; j < 8; j++) {
            x = i * j;
            b[i][j] = x;
        }
#pragma omp parallel for reduction(+: f)
    for (int i = 0; i < 64; i++)
        f += 0.5f;
#pragma omp parallel shared(a, m) num_threads(3)
    {
#pragma omp for reduction(max: m) nowait
        for (int i = 0; i < 64; i++)
            if (a[i] > m)
                m = a[i];
#pragma omp critical
        s += 1;
#pragma omp barrier
#pragma omp single
        d[0] = 1.5;
#pragma omp atomic update
        x += 2;
    }
#pragma omp parallel sections lastprivate(x)
    {
#pragma omp section
        x = 1;
#pragma omp section
        x = 2;
    }
    printf("%d %d %d %g %g\n", s > 0, b[63][7], x, d[0], (double)f);
    return 0;
}
"#;

#[test]
fn generated_code_adds_no_warning_under_werror() {
    if !have_mpicc() {
        return;
    }
    let scratch = scratch("werror");
    let dir = scratch.path();
    write(dir, "constructs.c", CONSTRUCTS_C);
    for flag in [
        "-Wcast-qual",
        "-Wmissing-declarations",
        "-Wdeclaration-after-statement",
        "-Wcast-align=strict",
        "-Wswitch-default",
        "-Wdouble-promotion",
        "-Wunused-macros",
        "-Wredundant-decls",
        "-Wnested-externs",
    ] {
        let args = ["-O2", "-Werror", flag, "-c", "constructs.c", "-o", "ref.o"];
        assert!(gcc_accepts(dir, &args), "gcc -fopenmp refuses {flag}");
        let output = capecc(
            dir,
            &["-O2", "-Werror", flag, "-c", "constructs.c", "-o", "cape.o"],
        );
        assert!(output.status.success(), "{flag}: {}", stderr(&output));
    }
}

#[test]
fn backend_messages_name_the_users_main() {
    if !have_mpicc() || !runtime_available() {
        return;
    }
    let scratch = scratch("main_name");
    let dir = scratch.path();
    write(
        dir,
        "warn.c",
        "#include <stdio.h>\nint main(void) {\n    int x;\n    printf(\"%d\\n\", x);\n    return 0;\n}\n",
    );
    let out = capecc(dir, &["-Wall", "warn.c", "-o", "warn"]);
    assert_ok(&out);
    let err = stderr(&out);
    assert!(err.contains("In function") && err.contains("main"), "{err}");
    assert!(!err.contains("__cape_user_main"), "{err}");
    // the linker's messages too
    write(
        dir,
        "undefined.c",
        "void missing_function(void);\nint main(void) {\n    missing_function();\n    return 0;\n}\n",
    );
    let out = capecc(dir, &["undefined.c", "-o", "undefined"]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains("missing_function"), "{err}");
    assert!(!err.contains("__cape_user_main"), "{err}");
}
