#!/usr/bin/env bash
# Side-by-side benchmark of two capecc builds: the current one and a BASELINE kept from an
# earlier commit (a directory holding its `capecc` and `libcapert.a`). Each example is built
# with both; the runs alternate (baseline, current, baseline, ...) in one script run so that
# load changes hit both alike. Prints the median wall time of each and the ratio
# current/baseline; every output is checked against the sequential gcc build.
#
# usage: BASELINE=DIR scripts/bench_compare.sh [KERNEL ...]   (default: matmul jacobi pi)
# environment: BENCH_REPS (default 5), BENCH_PROCS (default 2),
#              CAPECC (default target/release/capecc)
# Keep a baseline before a change:  mkdir -p ../base && cp target/release/{capecc,libcapert.a} ../base/
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/env.sh
source scripts/env.sh
unset OMP_NUM_THREADS

BASELINE=${BASELINE:?set BASELINE to a directory with the baseline capecc and libcapert.a}
CAPECC=${CAPECC:-$ROOT/target/release/capecc}
REPS=${BENCH_REPS:-5}
PROCS=${BENCH_PROCS:-2}
kernels=("$@")
[ ${#kernels[@]} -gt 0 ] || kernels=(matmul jacobi pi)
declare -A args=([matmul]="1500" [jacobi]="2000 100" [pi]="1000000000")

OUT=$ROOT/bench-out/compare
mkdir -p "$OUT"
for k in "${kernels[@]}"; do
    gcc -O2 "examples/$k.c" -o "$OUT/$k-seq" -lm 2>/dev/null
    "$BASELINE/capecc" -O2 "examples/$k.c" -o "$OUT/$k-baseline" -lm
    "$CAPECC" -O2 "examples/$k.c" -o "$OUT/$k-current" -lm
done

echo "load before the run: $(uptime)"
printf '%-8s %3s %12s %12s %8s\n' kernel P baseline current ratio
for k in "${kernels[@]}"; do
    read -r -a a <<<"${args[$k]}"
    expected=$("$OUT/$k-seq" "${a[@]}")
    for p in $PROCS; do
        declare -a tb=() tc=()
        for ((r = 0; r < REPS; r++)); do
            for v in baseline current; do
                start=$(date +%s.%N)
                got=$(mpirun -np "$p" "$OUT/$k-$v" "${a[@]}")
                end=$(date +%s.%N)
                if [ "$got" != "$expected" ]; then
                    echo "bench_compare.sh: $k ($v, P=$p) printed another answer than the sequential build" >&2
                    exit 1
                fi
                t=$(awk -v s="$start" -v e="$end" 'BEGIN { print e - s }')
                if [ $v = baseline ]; then tb+=("$t"); else tc+=("$t"); fi
            done
        done
        mb=$(printf '%s\n' "${tb[@]}" | sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}')
        mc=$(printf '%s\n' "${tc[@]}" | sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}')
        printf '%-8s %3s %11.3fs %11.3fs %8.3f\n' "$k" "$p" "$mb" "$mc" "$(awk -v c="$mc" -v b="$mb" 'BEGIN { print c / b }')"
    done
done
echo "load after the run:  $(uptime)"
