#!/usr/bin/env bash
# Kernel time of the translated code against the same loops compiled directly: for each
# kernel, `gcc -O2` (sequential), `gcc -O2 -fopenmp` at OMP_NUM_THREADS=1 and `capecc -O2`
# under `mpirun -np 1`. A timer (clock_gettime, printed to stderr) is put around the same
# statements in all three builds: from the top-level statement of main that holds the first
# `#pragma omp` to the first top-level statement after the last region, so process start-up,
# MPI start-up, initialisation and the checksum are not timed. The PolyBench-style kernels are
# scaled up (their size macros times a factor, time steps kept) so that each runs long enough
# to be timed. The three builds run interleaved, BENCH_REPS times, each repetition starting
# with the next build in turn (so that none always runs right after another); the median is
# printed, as a Markdown table (docs/codegen.md), with capecc's and gcc -fopenmp's fastest and
# slowest runs, the ratio of their fastest runs, the bootstrap 95 % interval of the ratio of
# their medians, and the load average when the kernel's runs
# started (every run's time is kept in bench-out/codegen/KERNEL.times); every build's output
# must equal the sequential one. The fastest runs are printed
# because on a virtual machine a run can be slowed by what shares its physical core on the
# host (docs/codegen.md, eleventh round): the medians stay the verdict, the fastest runs and
# the spread show how much of it is that.
#
# usage: scripts/bench_codegen.sh [KERNEL ...]   (default: all of the list below)
# environment: BENCH_REPS (default 9), CAPECC (default target/release/capecc),
#              BASELINE (optional: a directory with an earlier capecc and libcapert.a, timed
#              as a fourth build, interleaved with the others),
#              BENCH_LOCK (optional: a lock file; each kernel's runs hold it exclusively,
#              with `flock -x`, so that a shared machine's builds wait between kernels; the
#              builds are made before, outside it)
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/env.sh
source scripts/env.sh

CAPECC=${CAPECC:-$ROOT/target/release/capecc}
REPS=${BENCH_REPS:-9}
# kernel -> "source scale arguments" (scale: factor on the size macros; - for the examples)
declare -A spec=(
    [matmul]="examples/matmul.c - 1100"
    [jacobi]="examples/jacobi.c - 1000 400"
    [2mm]="tests/e2e/polybench/2mm.c 16"
    [3mm]="tests/e2e/polybench/3mm.c 13"
    [gemm]="tests/e2e/polybench/gemm.c 16"
    [syrk]="tests/e2e/polybench/syrk.c 17"
    [syr2k]="tests/e2e/polybench/syr2k.c 14"
    [trmm]="tests/e2e/polybench/trmm.c 14"
    [covariance]="tests/e2e/polybench/covariance.c 12"
    [correlation]="tests/e2e/polybench/correlation.c 13"
    [lu]="tests/e2e/polybench/lu.c 12"
    [cholesky]="tests/e2e/polybench/cholesky.c 12"
    [floyd-warshall]="tests/e2e/polybench/floyd-warshall.c 6"
    [jacobi-2d]="tests/e2e/polybench/jacobi-2d.c 30"
    [heat-3d]="tests/e2e/polybench/heat-3d.c 8"
    [fdtd-2d]="tests/e2e/polybench/fdtd-2d.c 30"
)
order=(matmul jacobi 2mm 3mm gemm syrk syr2k trmm covariance correlation lu cholesky
    floyd-warshall jacobi-2d heat-3d fdtd-2d)
kernels=("$@")
[ ${#kernels[@]} -gt 0 ] || kernels=("${order[@]}")
BASELINE=${BASELINE:-}
builds=(seq omp cape)
[ -z "$BASELINE" ] || builds+=(base)

OUT=$ROOT/bench-out/codegen
mkdir -p "$OUT"
# shellcheck source=scripts/bench_timer.sh
source scripts/bench_timer.sh
bench_timer_header "$OUT"

for k in "${kernels[@]}"; do
    read -r -a s <<<"${spec[$k]:?unknown kernel $k}"
    src=${s[0]}
    instrument "$src" "${s[1]}" >"$OUT/$k.c"
    inc=(-I "$(dirname "$ROOT/$src")" -include "$OUT/bench_timer.h")
    gcc -O2 "${inc[@]}" "$OUT/$k.c" -o "$OUT/$k-seq" -lm 2>/dev/null
    gcc -O2 -fopenmp "${inc[@]}" "$OUT/$k.c" -o "$OUT/$k-omp" -lm
    "$CAPECC" -O2 "${inc[@]}" "$OUT/$k.c" -o "$OUT/$k-cape" -lm
    [ -z "$BASELINE" ] || CAPECC_RUNTIME=$BASELINE/libcapert.a \
        "$BASELINE/capecc" -O2 "${inc[@]}" "$OUT/$k.c" -o "$OUT/$k-base" -lm
done

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
# The 95 % interval of capecc's median over gcc -fopenmp's, by the bootstrap: the repetitions
# are drawn again with replacement (a repetition keeps its pair of runs, which ran side by
# side) 2000 times, and the 2.5th and 97.5th percentiles of the ratio are printed. On a
# machine whose speed moves between runs, a median ratio of 1.01 is a verdict only when the
# interval leaves out 1.
interval() { # "cape t1 t2 ..." and "omp t1 t2 ..." on stdin
    awk 'function med(a, n,   i, j, t, b) {
             for (i = 1; i <= n; i++) b[i] = a[i]
             for (i = 2; i <= n; i++) { t = b[i]; for (j = i - 1; j >= 1 && b[j] > t; j--) b[j + 1] = b[j]; b[j + 1] = t }
             return (n % 2) ? b[(n + 1) / 2] : (b[n / 2] + b[n / 2 + 1]) / 2
         }
         $1 == "cape" { n = NF - 1; for (i = 2; i <= NF; i++) c[i - 1] = $i }
         $1 == "omp" { for (i = 2; i <= NF; i++) o[i - 1] = $i }
         END {
             srand(1); B = 2000
             for (b = 1; b <= B; b++) {
                 for (i = 1; i <= n; i++) { r = int(rand() * n) + 1; cc[i] = c[r]; oo[i] = o[r] }
                 q[b] = med(cc, n) / med(oo, n)
             }
             for (i = 2; i <= B; i++) { t = q[i]; for (j = i - 1; j >= 1 && q[j] > t; j--) q[j + 1] = q[j]; q[j + 1] = t }
             printf "%.3f-%.3f", q[int(0.025 * B) + 1], q[int(0.975 * B)]
         }'
}
# the fastest and the slowest of a list of times
range() { tr ' ' '\n' <<<"$1" | grep . | sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { print lo, hi }'; }

echo "load before the run: $(uptime)" >&2
head="| kernel | gcc -O2 (s) | gcc -fopenmp, 1 thread (s) | capecc, P = 1 (s) | capecc / gcc -O2 | capecc / gcc -fopenmp | capecc min-max (s) | gcc -fopenmp min-max (s) | capecc / gcc -fopenmp, fastest runs | capecc / gcc -fopenmp, 95 % interval | load |"
rule="|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
BENCH_LOCK=${BENCH_LOCK:-}
[ -z "$BASELINE" ] || { head+=" baseline capecc, P = 1 (s) |"; rule+="---:|"; }
echo "$head"
echo "$rule"
for k in "${kernels[@]}"; do
    read -r -a s <<<"${spec[$k]}"
    args=("${s[@]:2}")
    expected=$("$OUT/$k-seq" "${args[@]}" 2>/dev/null)
    declare -A times=([seq]="" [omp]="" [cape]="" [base]="")
    if [ -n "$BENCH_LOCK" ]; then
        exec 9>"$BENCH_LOCK"
        flock -x 9
    fi
    load=$(cut -d' ' -f1 /proc/loadavg)
    for ((r = 0; r < REPS; r++)); do
        nb=${#builds[@]}
        for ((i = 0; i < nb; i++)); do
            b=${builds[$(((r + i) % nb))]}
            case $b in
            seq) run=("$OUT/$k-seq") ;;
            omp) run=(env OMP_NUM_THREADS=1 "$OUT/$k-omp") ;;
            cape | base) run=(mpirun -np 1 "$OUT/$k-$b") ;;
            esac
            got=$("${run[@]}" "${args[@]}" 2>"$OUT/$k-$b.err")
            if [ "$got" != "$expected" ]; then
                echo "bench_codegen.sh: $k ($b) printed another answer than the sequential build" >&2
                exit 1
            fi
            t=$(awk '$1 == "kernel_seconds" { print $2 }' "$OUT/$k-$b.err")
            [ -n "$t" ] || { echo "bench_codegen.sh: $k ($b) printed no kernel time" >&2; exit 1; }
            times[$b]+="$t "
        done
    done
    [ -z "$BENCH_LOCK" ] || exec 9>&-
    # every run's time, in the order of the runs, for the distribution
    for b in "${builds[@]}"; do echo "$b ${times[$b]}"; done >"$OUT/$k.times"
    ms=$(tr ' ' '\n' <<<"${times[seq]}" | grep . | median)
    mo=$(tr ' ' '\n' <<<"${times[omp]}" | grep . | median)
    mc=$(tr ' ' '\n' <<<"${times[cape]}" | grep . | median)
    read -r clo chi <<<"$(range "${times[cape]}")"
    read -r olo ohi <<<"$(range "${times[omp]}")"
    ci=$(grep -E '^(cape|omp) ' "$OUT/$k.times" | interval)
    row=$(awk -v k="$k" -v s="$ms" -v o="$mo" -v c="$mc" -v clo="$clo" -v chi="$chi" \
        -v olo="$olo" -v ohi="$ohi" -v l="$load" -v ci="$ci" \
        'BEGIN { printf "| %s | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f-%.3f | %.3f-%.3f | %.3f | %s | %s |",
                 k, s, o, c, c / s, c / o, clo, chi, olo, ohi, clo / olo, ci, l }')
    [ -z "$BASELINE" ] || row+=$(tr ' ' '\n' <<<"${times[base]}" | grep . | median | awk '{ printf " %.3f |", $1 }')
    echo "$row"
done
echo "load after the run:  $(uptime)" >&2
