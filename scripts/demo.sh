#!/usr/bin/env bash
# The 2-minute demo: install what is missing, build capecc, compile an unchanged
# OpenMP program (examples/matmul.c) with capecc and, for comparison, as a plain
# sequential program with gcc; run it on 4 MPI ranks and sequentially; show that
# both print the same answer, and how long each took.
# usage: scripts/demo.sh [N]   (matrix size, default 1000)
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/env.sh
source scripts/env.sh
N=${1:-1000}
RANKS=${DEMO_RANKS:-4}

scripts/deps.sh
echo "==> building capecc (cargo build --release)"
cargo build --release --quiet
CAPECC=$ROOT/target/release/capecc

work=$(mktemp -d "${TMPDIR:-/tmp}/capecc-demo.XXXXXX")
trap 'rm -rf "$work"' EXIT

echo "==> capecc -O2 examples/matmul.c -o matmul-cape"
"$CAPECC" -O2 examples/matmul.c -o "$work/matmul-cape"
echo "==> gcc -O2 examples/matmul.c -o matmul-seq      (pragmas ignored: sequential)"
gcc -O2 examples/matmul.c -o "$work/matmul-seq"

# wall-clock seconds of a command, its stdout saved to a file
timed() { # out-file, command...
    local out=$1 start end
    shift
    start=$(date +%s%N)
    "$@" >"$out"
    end=$(date +%s%N)
    local ms=$(((end - start) / 1000000))
    printf '%d.%03d' $((ms / 1000)) $((ms % 1000))
}

echo
echo "==> ./matmul-seq $N"
t_seq=$(timed "$work/seq.out" "$work/matmul-seq" "$N")
sed 's/^/    /' "$work/seq.out"
echo "==> mpirun -np $RANKS ./matmul-cape $N"
t_cape=$(timed "$work/cape.out" mpirun -np "$RANKS" "$work/matmul-cape" "$N")
sed 's/^/    /' "$work/cape.out"

echo
cores=$(nproc 2>/dev/null || echo "?")
echo "sequential (gcc -O2):            ${t_seq} s"
echo "capecc, mpirun -np $RANKS:            ${t_cape} s   (this machine has $cores cores$([ "$cores" != "?" ] && [ "$cores" -lt "$RANKS" ] && echo ": oversubscribed"))"
if cmp -s "$work/seq.out" "$work/cape.out"; then
    echo "the outputs are identical"
else
    echo "the outputs DIFFER:"
    diff -u --label sequential --label capecc "$work/seq.out" "$work/cape.out" || true
    exit 1
fi
