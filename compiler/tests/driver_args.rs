//! Command-line parsing: arguments -> plan, no I/O.

use std::path::PathBuf;

use capecc::driver::args::{default_output, parse_args, CodeModel, InputKind, LinkItem, Mode};

fn args(line: &str) -> Vec<String> {
    line.split_whitespace().map(str::to_string).collect()
}

#[test]
fn link_of_several_inputs_keeps_command_line_order() {
    let plan = parse_args(&args(
        "-O2 a.c -lm b.o -L/opt/lib c.c -Wl,--as-needed -o prog",
    ))
    .unwrap();
    assert_eq!(plan.mode(), Mode::Link);
    assert_eq!(plan.output, Some(PathBuf::from("prog")));
    let kinds: Vec<InputKind> = plan.inputs.iter().map(|i| i.kind).collect();
    assert_eq!(kinds, [InputKind::C, InputKind::Linker, InputKind::C]);
    assert_eq!(
        plan.link,
        [
            LinkItem::Input(0),
            LinkItem::Arg("-lm".into()),
            LinkItem::Input(1),
            LinkItem::Arg("-L/opt/lib".into()),
            LinkItem::Input(2),
            LinkItem::Arg("-Wl,--as-needed".into()),
        ]
    );
    assert_eq!(plan.common_args, ["-O2"]);
}

#[test]
fn glued_and_separate_values_both_work() {
    let plan = parse_args(&args(
        "-c -I inc -Iinc2 -D X=1 -DY -U Z -include pre.h -isystem sys x.c",
    ))
    .unwrap();
    assert_eq!(plan.mode(), Mode::Compile);
    assert_eq!(
        plan.cpp_args,
        [
            "-I", "inc", "-Iinc2", "-D", "X=1", "-DY", "-U", "Z", "-include", "pre.h", "-isystem",
            "sys"
        ]
    );
    let plan = parse_args(&args("x.c -l m -L dir -Xlinker -zmuldefs -o out")).unwrap();
    assert_eq!(
        plan.link[1..],
        [
            LinkItem::Arg("-l".into()),
            LinkItem::Arg("m".into()),
            LinkItem::Arg("-L".into()),
            LinkItem::Arg("dir".into()),
            LinkItem::Arg("-Xlinker".into()),
            LinkItem::Arg("-zmuldefs".into()),
        ]
    );
}

#[test]
fn openmp_flags_are_dropped_and_others_pass_through() {
    let plan = parse_args(&args(
        "-fopenmp -fopenmp-simd -qopenmp -fopenmp=libomp -std=gnu11 -g -Wall -Wextra -march=native -pthread -ffast-math x.c",
    ))
    .unwrap();
    assert_eq!(
        plan.common_args,
        [
            "-std=gnu11",
            "-g",
            "-Wall",
            "-Wextra",
            "-march=native",
            "-pthread",
            "-ffast-math"
        ]
    );
    assert!(plan.cpp_args.is_empty());
}

#[test]
fn position_independence_is_gcc_default_unless_the_user_chooses() {
    let plan = parse_args(&args("-O2 x.c")).unwrap();
    assert_eq!(plan.code, CodeModel::GccDefault);
    let plan = parse_args(&args("-O2 -fno-pie -no-pie x.c")).unwrap();
    assert_eq!(plan.code, CodeModel::NoPie);
    assert_eq!(plan.common_args, ["-O2"]);
    // the last of the pie/pic options wins, as with gcc
    let plan = parse_args(&args("-fno-PIE -fPIC x.c")).unwrap();
    assert_eq!(plan.code, CodeModel::UserPic);
    assert_eq!(plan.common_args, ["-fPIC"]);
    let plan = parse_args(&args("-fpie -fno-pie x.c")).unwrap();
    assert_eq!(plan.code, CodeModel::NoPie);
}

#[test]
fn driver_options() {
    let plan = parse_args(&args("-v --save-temps --cc=gcc x.c")).unwrap();
    assert!(plan.verbose && plan.save_temps);
    assert_eq!(plan.cc.as_deref(), Some("gcc"));
    let plan = parse_args(&args("-save-temps --cc clang x.c")).unwrap();
    assert!(plan.save_temps);
    assert_eq!(plan.cc.as_deref(), Some("clang"));
    assert_eq!(
        parse_args(&args("--emit-c x.c -o y.c")).unwrap().mode(),
        Mode::EmitC
    );
    assert_eq!(
        parse_args(&args("-E x.c")).unwrap().mode(),
        Mode::Preprocess
    );
    assert_eq!(parse_args(&args("-S x.c")).unwrap().mode(), Mode::Assemble);
    // The option that stops earliest wins, as in gcc.
    assert_eq!(
        parse_args(&args("-c -E x.c")).unwrap().mode(),
        Mode::Preprocess
    );
    assert_eq!(
        parse_args(&args("--version")).unwrap().mode(),
        Mode::Version
    );
    assert_eq!(parse_args(&args("--help")).unwrap().mode(), Mode::Help);
    assert_eq!(
        parse_args(&args("-dumpversion")).unwrap().mode(),
        Mode::BackendQuery
    );
}

#[test]
fn dependency_flags_go_to_preprocessing() {
    let plan = parse_args(&args("-c -MD -MP -MF x.d -MT x.o x.c")).unwrap();
    assert_eq!(plan.dep_args, ["-MD", "-MP", "-MF", "x.d", "-MT", "x.o"]);
    assert!(plan.has_dep_file());
    // -M and -MM only print dependencies: a preprocessor run.
    let plan = parse_args(&args("-MM x.c")).unwrap();
    assert_eq!(plan.mode(), Mode::Preprocess);
    assert_eq!(plan.dep_args, ["-MM"]);
}

#[test]
fn input_kinds_by_extension_and_by_x() {
    let plan = parse_args(&args(
        "a.c b.i c.s d.S e.o f.a g.so -x c h.txt -x none i.txt",
    ))
    .unwrap();
    let kinds: Vec<InputKind> = plan.inputs.iter().map(|i| i.kind).collect();
    use InputKind::*;
    assert_eq!(
        kinds,
        [
            C,
            Preprocessed,
            Assembly,
            Assembly,
            Linker,
            Linker,
            Linker,
            C,
            Linker
        ]
    );
}

#[test]
fn refused_combinations_have_clear_errors() {
    let e = parse_args(&args("-shared x.c -o libx.so")).unwrap_err();
    assert_eq!(e.message, "`-shared` is not supported");
    assert!(e.help.is_some());
    assert_eq!(
        parse_args(&args("-c")).unwrap_err().message,
        "no input files"
    );
    assert_eq!(
        parse_args(&args("-c a.c b.c -o x.o")).unwrap_err().message,
        "cannot specify `-o` with `-c` or `-S` with multiple files"
    );
    assert_eq!(
        parse_args(&args("x.c -o")).unwrap_err().message,
        "missing argument to `-o`"
    );
    assert_eq!(
        parse_args(&args("x.c -I")).unwrap_err().message,
        "missing argument to `-I`"
    );
    assert!(parse_args(&args("-x fortran x.f"))
        .unwrap_err()
        .message
        .contains("`fortran`"));
    assert!(parse_args(&args("-c -")).is_err());
    assert!(parse_args(&args("-c -x c -")).is_ok());
}

#[test]
fn default_output_names_like_gcc() {
    assert_eq!(
        default_output(&PathBuf::from("src/foo.c"), Mode::Compile),
        PathBuf::from("foo.o")
    );
    assert_eq!(
        default_output(&PathBuf::from("src/foo.c"), Mode::Assemble),
        PathBuf::from("foo.s")
    );
    assert_eq!(
        default_output(&PathBuf::from("foo.c"), Mode::Link),
        PathBuf::from("a.out")
    );
}

#[test]
fn never_panics_on_odd_arguments() {
    for line in [
        "-",
        "-o -o",
        "-Wl,",
        "-l",
        "--cc",
        "-x",
        "-MF",
        "-include",
        "--cc= x.c",
        "-I -I -I",
        "-Xlinker",
    ] {
        let _ = parse_args(&args(line));
    }
    let _ = parse_args(&[String::new()]);
}

#[test]
fn verbose_alone_prints_the_version() {
    assert_eq!(parse_args(&args("-v")).unwrap().mode(), Mode::Version);
    assert_eq!(
        parse_args(&args("-v -c")).unwrap_err().message,
        "no input files"
    );
}

#[test]
fn check_builds_have_two_spellings_and_unknown_checks_are_refused() {
    for line in ["--check=races a.c", "-fsanitize=cape-races a.c"] {
        let plan = parse_args(&args(line)).unwrap();
        assert!(plan.check_races, "{line}");
        assert!(
            !plan.common_args.iter().any(|a| a.contains("sanitize")),
            "{line}"
        );
    }
    assert!(!parse_args(&args("-O2 a.c")).unwrap().check_races);
    let err = parse_args(&args("--check=leaks a.c")).unwrap_err();
    assert!(err.message.contains("--check=leaks"), "{}", err.message);
}
