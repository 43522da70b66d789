//! End-to-end driver tests of the link step: what the link leaves outside the tracked
//! sections, what it decides between files, fixed addresses of library functions, and the
//! code model of translated objects. Oracles are gcc, readelf and the programs' runs.

mod driver;

use std::process::Command;

use driver::*;

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
/// An object or library compiled with `gcc -fopenmp` calls libgomp (`GOMP_parallel`), which a
/// capecc program has not: one error naming the file and what to do, not the linker's.
#[test]
fn a_library_compiled_with_gcc_fopenmp_is_named() {
    if !have_mpicc() || !runtime_available() {
        return;
    }
    let scratch = scratch("gomp-library");
    let dir = scratch.path();
    write(
        dir,
        "work.c",
        "int out[64];\nvoid work(void)\n{\n#pragma omp parallel for\n    for (int i = 0; i < 64; i++)\n        out[i] = i;\n}\n",
    );
    write(
        dir,
        "main.c",
        "void work(void);\nint main(void)\n{\n    work();\n    return 0;\n}\n",
    );
    let run = |program: &str, args: &[&str]| {
        let status = Command::new(program)
            .args(args)
            .current_dir(dir)
            .status()
            .unwrap();
        assert!(status.success());
    };
    run("gcc", &["-fopenmp", "-c", "work.c", "-o", "work.o"]);
    run("ar", &["rcs", "libwork.a", "work.o"]);
    for args in [
        &["main.c", "work.o", "-o", "prog"][..],
        &["main.c", "-L.", "-lwork", "-o", "prog"],
    ] {
        let output = capecc(dir, args);
        assert!(!output.status.success(), "{args:?}");
        let err = stderr(&output);
        assert!(
            err.contains("was compiled with `gcc -fopenmp`: it calls `GOMP_parallel`")
                && err.contains("compile its sources with capecc")
                && !err.contains("undefined reference"),
            "{args:?}: {err}"
        );
    }
}

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
    let default = relocations(&["-c", "-O2", "get.c"]);
    assert_eq!(default, "R_X86_64_PC32", "default build");
    let absolute = relocations(&["-c", "-O2", "-fno-pie", "get.c"]);
    assert_eq!(absolute, "R_X86_64_32S", "-fno-pie build");
}
