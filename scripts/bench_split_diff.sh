#!/usr/bin/env bash
# The diff at a region's end split over the rank's threads (docs/hybrid.md), not a test:
# scripts/bench_region/region_cost.c (`region_cost 1 W 20`: each region writes 64 bytes on each
# of W pages) under the shapes and modes where a rank's diff is long, with this build
# (`CAPE_SPLIT_DIFF` auto, the default, and `0`) and BASELINE's, runs interleaved (BENCH_REPS
# rounds, each case's builds in turn); prints per
# case the median over the runs of the median region time and of the diff time per region
# (`CAPE_STATS`: diff_us over the 20 regions).
#
# usage: scripts/bench_split_diff.sh [cases|threshold]   (default: cases)
#   cases:     (1, 2) with snapshots (`CAPE_CHECKPOINT`), (1, 2) with `CAPE_CHECKPOINT_EVERY=1`,
#              (2, 2) `CAPE_MERGE=eager` (the rule keeps it serial on 2 cores; `always` shows
#              what a split would do there), and (1, 2) with snapshots writing 64 pages.
#   threshold: (1, 2) with snapshots at W = 32 .. 1024, `CAPE_SPLIT_DIFF=always` against `0`.
# environment: BENCH_REPS (default 5), CAPECC (default target/release/capecc), BASELINE (a
#              directory with an earlier capecc, optional), BENCH_RT=0 to run without
#              real-time priority (as root the runs get chrt -f 10).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/env.sh
source scripts/env.sh
unset OMP_NUM_THREADS CAPE_STATS CAPE_MERGE CAPE_CHECKPOINT CAPE_CHECKPOINT_EVERY CAPE_SPLIT_DIFF

CAPECC=${CAPECC:-$ROOT/target/release/capecc}
REPS=${BENCH_REPS:-5}
BASELINE=${BASELINE:-}
part=${1:-cases}
rt=()
[ "$(id -u)" = 0 ] && [ "${BENCH_RT:-1}" != 0 ] && rt=(chrt -f 10)
OUT=$ROOT/bench-out/split_diff
mkdir -p "$OUT"
[ -x "$CAPECC" ] || cargo build --release -q
"$CAPECC" -O2 scripts/bench_region/region_cost.c -o "$OUT/region_cost"
[ -z "$BASELINE" ] || "$BASELINE/capecc" -O2 scripts/bench_region/region_cost.c -o "$OUT/region_cost.base"

# run NP PAGES SPLIT BINARY ENV...: prints "region_us diff_us_per_region"
run() {
    local np=$1 pages=$2 split=$3 bin=$4
    shift 4
    rm -rf "$OUT/ck"
    env "$@" OMP_NUM_THREADS=2 CAPE_STATS=1 CAPE_SPLIT_DIFF="$split" \
        "${rt[@]}" mpirun --bind-to none -np "$np" "$bin" 1 "$pages" 20 2>&1 |
        awk '/median_us/ { for (i = 1; i < NF; i++) if ($i == "median_us") r = $(i + 1) }
             /stats: total/ { for (i = 1; i <= NF; i++) if ($i ~ /^diff_us=/) { split($i, kv, "="); d += kv[2]; n++ } }
             END { printf "%s %.0f\n", r, d / n / 20 }'
}
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# measure NAME NP PAGES "MODES" ENV...: MODES are CAPE_SPLIT_DIFF values of this build, or base
declare -A region diff
measure() {
    local name=$1 np=$2 pages=$3 modes=$4
    shift 4
    local r b split bin out
    for r in $(seq "$REPS"); do
        for b in $modes; do
            bin=$OUT/region_cost
            split=$b
            if [ "$b" = base ]; then
                [ -n "$BASELINE" ] || continue
                bin=$OUT/region_cost.base
                split=auto
            fi
            out=$(run "$np" "$pages" "$split" "$bin" "$@")
            region[$name/$b]+="${out% *} "
            diff[$name/$b]+="${out#* } "
        done
    done
    for b in $modes; do
        [ -n "${region[$name/$b]:-}" ] || continue
        printf '| %s | %s | %s | %s |\n' "$name" "$b" \
            "$(tr ' ' '\n' <<<"${region[$name/$b]}" | grep . | median)" \
            "$(tr ' ' '\n' <<<"${diff[$name/$b]}" | grep . | median)"
    done
}

echo "load before: $(uptime)"
echo "| case | build (CAPE_SPLIT_DIFF) | region (us, median) | diff per region (us, median) |"
echo "| --- | --- | ---: | ---: |"
case $part in
cases)
    measure "(1, 2) snapshots, 4096 pages" 1 4096 "auto 0 base" CAPE_CHECKPOINT="$OUT/ck"
    measure "(1, 2) every region logged, 4096 pages" 1 4096 "auto 0 base" \
        CAPE_CHECKPOINT="$OUT/ck" CAPE_CHECKPOINT_EVERY=1
    measure "(2, 2) eager, 4096 pages" 2 4096 "auto always 0 base" CAPE_MERGE=eager
    measure "(1, 2) snapshots, 64 pages" 1 64 "auto 0 base" CAPE_CHECKPOINT="$OUT/ck"
    ;;
threshold)
    for pages in 32 64 128 256 512 1024; do
        measure "(1, 2) snapshots, $pages pages" 1 "$pages" "always 0" CAPE_CHECKPOINT="$OUT/ck"
    done
    ;;
*)
    echo "unknown part $part" >&2
    exit 2
    ;;
esac
echo "load after: $(uptime)"
