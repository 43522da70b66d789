#!/usr/bin/env bash
# How a rank fetches pages from their home while the home computes (not a test; the tables of
# docs/lazy-merge-fetch.md). Builds scripts/bench_fetch/fetch.c with Open MPI's mpicc and, when
# installed, MPICH's mpicc.mpich, runs each fetch mechanism at P = 2 (with Open MPI also under
# each one-sided component) and prints markdown: per mechanism and case, the median wait per
# page in microseconds for N = 1, 8, 64, 512 pages, the bandwidth at N = 512, the median
# time of the home's compute loop (against the requested one: what serving cost it; the N = 512
# row's, or the last one measured), the fewest repetitions of the row's cases (each case
# stops after 3 s; "skipped": the previous N predicted more than 3 s for one repetition) and
# the 1-minute load average when the run started.
#
# usage: scripts/bench_fetch.sh
# environment: FETCH_MS (the home's compute loop, default 20), FETCH_REPS (default 15),
#              FETCH_MODES (default: thread thread-poll rma-create rma-alloc baseline)
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/env.sh
source scripts/env.sh

MS=${FETCH_MS:-20}
REPS=${FETCH_REPS:-15}
MODES=${FETCH_MODES:-thread thread-poll rma-create rma-alloc baseline}
OUT=$ROOT/bench-out/fetch
mkdir -p "$OUT"
mpicc -O2 -pthread scripts/bench_fetch/fetch.c -o "$OUT/fetch.ompi"
have_mpich=0
if command -v mpicc.mpich >/dev/null && command -v mpirun.mpich >/dev/null; then
    mpicc.mpich -O2 -pthread scripts/bench_fetch/fetch.c -o "$OUT/fetch.mpich"
    have_mpich=1
fi

# fetch's lines -> rows: | mechanism | home | requests | N=1 | 8 | 64 | 512 | MB/s at 512 |
# home loop ms | fewest repetitions | load |
table() {
    awk -v label="$1" -v load="$2" '
        { key = $2 " | " $3
          if (!(key in seen)) { seen[key] = 1; order[++n] = key; fewest[key] = "" }
          if ($5 == "skipped") { us[key, $4] = "skipped"; next }
          us[key, $4] = $6
          if (fewest[key] == "" || $14 < fewest[key]) fewest[key] = $14
          if ($4 == 512) { bw[key] = $8; home[key] = $12 }
          else if (!(key in home)) home[key] = $12 }
        END { for (i = 1; i <= n; i++) { k = order[i]
                printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", label, k,
                       us[k, 1], us[k, 8], us[k, 64], us[k, 512], bw[k], home[k], fewest[k],
                       load } }'
}
header() {
    echo "| mechanism | home | requests | N=1 | N=8 | N=64 | N=512 (us/page) | MB/s at 512 | home loop (ms) | reps | load |"
    echo "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
}
run() { # label, mpirun command...
    local label=$1 load
    shift
    load=$(cut -d' ' -f1 /proc/loadavg)
    if ! timeout 600 "$@" >"$OUT/run.txt" 2>"$OUT/run.err"; then
        local why
        why=$(grep -o -e 'An error occurred in [A-Za-z_]*' -e 'MPI_ERR_[A-Z_]*: [a-z ]*' \
            "$OUT/run.err" | head -2 | paste -sd ' ' || true)
        echo "| $label | failed: ${why:-$(head -c 120 "$OUT/run.err" | tr '\n|' '  ')} |"
        return
    fi
    table "$label" "$load" <"$OUT/run.txt"
}

echo "compute loop $MS ms, $REPS repetitions, 4 KiB pages, P = 2"
echo
echo "### Open MPI ($(mpirun --version | head -1 | sed 's/.*) //'))"
echo
echo "load before: $(uptime | sed 's/^ *//')"
echo
header
for mode in $MODES; do
    run "$mode" mpirun -np 2 "$OUT/fetch.ompi" "$mode" "$MS" "$REPS"
    case $mode in
    thread)
        run "$mode, mpi_yield_when_idle" mpirun -np 2 --mca mpi_yield_when_idle 1 \
            "$OUT/fetch.ompi" "$mode" "$MS" "$REPS"
        ;;
    rma-*)
        for osc in pt2pt ucx; do
            run "$mode, osc $osc" mpirun -np 2 --mca osc "$osc" "$OUT/fetch.ompi" "$mode" "$MS" "$REPS"
        done
        run "$mode, vader without CMA" mpirun -np 2 --mca btl_vader_single_copy_mechanism none \
            "$OUT/fetch.ompi" "$mode" "$MS" "$REPS"
        ;;
    esac
done
echo
echo "load after: $(uptime | sed 's/^ *//')"
echo
echo "The one-sided component Open MPI picks by default (osc_base_verbose):"
for mode in rma-create rma-alloc; do
    echo "- $mode: $(mpirun -np 2 --mca osc_base_verbose 100 "$OUT/fetch.ompi" "$mode" 1 1 2>&1 |
        sed -n 's/.*\] \([a-z0-9]*\) component destroying window.*/\1/p' | sort -u | tr '\n' ' ')"
done
if [ "$have_mpich" = 1 ]; then
    echo
    echo "### MPICH ($(mpichversion 2>/dev/null | sed -n 's/MPICH Version:[[:space:]]*//p' | head -1), $(mpichversion 2>/dev/null | sed -n 's/MPICH Device:[[:space:]]*//p' | head -1))"
    echo
    echo "load before: $(uptime | sed 's/^ *//')"
    echo
    header
    for mode in $MODES; do
        run "$mode" mpirun.mpich -np 2 "$OUT/fetch.mpich" "$mode" "$MS" "$REPS"
        case $mode in
        rma-create) run "$mode, MPIR_CVAR_ASYNC_PROGRESS=1" env MPIR_CVAR_ASYNC_PROGRESS=1 \
            mpirun.mpich -np 2 "$OUT/fetch.mpich" "$mode" "$MS" "$REPS" ;;
        esac
    done
    echo
    echo "load after: $(uptime | sed 's/^ *//')"
else
    echo
    echo "MPICH is not installed (apt-get install mpich libmpich-dev, as scripts/test-mpich.sh does)."
fi
