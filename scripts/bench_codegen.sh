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
# With BENCH_LAYOUTS=L > 1 every build is also linked in L - 1 other code layouts: an object
# holding nothing but a run of L * 1552 mod 4096 bytes of padding (a multiple of 16) is
# linked first, in the section the linker places before all other code, so that every
# function of the program (the kernel's loops included) moves by that many bytes and nothing
# else changes. Every build gets the same layouts, each repetition runs every layout of every
# build, and the medians are taken over all of them. On this machine a loop's speed can depend
# on its address (the same gcc -fopenmp loop 16 bytes further on runs a third slower,
# docs/codegen.md, thirteenth round), so one layout per build compares the builds' luck as
# much as their code (Mytkowicz et al., "Producing wrong data without doing anything
# obviously wrong!", ASPLOS 2009); several layouts compare the code.
#
# usage: scripts/bench_codegen.sh [KERNEL ...]   (default: all of the list below)
# environment: BENCH_REPS (default 9), CAPECC (default target/release/capecc),
#              BASELINE (optional: a directory with an earlier capecc and libcapert.a, timed
#              as a fourth build, interleaved with the others),
#              BENCH_LAYOUTS (default 1: each build as linked; see above),
#              BENCH_METRIC (default seconds; `cycles`: the kernel thread's user-mode cycles,
#              in billions, instead of its time: they leave out the time other processes of
#              a busy machine take from it, not what shares the physical core on the host),
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
LAYOUTS=${BENCH_LAYOUTS:-1}
case ${BENCH_METRIC:=seconds} in
seconds) key=kernel_seconds scale=1 unit=s ;;
cycles) key=kernel_cycles scale=1e-9 unit=Gcycles ;;
*) echo "bench_codegen.sh: BENCH_METRIC is seconds or cycles, not $BENCH_METRIC" >&2; exit 2 ;;
esac
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

# layout m's padding object (none for layout 0: the builds as they are linked by default)
pad_object() {
    local m=$1
    [ "$m" -gt 0 ] || return 0
    local f=$OUT/layout$m
    printf '__attribute__((used, section(".text.unlikely"))) void bench_layout_pad(void) { __asm__(".skip %d, 0x90"); }\n' \
        $((m * 1552 % 4096)) >"$f.c"
    gcc -O2 -c "$f.c" -o "$f.o"
    echo "$f.o"
}
for k in "${kernels[@]}"; do
    read -r -a s <<<"${spec[$k]:?unknown kernel $k}"
    src=${s[0]}
    instrument "$src" "${s[1]}" >"$OUT/$k.c"
    inc=(-I "$(dirname "$ROOT/$src")" -include "$OUT/bench_timer.h")
    for ((m = 0; m < LAYOUTS; m++)); do
        # shellcheck disable=SC2207
        pad=($(pad_object "$m"))
        gcc -O2 "${inc[@]}" "${pad[@]}" "$OUT/$k.c" -o "$OUT/$k-seq-L$m" -lm 2>/dev/null
        gcc -O2 -fopenmp "${inc[@]}" "${pad[@]}" "$OUT/$k.c" -o "$OUT/$k-omp-L$m" -lm
        "$CAPECC" -O2 "${inc[@]}" "${pad[@]}" "$OUT/$k.c" -o "$OUT/$k-cape-L$m" -lm
        [ -z "$BASELINE" ] || CAPECC_RUNTIME=$BASELINE/libcapert.a \
            "$BASELINE/capecc" -O2 "${inc[@]}" "${pad[@]}" "$OUT/$k.c" -o "$OUT/$k-base-L$m" -lm
    done
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
# the median of layout 0's runs in a list of times (each repetition runs the layouts in order)
layout0() { tr ' ' '\n' <<<"$1" | grep . | awk -v l="$LAYOUTS" '(NR - 1) % l == 0' | median; }
# the fastest and the slowest of a list of times
range() { tr ' ' '\n' <<<"$1" | grep . | sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { print lo, hi }'; }

echo "load before the run: $(uptime); $REPS repetitions of $LAYOUTS layout(s) per build; kernel $BENCH_METRIC" >&2
head="| kernel | gcc -O2 ($unit) | gcc -fopenmp, 1 thread ($unit) | capecc, P = 1 ($unit) | capecc / gcc -O2 | capecc / gcc -fopenmp | capecc min-max ($unit) | gcc -fopenmp min-max ($unit) | capecc / gcc -fopenmp, fastest runs | capecc / gcc -fopenmp, 95 % interval | load |"
rule="|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
BENCH_LOCK=${BENCH_LOCK:-}
[ -z "$BASELINE" ] || { head+=" baseline capecc, P = 1 ($unit) |"; rule+="---:|"; }
# with several layouts, also the two ratios of layout 0 alone (the builds as linked by default)
[ "$LAYOUTS" -eq 1 ] || {
    head+=" capecc / gcc -O2, layout 0 | capecc / gcc -fopenmp, layout 0 |"
    rule+="---:|---:|"
}
echo "$head"
echo "$rule"
for k in "${kernels[@]}"; do
    read -r -a s <<<"${spec[$k]}"
    args=("${s[@]:2}")
    expected=$("$OUT/$k-seq-L0" "${args[@]}" 2>/dev/null)
    declare -A times=([seq]="" [omp]="" [cape]="" [base]="")
    if [ -n "$BENCH_LOCK" ]; then
        exec 9>"$BENCH_LOCK"
        flock -x 9
    fi
    load=$(cut -d' ' -f1 /proc/loadavg)
    for ((r = 0; r < REPS; r++)); do
        for ((m = 0; m < LAYOUTS; m++)); do
            nb=${#builds[@]}
            for ((i = 0; i < nb; i++)); do
                b=${builds[$(((r + m + i) % nb))]}
                exe=$OUT/$k-$b-L$m
                case $b in
                seq) run=("$exe") ;;
                omp) run=(env OMP_NUM_THREADS=1 "$exe") ;;
                cape | base) run=(mpirun -np 1 "$exe") ;;
                esac
                got=$("${run[@]}" "${args[@]}" 2>"$exe.err")
                if [ "$got" != "$expected" ]; then
                    echo "bench_codegen.sh: $k ($b, layout $m) printed another answer than the sequential build" >&2
                    exit 1
                fi
                t=$(awk -v key="$key" -v s="$scale" '$1 == key { printf "%.6f\n", $2 * s }' "$exe.err")
                [ -n "$t" ] || {
                    echo "bench_codegen.sh: $k ($b, layout $m) printed no $key (for cycles, perf_event_open must be allowed: kernel.perf_event_paranoid <= 2)" >&2
                    exit 1
                }
                times[$b]+="$t "
            done
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
    if [ "$LAYOUTS" -gt 1 ]; then
        row+=$(awk -v s="$(layout0 "${times[seq]}")" -v o="$(layout0 "${times[omp]}")" \
            -v c="$(layout0 "${times[cape]}")" 'BEGIN { printf " %.3f | %.3f |", c / s, c / o }')
    fi
    echo "$row"
done
echo "load after the run:  $(uptime)" >&2
