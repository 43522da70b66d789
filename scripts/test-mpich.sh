#!/usr/bin/env bash
# capecc with MPICH instead of Open MPI: builds the runtime against MPICH (its own target
# dir), builds some examples with `CAPECC_CC=mpicc.mpich`, runs them with `mpirun.mpich` at
# several P and compares with the gcc -fopenmp build. Installs MPICH through apt when missing
# (it coexists with Open MPI, which stays the default `mpicc`).
# Prints `mpich: N passed, M failed`.
set -u
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
scripts/deps.sh mpich:mpicc.mpich libmpich-dev:mpicc.mpich >/dev/null || exit 1
mpich_target=${MPICH_TARGET_DIR:-$ROOT/target-mpich}
MPICC=mpicc.mpich CARGO_TARGET_DIR=$mpich_target cargo build -q --release -p capert || {
    echo "mpich: 0 passed, 1 failed (runtime build)"
    exit 1
}
cargo build -q --release -p capecc || exit 1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0
fail=0
for spec in "pi 2000000" "jacobi 200 50" "matmul 120" "saxpy 10000 20" "primes 20000"; do
    set -- $spec
    name=$1
    shift
    gcc -O2 -fopenmp "examples/$name.c" -o "$work/$name.ref" -lm
    CAPECC_CC=mpicc.mpich CAPECC_RUNTIME="$mpich_target/release/libcapert.a" \
        target/release/capecc -O2 "examples/$name.c" -o "$work/$name" -lm || { fail=$((fail + 1)); continue; }
    "$work/$name.ref" "$@" >"$work/want"
    for np in 1 2 3 5; do
        if timeout 120 mpirun.mpich -np "$np" "$work/$name" "$@" >"$work/got" 2>"$work/err" &&
            cmp -s "$work/want" "$work/got"; then
            pass=$((pass + 1))
            echo "ok   $name P=$np"
        else
            fail=$((fail + 1))
            echo "FAIL $name P=$np"
            diff "$work/want" "$work/got" | head -5
            head -5 "$work/err"
        fi
    done
done
# The demand-driven merge needs one-sided gets that progress while the target computes;
# MPICH's do not (docs/lazy-merge.md): `CAPE_MERGE=lazy` must say so and merge eagerly.
gcc -O2 -fopenmp tests/e2e/progs/lazy_pages.c -o "$work/lazy.ref"
(cd "$work" && ./lazy.ref >want)
if CAPECC_CC=mpicc.mpich CAPECC_RUNTIME="$mpich_target/release/libcapert.a" \
    target/release/capecc -O2 tests/e2e/progs/lazy_pages.c -o "$work/lazy"; then
    for np in 2 3; do
        if (cd "$work" && CAPE_MERGE=lazy timeout 120 mpirun.mpich -np "$np" ./lazy >got 2>err) &&
            cmp -s "$work/want" "$work/got" &&
            grep -q "capert: warning: \`CAPE_MERGE=lazy\` is not available: one-sided" "$work/err"; then
            pass=$((pass + 1))
            echo "ok   lazy_pages P=$np CAPE_MERGE=lazy (eager, with the warning)"
        else
            fail=$((fail + 1))
            echo "FAIL lazy_pages P=$np CAPE_MERGE=lazy"
            diff "$work/want" "$work/got" | head -5
            head -5 "$work/err"
        fi
    done
else
    fail=$((fail + 1))
fi
echo "mpich: $pass passed, $fail failed"
[ "$fail" = 0 ]
