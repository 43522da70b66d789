#!/usr/bin/env bash
# Speed-up of task patterns (scripts/bench_tasks/tasks.c): 1 = `single` generating independent
# tasks, 2 = `taskloop`, 3 = recursive fib with `task` + `taskwait`, 4 = recursive merge sort;
# capecc at P = 1 and 2 beside gcc -fopenmp at 1 and 2 threads. The
# runs alternate, BENCH_REPS times (default 5); medians of the kernel time (stderr), and every
# output must equal the sequential build's. Markdown table on stdout (docs/tasks.md).
#
# usage: scripts/bench_tasks.sh [WORK]   (WORK: repetitions of each task's sweep, default 4000;
#        fib(36 + WORK/1000); WORK * 1024 keys sorted). BENCH_PATTERNS: the patterns to run
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/env.sh
source scripts/env.sh
unset OMP_NUM_THREADS
CAPECC=${CAPECC:-$ROOT/target/release/capecc}
REPS=${BENCH_REPS:-5}
WORK=${1:-4000}
OUT=$ROOT/bench-out/tasks
mkdir -p "$OUT"
gcc -O2 -Wno-unknown-pragmas scripts/bench_tasks/tasks.c -o "$OUT/seq"
gcc -O2 -fopenmp scripts/bench_tasks/tasks.c -o "$OUT/omp"
"$CAPECC" -O2 scripts/bench_tasks/tasks.c -o "$OUT/cape"

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
kernel() { awk '$1 == "kernel_seconds" { print $2 }' "$1"; }

echo "load before: $(uptime)" >&2
echo "| pattern | gcc -fopenmp, 1 thread (s) | 2 threads (s) | speed-up | capecc, P = 1 (s) | P = 2 (s) | speed-up |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for pattern in ${BENCH_PATTERNS:-1 2 3 4}; do
    expected=$("$OUT/seq" "$pattern" "$WORK" 2>/dev/null)
    declare -A t=([o1]="" [o2]="" [c1]="" [c2]="")
    for ((r = 0; r < REPS; r++)); do
        for run in o1 o2 c1 c2; do
            n=${run:1}
            case $run in
            o*) got=$(OMP_NUM_THREADS=$n "$OUT/omp" "$pattern" "$WORK" 2>"$OUT/err") ;;
            c*) got=$(mpirun -np "$n" "$OUT/cape" "$pattern" "$WORK" 2>"$OUT/err") ;;
            esac
            [ "$got" = "$expected" ] || { echo "bench_tasks.sh: $run printed another answer" >&2; exit 1; }
            t[$run]+="$(kernel "$OUT/err") "
        done
    done
    m() { tr ' ' '\n' <<<"${t[$1]}" | grep . | median; }
    names=("" "single + task" "taskloop" "recursive fib" "recursive merge sort")
    name=${names[$pattern]}
    awk -v n="$name" -v o1="$(m o1)" -v o2="$(m o2)" -v c1="$(m c1)" -v c2="$(m c2)" \
        'BEGIN { printf "| %s | %.3f | %.3f | %.2f | %.3f | %.3f | %.2f |\n", n, o1, o2, o1 / o2, c1, c2, c1 / c2 }'
done
echo "load after: $(uptime)" >&2
