#!/usr/bin/env bash
# The NPB-equivalent programs (tests/e2e/progs/npb_*.c: BT, CG, EP, FT, IS, LU, MG, SP written
# for capecc's tests with the OpenMP patterns of the NAS Parallel Benchmarks; the e2e test
# runs class S) at classes S and W, P = 1 2 4: each built with capecc and gcc -fopenmp; a run
# passes when capecc's output equals gcc -fopenmp's at the same P and says
# `Verification = SUCCESSFUL`. Markdown table on stdout (wall seconds, median of
# BENCH_REPS runs, default 3), docs/npb-equivalents.md.
#
# usage: scripts/npb_equiv.sh [PROGRAM...]   (default: bt cg ep ft is lu mg sp)
#   NPB_CLASSES (default "S W"), NPB_PROCS (default "1 2 4"); capecc's ranks run under
#   `chrt -f 10` when CHRT=1 (never the gcc threads: LU's spinning threads at real-time
#   priority on fewer cores than threads never let the thread they wait for run).
#   Every run is limited to NPB_TIMEOUT seconds (default 300).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/env.sh
source scripts/env.sh
unset OMP_NUM_THREADS
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
CAPECC=${CAPECC:-$ROOT/target/release/capecc}
REPS=${BENCH_REPS:-3}
OUT=$ROOT/bench-out/npb
mkdir -p "$OUT"
programs=("$@")
[ ${#programs[@]} -gt 0 ] || programs=(bt cg ep ft is lu mg sp)
prio=()
[ "${CHRT:-0}" = 1 ] && prio=(chrt -f 10)

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
# wall seconds of a command; its stdout in $OUT/last
timed() {
    local t0 t1
    t0=$(date +%s%N)
    timeout "${NPB_TIMEOUT:-300}" "$@" >"$OUT/last" 2>"$OUT/last.err" || true
    t1=$(date +%s%N)
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", (b - a) / 1e9 }'
}

echo "load before: $(uptime)" >&2
echo "| program | class | P | gcc -fopenmp (s) | capecc (s) | capecc = gcc | verification |"
echo "|---|---|---:|---:|---:|---|---|"
failed=0
for p in "${programs[@]}"; do
    src=tests/e2e/progs/npb_$p.c
    gcc -O2 -fopenmp "$src" -o "$OUT/$p.omp" -lm
    "$CAPECC" -O2 "$src" -o "$OUT/$p.cape" -lm
    for cls in ${NPB_CLASSES:-S W}; do
        for P in ${NPB_PROCS:-1 2 4}; do
            to=() tc=()
            for ((r = 0; r < REPS; r++)); do
                to+=("$(OMP_NUM_THREADS=$P timed "$OUT/$p.omp" "$cls")")
                cp "$OUT/last" "$OUT/ref"
                tc+=("$(timed "${prio[@]}" mpirun -np "$P" "$OUT/$p.cape" "$cls")")
            done
            same=yes
            cmp -s "$OUT/ref" "$OUT/last" || same=no
            verdict=$(sed -n 's/^ *Verification = //p' "$OUT/last")
            [ "$same" = yes ] && [ "$verdict" = SUCCESSFUL ] || failed=1
            printf '| %s | %s | %d | %.3f | %.3f | %s | %s |\n' "$(tr a-z A-Z <<<"$p")" "$cls" "$P" \
                "$(printf '%s\n' "${to[@]}" | median)" "$(printf '%s\n' "${tc[@]}" | median)" \
                "$same" "${verdict:-none}"
        done
    done
done
echo "load after: $(uptime)" >&2
exit $failed
