#!/usr/bin/env bash
# The merge modes on the PolyBench-style kernels and the NPB-equivalent programs
# (docs/lazy-merge-measurements.md): each program built once with capecc and run with CAPE_MERGE=eager,
# lazy and auto, interleaved (eager, lazy, auto, eager, ...) so that load changes hit all
# alike. Prints a Markdown table of the median wall times (the whole `mpirun` command) and
# the ratios lazy/eager and auto/eager. Every run is checked: a PolyBench kernel must print
# what the sequential gcc build prints; an NPB program what `gcc -fopenmp` prints at the same
# number of threads, with `Verification = SUCCESSFUL`.
#
# The PolyBench kernels are scaled up (their size macros times a factor, time steps kept, as
# in scripts/bench_codegen.sh) so that the regions, not the start-up, take most of the time;
# the NPB programs run class BENCH_NPB_CLASS.
#
# usage: scripts/bench_modes.sh [NAME ...]   NAME: a kernel (2mm, ..., trmm), an NPB
#        program (npb_bt, ..., npb_sp), or a group: polybench, npb (default: both groups)
# environment: BENCH_REPS (default 5), BENCH_PROCS (default 2), BENCH_NPB_CLASS (default W),
#              BENCH_CHRT=1 runs the ranks at real-time priority (chrt -f 10; needs root),
#              BENCH_TIMEOUT (seconds per run, default 120), CAPECC (default target/release/capecc)
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/env.sh
source scripts/env.sh
unset OMP_NUM_THREADS CAPE_MERGE CAPE_STATS

CAPECC=${CAPECC:-$ROOT/target/release/capecc}
REPS=${BENCH_REPS:-5}
P=${BENCH_PROCS:-2}
CLASS=${BENCH_NPB_CLASS:-W}
prio=()
[ "${BENCH_CHRT:-0}" = 1 ] && prio=(chrt -f 10)

# PolyBench kernel -> scale factor on its size macros
declare -A scale=(
    [2mm]=16 [3mm]=13 [atax]=16 [bicg]=16 [cholesky]=4 [correlation]=8 [covariance]=8
    [fdtd-2d]=15 [floyd-warshall]=3 [gemm]=12 [gemver]=16 [gesummv]=20 [heat-3d]=8
    [jacobi-1d]=500 [jacobi-2d]=20 [lu]=4 [mvt]=16 [syr2k]=10 [syrk]=12 [trmm]=10
)
polybench=(2mm 3mm atax bicg cholesky correlation covariance fdtd-2d floyd-warshall gemm
    gemver gesummv heat-3d jacobi-1d jacobi-2d lu mvt syr2k syrk trmm)
npb=(npb_bt npb_cg npb_ep npb_ft npb_is npb_lu npb_mg npb_sp)

names=()
for a in "${@:-polybench npb}"; do
    for n in $a; do
        case $n in
        polybench) names+=("${polybench[@]}") ;;
        npb) names+=("${npb[@]}") ;;
        npb_*) names+=("$n") ;;
        *) [ -n "${scale[$n]:-}" ] || { echo "bench_modes.sh: unknown kernel $n" >&2; exit 2; }
            names+=("$n") ;;
        esac
    done
done

OUT=$ROOT/bench-out/modes
mkdir -p "$OUT"
# builds $OUT/NAME-cape, the reference output $OUT/NAME.expected and the arguments
for n in "${names[@]}"; do
    case $n in
    npb_*)
        src=tests/e2e/progs/$n.c
        gcc -O2 -fopenmp "$src" -o "$OUT/$n-omp" -lm
        "$CAPECC" -O2 "$src" -o "$OUT/$n-cape" -lm
        OMP_NUM_THREADS=$P "$OUT/$n-omp" "$CLASS" >"$OUT/$n.expected"
        grep -q 'Verification = SUCCESSFUL' "$OUT/$n.expected" ||
            { echo "bench_modes.sh: $n (gcc -fopenmp) did not verify" >&2; exit 1; }
        ;;
    *)
        awk -v scale="${scale[$n]}" '
            /^#define [A-Z_0-9]+ [0-9]+$/ && !/TSTEPS|TMAX/ { $3 = $3 * scale }
            { print }' "tests/e2e/polybench/$n.c" >"$OUT/$n.c"
        inc=(-I "$ROOT/tests/e2e/polybench")
        gcc -O2 "${inc[@]}" "$OUT/$n.c" -o "$OUT/$n-seq" -lm
        "$CAPECC" -O2 "${inc[@]}" "$OUT/$n.c" -o "$OUT/$n-cape" -lm
        "$OUT/$n-seq" >"$OUT/$n.expected"
        ;;
    esac
done

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

echo "load before the run: $(uptime)" >&2
echo "| kernel | P | eager (s) | lazy (s) | auto (s) | lazy / eager | auto / eager |"
echo "|---|---:|---:|---:|---:|---:|---:|"
failed=0
for n in "${names[@]}"; do
    args=()
    case $n in npb_*) args=("$CLASS") ;; esac
    declare -A times=()
    for ((r = 0; r < REPS; r++)); do
        for v in eager lazy auto; do
            t0=$(date +%s%N)
            CAPE_MERGE=$v timeout "${BENCH_TIMEOUT:-120}" mpirun -np "$P" "${prio[@]}" "$OUT/$n-cape" "${args[@]}" >"$OUT/$n.$v.out" || true
            t1=$(date +%s%N)
            if ! cmp -s "$OUT/$n.expected" "$OUT/$n.$v.out"; then
                echo "bench_modes.sh: $n ($v, P=$P) printed another output than the reference" >&2
                failed=1
            fi
            times[$v]+="$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", (b - a) / 1e9 }') "
        done
    done
    e=$(printf '%s\n' ${times[eager]} | median)
    l=$(printf '%s\n' ${times[lazy]} | median)
    a=$(printf '%s\n' ${times[auto]} | median)
    awk -v n="$n" -v p="$P" -v e="$e" -v l="$l" -v a="$a" \
        'BEGIN { printf "| %s | %d | %.3f | %.3f | %.3f | %.3f | %.3f |\n", n, p, e, l, a, l / e, a / e }'
    unset times
done
echo "load after the run:  $(uptime)" >&2
exit $failed
