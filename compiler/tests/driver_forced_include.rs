//! Driver tests of `-include FILE`: the forced file's text is translated like the main file's
//! (its regions run on every rank, its library calls go through the runtime), and a system
//! header forced the same way still reaches the backend. Oracles are gcc's builds.
//! A missing tool fails the test; with `CAPECC_ALLOW_SKIP=1` it prints `SKIPPED` and passes.

mod driver;

use driver::*;

/// A forced header holding a parallel loop and a `read` into a local (a call the translation
/// rewrites), beside a forced system header the program relies on.
#[test]
fn forced_include_is_translated_and_matches_gcc() {
    if !have_mpicc() || !runtime_available() {
        return;
    }
    let scratch = scratch("forced-include");
    let dir = scratch.path();
    write(
        dir,
        "pre.h",
        "#include <unistd.h>\n#define N 97\nstatic long squares[N];\n\
         static long fill_squares(void)\n{\n\
         #pragma omp parallel for\n    for (int i = 0; i < N; i++)\n        squares[i] = (long)i * i;\n\
         long sum = 0;\n    for (int i = 0; i < N; i++)\n        sum += squares[i];\n    return sum;\n}\n\
         static long read_nothing(void)\n{\n    long got = -1;\n\
         if (read(-1, &got, sizeof got) != sizeof got)\n        got = -2;\n    return got;\n}\n",
    );
    write(
        dir,
        "main.c",
        "int main(void)\n{\n    printf(\"%ld %ld\\n\", fill_squares(), read_nothing());\n    return 0;\n}\n",
    );
    let flags = ["-include", "stdio.h", "-include", "pre.h"];
    let mut args = vec!["-O2"];
    args.extend(flags);
    args.extend(["main.c", "-o", "prog"]);
    assert_ok(&capecc(dir, &args));
    let expected = gcc_reference(dir, &["main.c"], &flags);
    for ranks in [1, 3] {
        let got = run_program_on(&dir.join("prog"), ranks);
        assert_eq!(
            stdout(&got),
            expected,
            "P = {ranks}, stderr: {}",
            stderr(&got)
        );
    }
}
