#!/usr/bin/env bash
# Side-by-side benchmark of two capecc builds: the current one and a BASELINE kept from an
# earlier commit (a directory holding its `capecc` and `libcapert.a`). Each example is built
# with both; the runs alternate (baseline, current, baseline, ...) in one script run so that
# load changes hit both alike. Prints the median wall time of each and the ratio
# current/baseline; every output is checked against the sequential gcc build.
#
# usage: BASELINE=DIR scripts/bench_compare.sh [KERNEL ...]   (default: matmul jacobi pi)
# environment: BENCH_REPS (default 5), BENCH_PROCS (default 2),
#              CAPECC (default target/release/capecc),
#              BENCH_ENVS: variants of the current build, each a comma-separated list of
#              VAR=value settings or `default` (default: `default`), e.g.
#              BENCH_ENVS="default CAPE_MERGE=eager"; the ratio column is the first one's,
#              BENCH_CHRT=1 runs the ranks at real-time priority (chrt -f 10; needs root)
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
read -r -a variants <<<"${BENCH_ENVS:-default}"
prio=()
[ "${BENCH_CHRT:-0}" = 1 ] && prio=(chrt -f 10)
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
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
printf '%-8s %3s %12s' kernel P baseline
for v in "${variants[@]}"; do printf ' %18s' "$v"; done
printf ' %8s\n' ratio
for k in "${kernels[@]}"; do
    read -r -a a <<<"${args[$k]}"
    expected=$("$OUT/$k-seq" "${a[@]}")
    for p in $PROCS; do
        declare -A times=()
        for ((r = 0; r < REPS; r++)); do
            for v in baseline "${variants[@]}"; do
                settings=()
                bin=$OUT/$k-current
                if [ "$v" = baseline ]; then
                    bin=$OUT/$k-baseline
                elif [ "$v" != default ]; then
                    IFS=, read -r -a settings <<<"$v"
                fi
                start=$(date +%s.%N)
                got=$(env "${settings[@]}" "${prio[@]}" mpirun -np "$p" "$bin" "${a[@]}")
                end=$(date +%s.%N)
                if [ "$got" != "$expected" ]; then
                    echo "bench_compare.sh: $k ($v, P=$p) printed another answer than the sequential build" >&2
                    exit 1
                fi
                times[$v]+="$(awk -v s="$start" -v e="$end" 'BEGIN { print e - s }') "
            done
        done
        mb=$(printf '%s\n' ${times[baseline]} | median)
        printf '%-8s %3s %11.3fs' "$k" "$p" "$mb"
        first=
        for v in "${variants[@]}"; do
            m=$(printf '%s\n' ${times[$v]} | median)
            [ -n "$first" ] || first=$m
            printf ' %17.3fs' "$m"
        done
        printf ' %8.3f\n' "$(awk -v c="$first" -v b="$mb" 'BEGIN { print c / b }')"
        unset times
    done
done
echo "load after the run:  $(uptime)"
