#!/usr/bin/env bash
# Benchmark of fault tolerance: for examples/jacobi.c and examples/matmul.c built
# with capecc, at P = 2 and 4,
#   off      mpirun -np P ./prog                           (no log)
#   log      CAPE_CHECKPOINT=DIR mpirun -np P ./prog       (one durable record per region)
#   replay   CAPE_RESTART=COPY mpirun -np P ./prog         (relaunch + replay of the whole log:
#            recovery from a failure just before the end, to compare with re-running from
#            scratch, which takes `off`)
# and one run under caperun with a rank SIGKILLed at about half the run (its own report of
# the time lost). Figures are medians of BENCH_REPS runs (default 5) taken interleaved; every
# output is checked against the `off` run. Log bytes per region come from the log header.
# Prints a Markdown table (also in bench-out/ft/results.md).
#
# usage: scripts/bench_ft.sh            environment: BENCH_REPS, CAPECC, CAPERUN
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/env.sh
source scripts/env.sh
unset OMP_NUM_THREADS CAPE_CHECKPOINT CAPE_RESTART CAPE_CHECKPOINT_EVERY
REPS=${BENCH_REPS:-5}
CAPECC=${CAPECC:-${CARGO_TARGET_DIR:-$ROOT/target}/release/capecc}
CAPERUN=${CAPERUN:-$(dirname "$CAPECC")/caperun}
OUT=$ROOT/bench-out/ft
rm -rf "$OUT"
mkdir -p "$OUT"

# name | source | arguments
programs=("jacobi|examples/jacobi.c|200 300" "matmul|examples/matmul.c|800")
for p in "${programs[@]}"; do
    IFS='|' read -r name src _ <<<"$p"
    "$CAPECC" -O2 "$src" -o "$OUT/$name" -lm || {
        echo "bench_ft.sh: capecc failed on $src" >&2
        exit 1
    }
done

header_word() { od -An -t u8 -j "$2" -N 8 "$1" | tr -d ' '; }
# runs a command, prints its wall-clock seconds; stdout to $OUT/last.out
timed() {
    local start end
    start=$(date +%s%N)
    "$@" >"$OUT/last.out" 2>"$OUT/last.err" </dev/null || {
        echo "bench_ft.sh: failed: $*" >&2
        tail -n 3 "$OUT/last.err" >&2
    }
    end=$(date +%s%N)
    echo "scale=3; ($end - $start) / 1000000000" | bc
}
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
ratio() { echo "scale=2; $1 / $2" | bc; }

rows=()
for p in "${programs[@]}"; do
    IFS='|' read -r name _ args <<<"$p"
    read -r -a argv <<<"$args"
    for P in 2 4; do
        off=() on=() replay=()
        for rep in $(seq "$REPS"); do
            off+=("$(timed mpirun -np "$P" "$OUT/$name" "${argv[@]}")")
            cp "$OUT/last.out" "$OUT/$name-$P.want"
            rm -rf "$OUT/ck"
            on+=("$(CAPE_CHECKPOINT=$OUT/ck timed mpirun -np "$P" "$OUT/$name" "${argv[@]}")")
            cmp -s "$OUT/last.out" "$OUT/$name-$P.want" || echo "bench_ft.sh: $name P=$P: output with the log differs" >&2
            rm -rf "$OUT/ck2" && cp -r "$OUT/ck" "$OUT/ck2"
            replay+=("$(CAPE_RESTART=$OUT/ck2 timed mpirun -np "$P" "$OUT/$name" "${argv[@]}")")
            [ "$(cat "$OUT/ck2/status")" = "exit 0" ] || echo "bench_ft.sh: $name P=$P: the replay failed" >&2
        done
        regions=$(header_word "$OUT/ck/cape.log" 48)
        bytes=$(header_word "$OUT/ck/cape.log" 40)
        m_off=$(median "${off[@]}")
        m_on=$(median "${on[@]}")
        m_replay=$(median "${replay[@]}")
        per_region_ms=$(echo "scale=2; ($m_on - $m_off) * 1000 / $regions" | bc)
        per_region_kb=$(echo "scale=1; ($bytes - 64) / 1024 / $regions" | bc)
        rows+=("| $name $args | $P | $regions | $per_region_kb | $m_off | $m_on | $(ratio "$m_on" "$m_off") | $per_region_ms | $m_replay | $(ratio "$m_replay" "$m_off") |")
        echo "${rows[-1]}"
    done
done

# one failure under caperun: a rank killed at about half of an undisturbed run
kill_rows=()
for p in "${programs[@]}"; do
    IFS='|' read -r name _ args <<<"$p"
    read -r -a argv <<<"$args"
    P=4
    cp "$OUT/$name" "$OUT/bk-$name"
    t_off=$(timed mpirun -np "$P" "$OUT/$name" "${argv[@]}")
    half_ms=$(echo "$t_off * 500 / 1" | bc)
    rm -rf "$OUT/ckk"
    start=$(date +%s%N)
    "$CAPERUN" -np "$P" --checkpoint "$OUT/ckk" "$OUT/bk-$name" "${argv[@]}" </dev/null >"$OUT/kill.out" 2>"$OUT/kill.err" &
    job=$!
    for _ in $(seq 200); do
        [ "$(pgrep -x "bk-$name" | wc -l)" -ge "$P" ] && break
        sleep 0.05
    done
    sleep "$(echo "scale=3; $half_ms / 1000" | bc)"
    victim=$(pgrep -x "bk-$name" | tail -n 1)
    [ -n "$victim" ] && kill -9 "$victim"
    wait $job
    total=$(echo "scale=3; ($(date +%s%N) - $start) / 1000000000" | bc)
    cmp -s "$OUT/kill.out" "$OUT/$name-4.want" || echo "bench_ft.sh: $name: output after the relaunch differs" >&2
    summary=$(sed -n 's/^caperun: completed after .*time lost to failures: //p' "$OUT/kill.err")
    failure=$(sed -n 's/^caperun: attempt 1 failed after \([0-9.]* s\).*(\([0-9]*\) regions durable.*/\1, \2 regions durable/p' "$OUT/kill.err")
    kill_rows+=("| $name $args | $P | $t_off | ${half_ms} ms | ${failure:-?} | $total | ${summary:-?} |")
    echo "${kill_rows[-1]}"
done

{
    echo "Machine: $(nproc) cores, $(uname -r); medians of $REPS runs (seconds, wall clock of the whole mpirun)."
    echo
    echo "| program (args) | P | regions | log KiB/region | off | log | log/off | +ms/region | replay all | replay/off |"
    echo "|---|---|---|---|---|---|---|---|---|---|"
    printf '%s\n' "${rows[@]}"
    echo
    echo "One rank SIGKILLed at about half of the undisturbed run, under caperun (single runs):"
    echo
    echo "| program (args) | P | undisturbed (s) | kill after | failed attempt | total with relaunch (s) | caperun: time lost |"
    echo "|---|---|---|---|---|---|---|"
    printf '%s\n' "${kill_rows[@]}"
} | tee "$OUT/results.md"
