#!/usr/bin/env bash
# Benchmark of fault tolerance, side by side in one run (results also in bench-out/ft/results.md):
#  1. overhead: examples/matmul.c N = 1500 and examples/jacobi.c N = 2000 (100 sweeps) at
#     P = 2, plain `mpirun` (no log) against `CAPE_CHECKPOINT=DIR mpirun` and `caperun` with
#     their defaults, interleaved, medians of BENCH_REPS (default 5); every output compared
#     with the no-log run's;
#  2. log size: the log of jacobi after 10,000 regions (N = BENCH_LOG_N, default 300), against
#     the shared data (its two N x N grids), and the payload bytes logged per region;
#  3. failure: jacobi N = 2000 (BENCH_KILL_SWEEPS sweeps, default 100) under caperun at P = 4,
#     one rank SIGKILLed when rank 0 reports a random region in the middle 80 % of the run
#     ([10, 90] for 100 sweeps) and, with BENCH_KILL_DURABLE=1, once the log holds a durable
#     region (a snapshot, in caperun's default snapshot mode), BENCH_KILLS times (default 10):
#     detection (kill -> the failed job's mpirun gone), recovery (kill -> the relaunched job
#     runs the region after the one the failed job was in: rank 0's `CAPE_STATS=2` lines,
#     which replayed regions do not print and which count from 1 after the durable regions),
#     against re-running from scratch (the undisturbed
#     run); the output must be the undisturbed run's.
#     The recovery is also taken apart step by step (CAPE_STATS=2 lines of caperun and rank 0).
# Ranks of parts 1 and 2 run at real-time priority (chrt -f 10) when BENCH_RT=1 (root only).
# BENCH_BASE=DIR (a directory with the capecc, caperun and libcapert.a of another build, e.g.
# main's) runs that build side by side: part 1 adds its caperun column (its own programs),
# part 3 alternates its kills with ours.
# BENCH_PML (default ob1) is exported as OMPI_MCA_pml to every run, so that plain mpirun
# starts like caperun, which sets ob1 on one node (an empty value: Open MPI's own choice).
#
# usage: scripts/bench_ft.sh     environment: BENCH_REPS, BENCH_KILLS, BENCH_LOG_N, BENCH_RT,
#                                BENCH_KILL_SWEEPS, BENCH_KILL_DURABLE, CAPECC, CAPERUN,
#                                BENCH_BASE, BENCH_PML,
#                                BENCH_PARTS (which of 1 2 3 to run, default all: a long
#                                benchmark split into several runs)
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/env.sh
source scripts/env.sh
unset OMP_NUM_THREADS CAPE_CHECKPOINT CAPE_RESTART CAPE_CHECKPOINT_EVERY CAPE_CHECKPOINT_COMPACT
REPS=${BENCH_REPS:-5}
KILLS=${BENCH_KILLS:-10}
LOG_N=${BENCH_LOG_N:-300}
KILL_SWEEPS=${BENCH_KILL_SWEEPS:-100}
KILL_DURABLE=${BENCH_KILL_DURABLE:-0}
PARTS=" ${BENCH_PARTS:-1 2 3} "
part() { [[ $PARTS == *" $1 "* ]]; }
CAPECC=${CAPECC:-${CARGO_TARGET_DIR:-$ROOT/target}/release/capecc}
CAPERUN=${CAPERUN:-$(dirname "$CAPECC")/caperun}
RT=()
[ "${BENCH_RT:-0}" = 1 ] && RT=(chrt -f 10)
PML=${BENCH_PML-ob1}
if [ -n "$PML" ]; then export OMPI_MCA_pml=$PML; else unset OMPI_MCA_pml; fi
BASE=${BENCH_BASE:-}
OUT=$ROOT/bench-out/ft
rm -rf "$OUT"
mkdir -p "$OUT/base"
builds=("$CAPECC|$OUT")
[ -n "$BASE" ] && builds+=("$BASE/capecc|$OUT/base")
for b in "${builds[@]}"; do
    IFS='|' read -r cc dir <<<"$b"
    for name in jacobi matmul; do
        CAPECC_RUNTIME=$(dirname "$cc") "$cc" -O2 "examples/$name.c" -o "$dir/$name" -lm || {
            echo "bench_ft.sh: $cc failed on examples/$name.c" >&2
            exit 1
        }
    done
    cp "$dir/jacobi" "$dir/victim"
done

now_ns() { date +%s%N; }
header_word() { od -An -t u8 -j "$2" -N 8 "$1" 2>/dev/null | tr -d ' '; }
# runs a command, prints its wall-clock seconds; stdout to $OUT/last.out
timed() {
    local start end
    start=$(now_ns)
    "$@" >"$OUT/last.out" 2>"$OUT/last.err" </dev/null || {
        echo "bench_ft.sh: failed: $*" >&2
        tail -n 3 "$OUT/last.err" >&2
    }
    end=$(now_ns)
    echo "scale=3; ($end - $start) / 1000000000" | bc
}
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
pct() { echo "scale=1; ($1 - $2) * 100 / $2" | bc; }

# 1. overhead
rows=()
part 1 || rows=("| (not run) |")
for p in "matmul|1500" "jacobi|2000 100"; do
    part 1 || break
    IFS='|' read -r name args <<<"$p"
    read -r -a argv <<<"$args"
    off=() on=() rt=() base=()
    for _ in $(seq "$REPS"); do
        off+=("$(timed "${RT[@]}" mpirun -np 2 "$OUT/$name" "${argv[@]}")")
        cp "$OUT/last.out" "$OUT/$name.want"
        rm -rf "$OUT/ck"
        rt+=("$(CAPE_CHECKPOINT=$OUT/ck timed "${RT[@]}" mpirun -np 2 "$OUT/$name" "${argv[@]}")")
        cmp -s "$OUT/last.out" "$OUT/$name.want" || echo "bench_ft.sh: $name: output with the log differs" >&2
        rm -rf "$OUT/ck"
        on+=("$(timed "${RT[@]}" "$CAPERUN" -np 2 --checkpoint "$OUT/ck" "$OUT/$name" "${argv[@]}")")
        cmp -s "$OUT/last.out" "$OUT/$name.want" || echo "bench_ft.sh: $name: output under caperun differs" >&2
        [ -n "$BASE" ] || continue
        rm -rf "$OUT/ckb"
        base+=("$(timed "${RT[@]}" "$BASE/caperun" -np 2 --checkpoint "$OUT/ckb" "$OUT/base/$name" "${argv[@]}")")
        cmp -s "$OUT/last.out" "$OUT/$name.want" || echo "bench_ft.sh: $name: output under the baseline's caperun differs" >&2
    done
    regions=$(header_word "$OUT/ck/cape.log" 48)
    size=$(stat -c %s "$OUT/ck/cape.log")
    m_off=$(median "${off[@]}")
    m_on=$(median "${on[@]}")
    m_rt=$(median "${rt[@]}")
    b_cols="- | -"
    [ -n "$BASE" ] && m_b=$(median "${base[@]}") && b_cols="$m_b | $(pct "$m_b" "$m_off") %"
    rows+=("| $name $args | $regions | $((size / 1024)) | $m_off | $m_rt | $m_on | $(pct "$m_rt" "$m_off") % | $(pct "$m_on" "$m_off") % | $b_cols |")
    echo "runs (s): mpirun ${off[*]}; CAPE_CHECKPOINT ${rt[*]}; caperun ${on[*]}; baseline caperun ${base[*]}"
    echo "${rows[-1]}"
done

# 2. log size after 10,000 regions
log_row="| (not run) |"
if part 2; then
    rm -rf "$OUT/cklong"
    t_long=$(timed "${RT[@]}" "$CAPERUN" -np 2 --checkpoint "$OUT/cklong" "$OUT/jacobi" "$LOG_N" 10000)
    regions=$(header_word "$OUT/cklong/cape.log" 48)
    size=$(stat -c %s "$OUT/cklong/cape.log")
    shared=$((2 * LOG_N * LOG_N * 8))
    log_row="| jacobi $LOG_N 10000 | $regions | $t_long | $((size / 1024)) | $((shared / 1024)) | $(echo "scale=2; $size / $shared" | bc) |"
    echo "$log_row"
fi

# 3. failure and recovery at P = 4
want=$OUT/victim.want
t_full="(not run)"
part 3 || KILLS=0
[ "$KILLS" -gt 0 ] && t_full=$(timed mpirun -np 4 "$OUT/victim" 2000 "$KILL_SWEEPS")
cp "$OUT/last.out" "$want" 2>/dev/null
# the region rank 0 is at: the last `capert: stats: region K:` line (CAPE_STATS=2) of stderr
region_now() { sed -n 's/^capert: stats: region \([0-9]*\):.*/\1/p' "$1" | tail -n 1; }
# the steps of a recovery: caperun's and rank 0's `... stats: STEP at SECONDS` lines (caperun's
# first: the failed attempt's; rank 0's last: the relaunch's), in ms after the kill
STEPS=("caperun: stats: rank death seen" "caperun: stats: job killed" "caperun: stats: mpirun gone"
    "caperun: stats: mpirun starts (restart)" "capert: stats: ft: runtime start"
    "capert: stats: ft: MPI_Init begins" "capert: stats: ft: MPI_Init done"
    "capert: stats: ft: log open" "capert: stats: ft: replay begins"
    "capert: stats: ft: snapshot region reached" "capert: stats: ft: snapshot injected"
    "capert: stats: ft: replay done")
declare -A step_ms
step_at() { # STEP FILE KILL_NS: ms from the kill to the step's last line, or -
    local t
    local which=(tail -n 1)
    [[ $1 == caperun* ]] && which=(head -n 1)
    t=$(grep -F "$1 at " "$2" | "${which[@]}" | sed 's/.* at \([0-9.]*\)$/\1/')
    [ -n "$t" ] && echo "($t * 1000000000 - $3) / 1000000" | bc || echo -
}
declare -A detects recovers totals lost
# one kill under the caperun of build TAG (new: ours, base: BENCH_BASE's), kill number I
kill_once() { # TAG I
    local tag=$1 i=$2 run=$CAPERUN dir=$OUT
    [ "$tag" = base ] && run=$BASE/caperun && dir=$OUT/base
    rm -rf "$OUT/ckk"
    target=$((KILL_SWEEPS / 10 + RANDOM % (KILL_SWEEPS * 8 / 10 + 1)))
    start=$(now_ns)
    # normal priority: ranks polling at real-time priority can keep a killed job from dying
    CAPE_STATS=2 "$run" -np 4 --checkpoint "$OUT/ckk" "$dir/victim" 2000 "$KILL_SWEEPS" </dev/null >"$OUT/kill.out" 2>"$OUT/kill.err" &
    job=$!
    # a random region: kill when rank 0 has reported it (and the log holds a durable region)
    while kill -0 "$job" 2>/dev/null; do
        now_at=$(region_now "$OUT/kill.err")
        if [ "${now_at:-0}" -ge "$target" ]; then
            [ "$KILL_DURABLE" = 1 ] || break
            [ "$(header_word "$OUT/ckk/cape.log" 48)" -gt 0 ] 2>/dev/null && break
        fi
        sleep 0.005
    done
    mpirun_pid=$(pgrep -P "$job" | head -n 1)
    victims=$(pgrep -x victim)
    # shellcheck disable=SC2086
    victim=$(shuf -n 1 -e $victims 2>/dev/null)
    if [ -z "$victim" ] || [ -z "$mpirun_pid" ]; then
        echo "bench_ft.sh: kill $i ($tag): the job was not running" >&2
        wait $job
        return
    fi
    kill -9 "$victim"
    t_kill=$(now_ns)
    at=$(region_now "$OUT/kill.err")
    while kill -0 "$mpirun_pid" 2>/dev/null; do sleep 0.002; done
    t_gone=$(now_ns)
    # back where it was: the relaunch runs region at + 1. Its replayed regions print no line
    # and it numbers the regions it runs from 1: its region K is region durable + K.
    lines=$(wc -l <"$OUT/kill.err")
    durable=
    while kill -0 "$job" 2>/dev/null && [ -z "$durable" ]; do
        durable=$(sed -n 's/^caperun: attempt 1 failed.*(\([0-9]*\) regions durable.*/\1/p; s/^caperun: attempt 1 failed.*(no log written.*/0/p' "$OUT/kill.err")
        sleep 0.002
    done
    while kill -0 "$job" 2>/dev/null; do
        now_at=$(tail -n +"$((lines + 1))" "$OUT/kill.err" | sed -n 's/^capert: stats: region \([0-9]*\):.*/\1/p' | tail -n 1)
        [ -n "$now_at" ] && [ "$((now_at + ${durable:-0}))" -gt "${at:-0}" ] && break
        sleep 0.005
    done
    t_back=$(now_ns)
    wait $job
    end=$(now_ns)
    grep -v '^capert: stats' "$OUT/kill.out" | cmp -s - "$want" || echo "bench_ft.sh: kill $i ($tag): output after the relaunch differs" >&2
    local d=$(((t_gone - t_kill) / 1000000)) r=$(((t_back - t_kill) / 1000000))
    local t l
    t=$(echo "scale=3; ($end - $start) / 1000000000" | bc)
    l="$(sed -n 's/.*failed after.*(\([0-9]*\) regions durable.*/\1/p' "$OUT/kill.err")/${at:-?}"
    detects[$tag]+="$d " recovers[$tag]+="$r " totals[$tag]+="$t " lost[$tag]+="$l "
    echo "kill $i ($tag): at region ${at:-?}, detected $d ms, back after $r ms, durable/at $l, total $t s"
    [ "$tag" = new ] || return
    steps=""
    for s in "${STEPS[@]}"; do
        ms=$(step_at "$s" "$OUT/kill.err" "$t_kill")
        step_ms[$s]+="$ms "
        steps+="${s##*stats: }=$ms "
    done
    echo "  steps (ms after the kill): $steps"
}
tags=(new)
[ -n "$BASE" ] && tags+=(base)
for i in $(seq "$KILLS"); do
    for tag in "${tags[@]}"; do
        kill_once "$tag" "$i"
    done
done

{
    echo "Machine: $(nproc) cores, $(uname -r), load before: $(cut -d' ' -f1-3 /proc/loadavg); priority: ${RT[*]:-normal}."
    echo
    echo "Overhead at P = 2, medians of $REPS interleaved runs (s, wall clock):"
    echo
    echo "OMPI_MCA_pml: ${PML:-the Open MPI default}; baseline: ${BASE:-none}."
    echo
    echo "| program (args) | regions durable | log KiB at the end | mpirun | CAPE_CHECKPOINT + mpirun | caperun | overhead (runtime) | overhead (caperun) | baseline caperun | overhead (baseline) |"
    echo "|---|---|---|---|---|---|---|---|---|---|"
    printf '%s\n' "${rows[@]}"
    echo
    echo "Log size after 10,000 regions (P = 2):"
    echo
    echo "| program (args) | regions | time (s) | log KiB | shared data KiB | log/shared |"
    echo "|---|---|---|---|---|---|"
    echo "$log_row"
    echo
    echo "A rank SIGKILLed at a random time of jacobi 2000 $KILL_SWEEPS at P = 4 under caperun, $KILLS times (medians; after a durable region: $KILL_DURABLE):"
    echo
    echo "| build | undisturbed (s) | detection (ms) | kill -> back where it was (ms) | total with the failure (s) |"
    echo "|---|---|---|---|---|"
    for tag in "${tags[@]}"; do
        # shellcheck disable=SC2086
        [ -n "${detects[$tag]:-}" ] && echo "| $tag | $t_full | $(median ${detects[$tag]}) | $(median ${recovers[$tag]}) | $(median ${totals[$tag]}) |"
    done
    echo
    for tag in "${tags[@]}"; do
        echo "$tag: detection (ms): ${detects[$tag]:-}; back (ms): ${recovers[$tag]:-}; regions durable/reached at the kill: ${lost[$tag]:-}"
    done
    if [ "$KILLS" -gt 0 ]; then
        echo
        echo "The recovery step by step (\`CAPE_STATS=2\` lines of caperun and of the relaunch's rank 0; medians, ms after the kill):"
        echo
        echo "| step | median (ms) | every kill |"
        echo "|---|---|---|"
        for s in "${STEPS[@]}"; do
            # shellcheck disable=SC2086
            vals=$(printf '%s\n' ${step_ms[$s]} | grep -v '^-$')
            # shellcheck disable=SC2086
            echo "| ${s##*stats: } | $( [ -n "$vals" ] && median $vals || echo -) | ${step_ms[$s]}|"
        done
        # shellcheck disable=SC2086
        echo "| back where it was | $(median ${recovers[new]:-0}) | ${recovers[new]:-}|"
    fi
} | tee "$OUT/results.md"
