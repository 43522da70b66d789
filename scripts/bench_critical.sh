#!/usr/bin/env bash
# Cost per acquisition of a general critical section (scripts/bench_critical/critical_cost.c):
# capecc at P = 2 and 4 (or BENCH_PROCS), modes 1 (a section under the lock the ranks share),
# 2 (the same effect as a mergeable update), 0 (no critical section), 3 (a section calling a
# function) and 4 (a lock set and unset in helper functions), N iterations in all.
# The runs alternate, BENCH_REPS times (default 5), ranks at real-time priority when chrt
# works; medians of the kernel time; every answer must be N. Markdown table on stdout
# (docs/critical.md).
#
# usage: scripts/bench_critical.sh [N]   (default 20000; BENCH_RT=0 runs without chrt)
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
# BENCH_RT=0: no real-time priority (more ranks than cores)
if [ "${BENCH_RT:-1}" = 1 ] && chrt -f 10 true 2>/dev/null; then RT=(chrt -f 10); fi

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

echo "load before: $(uptime)" >&2
echo "| P | N | no critical (s) | mergeable update (s) | general section (s) | section calling a function (s) | lock in helpers (s) | per acquisition, general (us) | per acquisition, update (us) | per acquisition, call (us) | per acquisition, helpers (us) |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for p in $PROCS; do
    declare -A t=([0]="" [1]="" [2]="" [3]="" [4]="")
    for ((r = 0; r < REPS; r++)); do
        for mode in 0 2 1 3 4; do
            got=$(timeout -k 5 120 mpirun -np "$p" "${RT[@]}" "$OUT/cape" "$mode" "$N" 2>"$OUT/err")
            [ "$got" = "$N" ] || { echo "bench_critical.sh: mode $mode at P = $p printed $got" >&2; exit 1; }
            t[$mode]+="$(awk '$1 == "kernel_seconds" { print $2 }' "$OUT/err") "
        done
    done
    m0=$(echo "${t[0]}" | tr ' ' '\n' | grep . | median)
    m1=$(echo "${t[1]}" | tr ' ' '\n' | grep . | median)
    m2=$(echo "${t[2]}" | tr ' ' '\n' | grep . | median)
    m3=$(echo "${t[3]}" | tr ' ' '\n' | grep . | median)
    m4=$(echo "${t[4]}" | tr ' ' '\n' | grep . | median)
    # each rank takes N/p locks one after the other; the lock is passed N times in all
    g=$(awk -v a="$m1" -v b="$m0" -v n="$N" 'BEGIN { printf "%.2f", (a - b) / n * 1e6 }')
    u=$(awk -v a="$m2" -v b="$m0" -v n="$N" 'BEGIN { printf "%.2f", (a - b) / n * 1e6 }')
    c=$(awk -v a="$m3" -v b="$m0" -v n="$N" 'BEGIN { printf "%.2f", (a - b) / n * 1e6 }')
    h=$(awk -v a="$m4" -v b="$m0" -v n="$N" 'BEGIN { printf "%.2f", (a - b) / n * 1e6 }')
    echo "| $p | $N | $m0 | $m2 | $m1 | $m3 | $m4 | $g | $u | $c | $h |"
    unset t
done
echo "load after: $(uptime)" >&2
