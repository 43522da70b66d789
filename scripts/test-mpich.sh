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
echo "mpich: $pass passed, $fail failed"
[ "$fail" = 0 ]
