#!/usr/bin/env bash
# Cost per acquisition of a general critical section (scripts/bench_critical/critical_cost.c):
# capecc at P = 2 and 4 (or BENCH_PROCS), modes 1 (a section under the lock the ranks share),
# 2 (the same effect as a mergeable update) and 0 (no critical section), N iterations in all.
# The runs alternate, BENCH_REPS times (default 5), ranks at real-time priority when chrt
# works; medians of the kernel time; every answer must be N. Markdown table on stdout
# (docs/critical.md).
#
# usage: scripts/bench_critical.sh [N]   (default 20000)
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/env.sh
source scripts/env.sh
unset OMP_NUM_THREADS
CAPECC=${CAPECC:-$ROOT/target/release/capecc}
REPS=${BENCH_REPS:-5}
PROCS=${BENCH_PROCS:-"2 4"}
N=${1:-20000}
OUT=$ROOT/bench-out/critical
mkdir -p "$OUT"
"$CAPECC" -O2 scripts/bench_critical/critical_cost.c -o "$OUT/cape"
RT=()
if chrt -f 10 true 2>/dev/null; then RT=(chrt -f 10); fi

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

echo "load before: $(uptime)" >&2
echo "| P | N | no critical (s) | mergeable update (s) | general section (s) | per acquisition, general (us) | per acquisition, update (us) |"
echo "|---:|---:|---:|---:|---:|---:|---:|"
for p in $PROCS; do
    declare -A t=([0]="" [1]="" [2]="")
    for ((r = 0; r < REPS; r++)); do
        for mode in 0 2 1; do
            got=$(mpirun -np "$p" "${RT[@]}" "$OUT/cape" "$mode" "$N" 2>"$OUT/err")
            [ "$got" = "$N" ] || { echo "bench_critical.sh: mode $mode at P = $p printed $got" >&2; exit 1; }
            t[$mode]+="$(awk '$1 == "kernel_seconds" { print $2 }' "$OUT/err") "
        done
    done
    m0=$(echo "${t[0]}" | tr ' ' '\n' | grep . | median)
    m1=$(echo "${t[1]}" | tr ' ' '\n' | grep . | median)
    m2=$(echo "${t[2]}" | tr ' ' '\n' | grep . | median)
    # each rank takes N/p locks one after the other; the lock is passed N times in all
    g=$(awk -v a="$m1" -v b="$m0" -v n="$N" 'BEGIN { printf "%.2f", (a - b) / n * 1e6 }')
    u=$(awk -v a="$m2" -v b="$m0" -v n="$N" 'BEGIN { printf "%.2f", (a - b) / n * 1e6 }')
    echo "| $p | $N | $m0 | $m2 | $m1 | $g | $u |"
    unset t
done
echo "load after: $(uptime)" >&2
