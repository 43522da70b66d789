#!/usr/bin/env bash
# Hybrid execution (R ranks of T threads each, docs/hybrid.md), not a test. Three parts:
# 1. speed: matmul, jacobi, pi and the fixed cost of an empty region
#    (bench_region/region_cost.c) built with gcc -fopenmp (2 threads) and with capecc, run at
#    (R, T) = (1, 2) and (2, 1); the runs alternate in one script run, medians are printed
#    with the ratio to gcc: the kernel time (a timer around the parallel part of main, as in
#    bench_codegen.sh: no process or MPI start-up) and the process time. The sizes make the
#    kernel take more than a second at 2 threads. Every kernel's output is checked against
#    the sequential build.
# 2. memory: the peak resident size of each rank of jacobi at (2, 1), (2, 2) and (2, 4).
# 3. a simulated cluster: jacobi with CAPE_STATS=1 and the eager merge at several (R, T):
#    the iterations each rank runs and the bytes it sends per join.
# 4. critical (not in the default set): the cost of a general critical section
#    (scripts/bench_critical/critical_cost.c, a read-modify-write under the unnamed critical,
#    and the same under a lock set and unset in helpers) per acquisition, and of an `atomic`
#    update (mode 7: a long += 1, mode 8: a double += 1.0), over the loop alone (mode 5),
#    gcc -fopenmp at R*T threads against capecc at (R, T) = (1, 2) and (2, 2) (BENCH_SHAPES),
#    alternating. BENCH_CRITICAL_MODES picks the modes (default "1 4 6 7 8"; 5 always runs),
#    CAPECC_BASE adds a row for another capecc (a baseline build), run in the same rotation.
#
# usage: scripts/bench_hybrid.sh [speed] [memory] [cluster] [critical]   (default: the first three)
# Ranks run with `--bind-to none` (Open MPI binds a rank to one core by default, which would
# put all its threads on that core).
# environment: BENCH_REPS (default 5), CAPECC (default target/release/capecc),
#              BASELINE (optional, speed: a directory with an earlier capecc and libcapert.a;
#              its builds run at (1, 2) and (2, 1) too, interleaved with the others),
#              BENCH_KERNELS (speed: default "matmul jacobi pi region"; a subset, e.g. to
#              hold a lock per kernel),
#              BENCH_RT=0 to run without real-time priority (as root the runs get
#              chrt -f 10, so that other jobs on the machine do not preempt them).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/env.sh
source scripts/env.sh
unset OMP_NUM_THREADS CAPE_STATS CAPE_MERGE
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1

CAPECC=${CAPECC:-$ROOT/target/release/capecc}
REPS=${BENCH_REPS:-5}
parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(speed memory cluster)
rt=()
[ "$(id -u)" = 0 ] && [ "${BENCH_RT:-1}" != 0 ] && rt=(chrt -f 10)
OUT=$ROOT/bench-out/hybrid
mkdir -p "$OUT"
[ -x "$CAPECC" ] || cargo build --release -q

declare -A args=([matmul]="1500" [jacobi]="2000 500" [pi]="4000000000" [region]="1 0 3000")
declare -A src=([matmul]=examples/matmul.c [jacobi]=examples/jacobi.c [pi]=examples/pi.c
    [region]=scripts/bench_region/region_cost.c [critical]=scripts/bench_critical/critical_cost.c)
# shellcheck source=scripts/bench_timer.sh
source scripts/bench_timer.sh
bench_timer_header "$OUT"
for k in "${!src[@]}"; do
    file=${src[$k]}
    inc=()
    case $k in
    matmul | jacobi | pi)
        instrument "$file" - >"$OUT/$k.c"
        file=$OUT/$k.c
        inc=(-I "$ROOT/examples" -include "$OUT/bench_timer.h")
        ;;
    esac
    gcc -O2 -fopenmp "${inc[@]}" "$file" -o "$OUT/$k-gcc" -lm
    gcc -O2 -Wno-unknown-pragmas "${inc[@]}" "$file" -o "$OUT/$k-seq" -lm 2>/dev/null || true
    "$CAPECC" -O2 "${inc[@]}" "$file" -o "$OUT/$k-cape" -lm
    if [ "$k" = critical ] && [ -n "${CAPECC_BASE:-}" ]; then
        "$CAPECC_BASE" -O2 "$file" -o "$OUT/$k-base" -lm
    fi
    [ -z "${BASELINE:-}" ] || CAPECC_RUNTIME=$BASELINE/libcapert.a \
        "$BASELINE/capecc" -O2 "${inc[@]}" "$file" -o "$OUT/$k-base" -lm
done

median() {
    sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'
}

# run KERNEL HOW: prints the kernel time and the wall time of the process in seconds
# (region: the median region time in us); HOW is gcc (2 threads), RxT or base-RxT (BASELINE)
run() {
    local k=$1 how=$2 start end got kernel build=cape
    read -r -a a <<<"${args[$k]}"
    case $how in base-*) build=base how=${how#base-} ;; esac
    start=$(date +%s.%N)
    if [ "$how" = gcc ]; then
        got=$(OMP_NUM_THREADS=2 "${rt[@]}" "$OUT/$k-gcc" "${a[@]}" 2>"$OUT/$k.err")
    else
        got=$(OMP_NUM_THREADS=${how#*x} mpirun --bind-to none -np "${how%x*}" "${rt[@]}" \
            "$OUT/$k-$build" "${a[@]}" 2>"$OUT/$k.err")
    fi
    end=$(date +%s.%N)
    if [ "$k" = region ]; then
        echo "$got" | sed -n 's/.*median_us \([0-9.]*\).*/\1/p' | head -n 1
        return
    fi
    if [ "$got" != "$(cat "$OUT/$k.expected")" ]; then
        echo "bench_hybrid.sh: $k ($how) printed another answer than the sequential build" >&2
        exit 1
    fi
    kernel=$(awk '$1 == "kernel_seconds" { print $2; exit }' "$OUT/$k.err")
    [ -n "$kernel" ] || { echo "bench_hybrid.sh: $k ($how) printed no kernel time" >&2; exit 1; }
    awk -v k="$kernel" -v s="$start" -v e="$end" 'BEGIN { print k, e - s }'
}

speed() {
    echo "== speed: gcc -fopenmp at 2 threads vs capecc at (R, T) = (1, 2) and (2, 1)"
    echo "   (seconds, medians of $REPS; kernel: timer around the parallel part, process: the"
    echo "   whole run with mpirun; region: median microseconds of one empty region)"
    echo "load before: $(uptime)"
    local hows=(gcc 1x2 2x1) head=(kernel gcc-2 cape-1x2 cape-2x1 1x2/gcc 2x1/gcc)
    [ -z "${BASELINE:-}" ] || { hows+=(base-1x2 base-2x1); head+=(base-1x2 base-2x1 b1x2/gcc b2x1/gcc); }
    printf '%-14s' "${head[0]}"
    printf ' %10s' "${head[@]:1}"
    echo
    for k in ${BENCH_KERNELS:-matmul jacobi pi region}; do
        read -r -a a <<<"${args[$k]}"
        [ "$k" = region ] || "$OUT/$k-seq" "${a[@]}" >"$OUT/$k.expected" 2>/dev/null
        declare -A t=()
        for ((r = 0; r < REPS; r++)); do
            for how in "${hows[@]}"; do
                t[$how]+="$(run "$k" "$how");"
            done
        done
        local cols=(1)
        [ "$k" = region ] || cols=(1 2)
        for c in "${cols[@]}"; do
            declare -A m=()
            for how in "${hows[@]}"; do
                m[$how]=$(echo "${t[$how]}" | tr ';' '\n' | grep . | awk -v c="$c" '{ print $c }' | median)
            done
            name=$k
            [ "$k" = region ] || { [ "$c" = 1 ] && name="$k kernel" || name="$k process"; }
            ratio() { awk -v a="${m[$1]}" -v b="${m[gcc]}" 'BEGIN { printf "%.3f", a / b }'; }
            printf '%-14s %10s %10s %10s %10s %10s' "$name" "${m[gcc]}" "${m[1x2]}" "${m[2x1]}" \
                "$(ratio 1x2)" "$(ratio 2x1)"
            [ -z "${BASELINE:-}" ] || printf ' %10s %10s %10s %10s' "${m[base-1x2]}" "${m[base-2x1]}" \
                "$(ratio base-1x2)" "$(ratio base-2x1)"
            echo
            unset m
        done
        unset t
    done
    echo "load after:  $(uptime)"
}

memory() {
    echo "== memory: peak resident size of each jacobi rank (KiB)"
    for how in 2x1 2x2 2x4; do
        OMP_NUM_THREADS=${how#*x} mpirun --bind-to none -np "${how%x*}" /usr/bin/time -f 'maxrss_kib=%M' \
            "$OUT/jacobi-cape" 1000 20 2>&1 >/dev/null | grep -o 'maxrss_kib=[0-9]*' |
            tr '\n' ' ' | sed "s/^/$how: /"
        echo
    done
}

cluster() {
    echo "== simulated cluster: jacobi 1000 20, CAPE_MERGE=eager, CAPE_STATS=1"
    printf '%-6s %8s %14s %14s\n' R.T regions sent/rank/join run_bytes/rank
    for how in 2x1 1x2 2x2 4x1 2x3 3x2; do
        OMP_NUM_THREADS=${how#*x} CAPE_MERGE=eager CAPE_STATS=1 mpirun --bind-to none -np "${how%x*}" \
            "$OUT/jacobi-cape" 1000 20 2>&1 >/dev/null | grep 'stats: total' |
            awk -v how="$how" '{
                for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
                n++; regions = v["regions"]; sent += v["bytes_sent"]; run += v["run_bytes"]
            } END {
                if (n == 0 || regions == 0) { printf "%-6s (no stats: one rank merges nothing)\n", how; exit }
                printf "%-6s %8d %14d %14d\n", how, regions, sent / n / regions, run / n
            }'
    done
}

# medians_of "T1 T2 ...": their median (nothing for none)
medians_of() {
    [ -n "${1// /}" ] || return 0
    echo "$1" | tr ' ' '\n' | grep . | median
}

# per_unit MODE_SECONDS LOOP_SECONDS N DIGITS: microseconds per operation over the loop alone
# ("-" for a mode that did not run)
per_unit() {
    [ -n "$1" ] || { echo -; return; }
    awk -v a="$1" -v b="$2" -v n="$3" -v d="$4" 'BEGIN { printf "%.*f\n", d, (a - b) / n * 1e6 }'
}

critical() {
    local n=${BENCH_CRITICAL_N:-200000} shape mode how got
    local modes=(5 ${BENCH_CRITICAL_MODES:-1 4 6 7 8}) hows=(gcc cape)
    [ -n "${CAPECC_BASE:-}" ] && hows+=(base)
    echo "== critical: per acquisition (us) of a general section (mode 1), of a lock pair in"
    echo "   helpers (mode 4), of the section taken by threads 0 and 1 only (mode 6) and of an"
    echo "   atomic update of a long (mode 7) and of a double (mode 8) over the loop alone"
    echo "   (mode 5), N = $n; kernel seconds, medians"
    echo "load before: $(uptime)"
    printf '%-6s %-5s %10s %10s %10s %10s %10s %10s %9s %9s %9s %9s %9s\n' shape who loop section helpers two \
        atom-long atom-dbl us/sect us/help us/two us/long us/dbl
    for shape in ${BENCH_SHAPES:-1x2 2x2}; do
        declare -A t=()
        for ((r = 0; r < REPS; r++)); do
            for mode in "${modes[@]}"; do
                for how in "${hows[@]}"; do
                    if [ "$how" = gcc ]; then
                        got=$(OMP_NUM_THREADS=$((${shape%x*} * ${shape#*x})) "${rt[@]}" \
                            "$OUT/critical-gcc" "$mode" "$n" 2>"$OUT/critical.err")
                    else
                        got=$(OMP_NUM_THREADS=${shape#*x} mpirun --bind-to none -np "${shape%x*}" \
                            "${rt[@]}" "$OUT/critical-$how" "$mode" "$n" 2>"$OUT/critical.err")
                    fi
                    if [ "$got" != "$n" ]; then
                        echo "bench_hybrid.sh: critical mode $mode ($how, $shape) printed $got" >&2
                        exit 1
                    fi
                    t[$how$mode]+="$(awk '$1 == "kernel_seconds" { print $2; exit }' "$OUT/critical.err") "
                done
            done
        done
        for how in "${hows[@]}"; do
            m0=$(medians_of "${t[${how}5]:-}")
            m1=$(medians_of "${t[${how}1]:-}")
            m4=$(medians_of "${t[${how}4]:-}")
            m6=$(medians_of "${t[${how}6]:-}")
            ma=$(medians_of "${t[${how}7]:-}")
            md=$(medians_of "${t[${how}8]:-}")
            printf '%-6s %-5s %10s %10s %10s %10s %10s %10s %9s %9s %9s %9s %9s\n' "$shape" "$how" "$m0" \
                "${m1:--}" "${m4:--}" "${m6:--}" "${ma:--}" "${md:--}" \
                "$(per_unit "$m1" "$m0" "$n" 3)" "$(per_unit "$m4" "$m0" "$n" 3)" \
                "$(per_unit "$m6" "$m0" "$n" 3)" "$(per_unit "$ma" "$m0" "$n" 4)" \
                "$(per_unit "$md" "$m0" "$n" 4)"
        done
        unset t
    done
    echo "load after:  $(uptime)"
}

for p in "${parts[@]}"; do
    "$p"
done
