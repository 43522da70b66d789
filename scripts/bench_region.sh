#!/usr/bin/env bash
# A region's fixed cost (not a test): scripts/bench_region/region_cost.c holds M MiB of touched
# heap that its regions do not write and runs REGIONS regions, each writing 64 bytes on each of
# W pages of another array; the median time of one region (omp_get_wtime around it, warm-up
# left out) is printed beside the median of an empty 8-byte MPI_Allreduce loop
# (scripts/bench_region/allreduce_loop.c) run the same way in the same script run.
#
# usage: scripts/bench_region.sh            (M = 1 64 256 1024, W = 0 1 64 4096, P = 2 4)
# environment: BENCH_MIB, BENCH_PAGES, BENCH_PROCS (lists overriding those), BENCH_REGIONS
#              (default 3000), CAPECC (default target/release/capecc), BASELINE (optional: a
#              directory with an earlier capecc and libcapert.a, whose build runs beside ours),
#              BENCH_RT=0 to run without real-time priority, BENCH_RUNS (default 1): runs per
#              configuration and build, interleaved; the table gives the median of their
#              medians and, with more than one, their range (on a VM one binary's median can
#              move by a factor of two from one run to the next).
# When run as root the ranks get real-time priority (chrt -f 10), so that other jobs on the
# machine do not preempt them; the kernel still leaves 5 % of each second to other tasks.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/env.sh
source scripts/env.sh

CAPECC=${CAPECC:-$ROOT/target/release/capecc}
MIBS=${BENCH_MIB:-1 64 256 1024}
PAGES=${BENCH_PAGES:-0 1 64 4096}
PROCS=${BENCH_PROCS:-2 4}
REGIONS=${BENCH_REGIONS:-3000}
RUNS=${BENCH_RUNS:-1}
BASELINE=${BASELINE:-}
OUT=$ROOT/bench-out/region
mkdir -p "$OUT"
[ -x "$CAPECC" ] || cargo build --release -q

"$CAPECC" -O2 scripts/bench_region/region_cost.c -o "$OUT/region_cost"
builds=(region_cost)
if [ -n "$BASELINE" ]; then
    "$BASELINE/capecc" -O2 scripts/bench_region/region_cost.c -o "$OUT/region_cost.base"
    builds+=(region_cost.base)
fi
mpicc -O2 scripts/bench_region/allreduce_loop.c -o "$OUT/allreduce_loop"

rt=()
if [ "$(id -u)" = 0 ] && [ "${BENCH_RT:-1}" = 1 ] && command -v chrt >/dev/null; then
    rt=(chrt -f 10)
fi
median_of() { sed -n 's/.*median_us \([0-9.]*\).*/\1/p'; }
# the median of the numbers on stdin, and with more than one their range: "m (lo-hi)"
summary() {
    sort -g | awk '{ a[NR] = $1 } END {
        m = (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2
        if (NR > 1) printf "%.2f (%.2f-%.2f)", m, a[1], a[NR]; else printf "%.2f", m }'
}

echo "load before: $(uptime)"
printf '| P | empty MPI_Allreduce (us) |\n|---:|---:|\n'
for np in $PROCS; do
    printf '| %s | %s |\n' "$np" "$("${rt[@]}" mpirun -np "$np" "$OUT/allreduce_loop" 20000 | median_of)"
done
echo
header='| P | heap (MiB) | pages written | region (us) |'
rule='|---:|---:|---:|---:|'
if [ -n "$BASELINE" ]; then
    header+=' baseline (us) | ratio |'
    rule+='---:|---:|'
fi
echo "$header"
echo "$rule"
for np in $PROCS; do
    for mib in $MIBS; do
        for pages in $PAGES; do
            declare -A t=()
            for ((r = 0; r < RUNS; r++)); do
                for b in "${builds[@]}"; do
                    t[$b]+="$("${rt[@]}" mpirun -np "$np" "$OUT/$b" "$mib" "$pages" "$REGIONS" | median_of) "
                done
            done
            mine=$(tr ' ' '\n' <<<"${t[region_cost]}" | grep . | summary)
            row="| $np | $mib | $pages | $mine |"
            if [ -n "$BASELINE" ]; then
                base=$(tr ' ' '\n' <<<"${t[region_cost.base]}" | grep . | summary)
                ratio=$(awk -v a="${mine%% *}" -v b="${base%% *}" 'BEGIN { printf "%.3f", a / b }')
                row+=" $base | $ratio |"
            fi
            echo "$row"
        done
    done
done
echo
echo "load after: $(uptime)"
