#!/usr/bin/env bash
# End-to-end tests: every program in tests/e2e/progs/, tests/e2e/polybench/ and examples/ is built twice,
# with `gcc -O2 -fopenmp` (the reference) and with capecc, then run with P threads
# and with P MPI ranks (or, for an entry RxT, with R*T threads and with R ranks of T
# threads each: `OMP_NUM_THREADS=T mpirun -np R`); stdout, the exit status and any declared output files must
# be identical. The reference decides what is right, never a stored output; it is
# itself checked against the program built without OpenMP (plain gcc -O2).
#
# usage: tests/e2e/run.sh [--quick] [--procs "1 2 4"] [--ref-only] [--keep] [FILTER...]
#   --quick     P = 1 3 4 instead of 1 2 3 4 5 8
#   --procs L   explicit list of P values; RxT (e.g. 2x3) runs R ranks of T threads
#   --ref-only  only check the tests themselves: the gcc -fopenmp output must equal
#               the sequential gcc output for every P (needs no capecc)
#   --keep      keep the build and run directory (tests/out/e2e) on success
#   FILTER      extended regexps; only programs whose name matches one of them run
#               (names look like `clause_if` or `examples/pi`)
#
# Per program NAME.c, optional files next to it (or in tests/e2e/examples/ for examples):
#   NAME.args   command-line arguments (one line, split on spaces)
#   NAME.in     fed to stdin (to rank 0 under mpirun, which is what capecc expects)
#   NAME.files  names of files the program writes in its working directory; compared too
#   NAME.env    environment for every run of it (reference, sequential and capecc), one
#               KEY=VALUE a line (e.g. OMP_SCHEDULE=dynamic,3)
# A comment `// e2e: plain-helper: FILE HOW` links a helper compiled with plain `gcc -O2 -c`
# (a library built without capecc; FILE relative to the program's directory) into every
# build: HOW is `object` (the .o on the command line) or `archive` (`-L DIR -lplain` with
# only libplain.a in DIR).
# Programs in tests/e2e/errors/ must be refused instead (names look like `errors/task`):
#   `// expect-error: LINE`          capecc must fail, and its stderr must contain `NAME.c:LINE:`
#   `// expect-runtime-error: TEXT`  capecc must build it; `mpirun -np 2` must exit with a
#                                    non-zero status and print TEXT on stderr
# A source containing `e2e: openmp-only` (tests of private copies, which the program
# without OpenMP does not make) is checked against gcc -fopenmp at the first P instead.
#
# Environment: CAPECC (default target/release/capecc), CC_REF (default gcc),
# E2E_TIMEOUT seconds per run (default 60), E2E_OUT (default tests/out/e2e),
# MPIRUN (default mpirun; may carry options, e.g. "mpirun --bind-to none").
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
CAPECC=${CAPECC:-$ROOT/target/release/capecc}
CC_REF=${CC_REF:-gcc}
MPIRUN=${MPIRUN:-mpirun}
TIMEOUT=${E2E_TIMEOUT:-60}
OUT=${E2E_OUT:-$ROOT/tests/out/e2e}

# Open MPI refuses root and more ranks than cores unless told otherwise
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
# the capecc team size comes from -np; OMP_NUM_THREADS is set per reference run only
unset OMP_NUM_THREADS

procs="1 2 3 4 5 8"
ref_only=0
keep=0
filters=()
while [ $# -gt 0 ]; do
    case "$1" in
    --quick) procs="1 3 4" ;;
    --procs)
        procs=${2:?--procs needs a list}
        shift
        ;;
    --ref-only) ref_only=1 ;;
    --keep) keep=1 ;;
    -h | --help)
        sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'
        exit 0
        ;;
    -*)
        echo "run.sh: unknown option \`$1\`" >&2
        exit 2
        ;;
    *) filters+=("$1") ;;
    esac
    shift
done

# name <TAB> source <TAB> directory holding .args/.in/.files
list_programs() {
    local f
    for f in "$ROOT"/tests/e2e/progs/*.c; do
        printf '%s\t%s\t%s\n' "$(basename "$f" .c)" "$f" "$ROOT/tests/e2e/progs"
    done
    for f in "$ROOT"/tests/e2e/polybench/*.c; do
        [ -e "$f" ] && printf 'polybench/%s\t%s\t%s\n' "$(basename "$f" .c)" "$f" "$ROOT/tests/e2e/polybench"
    done
    for f in "$ROOT"/tests/e2e/errors/*.c; do
        [ -e "$f" ] && printf 'errors/%s\t%s\t%s\n' "$(basename "$f" .c)" "$f" "$ROOT/tests/e2e/errors"
    done
    for f in "$ROOT"/examples/*.c; do
        printf 'examples/%s\t%s\t%s\n' "$(basename "$f" .c)" "$f" "$ROOT/tests/e2e/examples"
    done
}

selected() {
    local name=$1 pat
    [ ${#filters[@]} -eq 0 ] && return 0
    for pat in "${filters[@]}"; do
        [[ $name =~ $pat ]] && return 0
    done
    return 1
}

if [ $ref_only -eq 0 ] && [ ! -x "$CAPECC" ]; then
    echo "run.sh: capecc not found at \`$CAPECC\` (run \`cargo build --release\` or set CAPECC)" >&2
fi

rm -rf "$OUT"
mkdir -p "$OUT"

programs=()
while IFS=$'\t' read -r name src extra; do
    selected "$name" && programs+=("$name"$'\t'"$src"$'\t'"$extra")
done < <(list_programs)
if [ ${#programs[@]} -eq 0 ]; then
    echo "run.sh: no program matches ${filters[*]}" >&2
    exit 2
fi

# Build phase: two programs at a time (the machine may have only 2 cores).
build_one() {
    local name=$1 src=$2 dir=$3
    mkdir -p "$dir"
    if [[ $name == errors/* ]]; then
        build_error_case "$src" "$dir"
        return
    fi
    local helper link=() file how
    helper=$(sed -n 's|.*// e2e: plain-helper: *||p' "$src" | head -n 1)
    if [ -n "$helper" ]; then
        read -r file how <<<"$helper"
        if ! "$CC_REF" -O2 -c "$(dirname "$src")/$file" -o "$dir/plain.o" >"$dir/build-ref.log" 2>&1; then
            echo "reference build failed" >"$dir/build.status"
            return
        fi
        case $how in
        archive)
            mkdir -p "$dir/lib" && ar rcs "$dir/lib/libplain.a" "$dir/plain.o"
            link=(-L"$dir/lib" -lplain)
            ;;
        *) link=("$dir/plain.o") ;;
        esac
    fi
    local seq_build=("$CC_REF" -O2 -Wno-unknown-pragmas "$src" "${link[@]}" -o "$dir/seq" -lm)
    grep -q 'e2e: per-thread-count' "$src" && seq_build=(true)
    if ! "$CC_REF" -O2 -fopenmp "$src" "${link[@]}" -o "$dir/ref" -lm >>"$dir/build-ref.log" 2>&1 ||
        ! "${seq_build[@]}" >>"$dir/build-ref.log" 2>&1; then
        echo "reference build failed" >"$dir/build.status"
        return
    fi
    if [ "$REF_ONLY" -eq 0 ]; then
        if [ ! -x "$CAPECC" ]; then
            echo "capecc missing" >"$dir/build.status"
            return
        fi
        if ! timeout -k 5 "$TIMEOUT" "$CAPECC" -O2 "$src" "${link[@]}" -o "$dir/cape" -lm \
            >"$dir/build-cape.log" 2>&1; then
            echo "capecc build failed" >"$dir/build.status"
            return
        fi
    fi
    echo ok >"$dir/build.status"
}
# A program that capecc must refuse: the verdict goes to $dir/build.status (`ok` when the
# compile-time error is right or the runtime-error program built, anything else is a failure).
build_error_case() {
    local src=$1 dir=$2 line base
    base=$(basename "$src")
    if [ "$REF_ONLY" -eq 1 ]; then
        echo ok >"$dir/build.status"
        return
    fi
    if [ ! -x "$CAPECC" ]; then
        echo "capecc missing" >"$dir/build.status"
        return
    fi
    timeout -k 5 "$TIMEOUT" "$CAPECC" -O2 "$src" -o "$dir/cape" -lm >"$dir/build-cape.log" 2>&1
    local rc=$?
    line=$(sed -n 's|.*// expect-error: *\([0-9][0-9]*\).*|\1|p' "$src" | head -n 1)
    if [ -n "$line" ]; then
        if [ $rc -eq 0 ]; then
            echo "capecc accepted it; expected an error at $base:$line" >"$dir/build.status"
        elif [ $rc -ge 124 ]; then
            echo "capecc crashed or timed out (status $rc)" >"$dir/build.status"
        elif ! grep -q "$base:$line:" "$dir/build-cape.log"; then
            echo "capecc failed without an error at \`$base:$line:\`" >"$dir/build.status"
        else
            echo ok >"$dir/build.status"
        fi
    elif [ $rc -ne 0 ]; then
        echo "capecc build failed" >"$dir/build.status"
    else
        echo ok >"$dir/build.status"
    fi
}
export -f build_one build_error_case
export CC_REF CAPECC TIMEOUT REF_ONLY=$ref_only
for p in "${programs[@]}"; do
    IFS=$'\t' read -r name src extra <<<"$p"
    printf '%s\0%s\0%s\0' "$name" "$src" "$OUT/${name//\//_}"
done | xargs -0 -n 3 -P 2 bash -c 'build_one "$@"' _

# Runs one build in a fresh working directory; leaves stdout, stderr, rc and the
# declared output files in $rundir.
run_one() {
    local rundir=$1 extra=$2 base=$3
    shift 3
    local args=() input=/dev/null envs=() line
    mkdir -p "$rundir"
    [ -f "$extra/$base.args" ] && read -r -a args <"$extra/$base.args"
    [ -f "$extra/$base.in" ] && input="$extra/$base.in"
    if [ -f "$extra/$base.env" ]; then
        while IFS= read -r line; do
            [ -n "$line" ] && envs+=("$line")
        done <"$extra/$base.env"
    fi
    (cd "$rundir" && timeout -k 5 "$TIMEOUT" env "${envs[@]}" "$@" "${args[@]}" <"$input" >stdout 2>stderr)
    echo $? >"$rundir/rc"
}

# Compares two run directories; prints a one-line reason and a diff excerpt.
compare_runs() {
    local want=$1 got=$2 extra=$3 base=$4 f
    if [ "$(cat "$got/rc")" = 124 ] || [ "$(cat "$got/rc")" = 137 ]; then
        echo "timed out after ${TIMEOUT}s"
        tail -n 5 "$got/stderr" | sed 's/^/      | /'
        return 1
    fi
    if ! cmp -s "$want/stdout" "$got/stdout"; then
        echo "stdout differs"
        diff -u --label expected --label actual "$want/stdout" "$got/stdout" | head -n 16 |
            sed 's/^/      | /'
        [ -s "$got/stderr" ] && tail -n 5 "$got/stderr" | sed 's/^/      ! /'
        return 1
    fi
    if [ "$(cat "$want/rc")" != "$(cat "$got/rc")" ]; then
        echo "exit status $(cat "$got/rc"), expected $(cat "$want/rc")"
        tail -n 5 "$got/stderr" | sed 's/^/      ! /'
        return 1
    fi
    if [ -f "$extra/$base.files" ]; then
        for f in $(cat "$extra/$base.files"); do
            if ! cmp -s "$want/$f" "$got/$f"; then
                echo "output file \`$f\` differs"
                return 1
            fi
        done
    fi
    return 0
}

read -r -a mpirun <<<"$MPIRUN"
passed=0
failed=0
failed_names=()
for p in "${programs[@]}"; do
    IFS=$'\t' read -r name src extra <<<"$p"
    dir="$OUT/${name//\//_}"
    base=$(basename "$src" .c)
    start=$(date +%s%N)
    status=$(cat "$dir/build.status" 2>/dev/null || echo "build did not run")
    reason=""
    skip_runs=0
    if [ "$status" != ok ]; then
        reason="$status"
        log="$dir/build-cape.log"
        [ "$status" = "reference build failed" ] && log="$dir/build-ref.log"
        # the first errors say more than the "In file included from" lines before them
        if [ -f "$log" ] && grep -q 'error' "$log"; then
            reason+=$'\n'"$(grep -m 6 'error' "$log" | sed 's/^/      ! /')"
        elif [ -f "$log" ]; then
            reason+=$'\n'"$(head -n 12 "$log" | sed 's/^/      ! /')"
        fi
    elif [[ $name == errors/* ]]; then
        # compile-time errors were judged by the build; runtime errors run here
        want=$(sed -n 's|.*// expect-runtime-error: *||p' "$src" | head -n 1)
        if [ -n "$want" ] && [ $ref_only -eq 0 ]; then
            run_one "$dir/cape-2" "$extra" "$base" "${mpirun[@]}" -np 2 "$dir/cape"
            if [ "$(cat "$dir/cape-2/rc")" = 0 ]; then
                reason="P=2: exit status 0, expected a runtime error"
            elif ! grep -qF -- "$want" "$dir/cape-2/stderr"; then
                reason="P=2: stderr lacks \`$want\`"$'\n'"$(tail -n 5 "$dir/cape-2/stderr" | sed 's/^/      ! /')"
            fi
        fi
        skip_runs=1
    else
        # a second oracle for the tests themselves: the program without OpenMP, except
        # for tests of private copies, whose originals the sequential program changes
        oracle="$dir/seq-1"
        oracle_name="sequential gcc"
        if grep -q 'e2e: per-thread-count' "$src"; then
            oracle=""
        elif grep -q 'e2e: openmp-only' "$src"; then
            oracle="$dir/ref-${procs%% *}"
            oracle_name="gcc -fopenmp at P=${procs%% *}"
        else
            run_one "$dir/seq-1" "$extra" "$base" "$dir/seq"
        fi
    fi
    if [ -z "$reason" ] && [ $skip_runs -eq 0 ]; then
        for P in $procs; do
            # RxT: R ranks of T threads against gcc -fopenmp with R*T threads
            ranks=${P%x*} threads=1
            [[ $P == *x* ]] && threads=${P#*x}
            OMP_NUM_THREADS=$((ranks * threads)) run_one "$dir/ref-$P" "$extra" "$base" "$dir/ref"
            # the reference must agree with the sequential build and so not depend on P,
            # or the test proves nothing
            if [ -n "$oracle" ] && ! why=$(compare_runs "$oracle" "$dir/ref-$P" "$extra" "$base"); then
                reason="bad test: gcc -fopenmp at P=$P differs from $oracle_name: $why"
                break
            fi
            [ $ref_only -eq 1 ] && continue
            hybrid=()
            [ "$threads" != 1 ] && hybrid=(env OMP_NUM_THREADS="$threads")
            run_one "$dir/cape-$P" "$extra" "$base" "${hybrid[@]}" "${mpirun[@]}" -np "$ranks" "$dir/cape"
            if ! why=$(compare_runs "$dir/ref-$P" "$dir/cape-$P" "$extra" "$base"); then
                reason="P=$P: $why"
                break
            fi
        done
    fi
    ms=$((($(date +%s%N) - start) / 1000000))
    if [ -z "$reason" ]; then
        passed=$((passed + 1))
        printf 'PASS  %-32s %4d.%02ds\n' "$name" $((ms / 1000)) $((ms % 1000 / 10))
    else
        failed=$((failed + 1))
        failed_names+=("$name")
        echo "FAIL  $name  $reason"
    fi
done

if [ $failed -eq 0 ] && [ $keep -eq 0 ]; then
    rm -rf "$OUT"
elif [ $failed -gt 0 ]; then
    echo "failed: ${failed_names[*]} (builds and outputs kept in $OUT)"
fi
echo "e2e: $passed passed, $failed failed"
[ $failed -eq 0 ]
