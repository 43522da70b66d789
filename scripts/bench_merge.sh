#!/usr/bin/env bash
# The merge modes side by side (docs/lazy-merge-measurements.md): each kernel built once with capecc and
# run with CAPE_MERGE=eager, lazy and auto, and the hand-written MPI version where there is
# one (examples/mpi/), interleaved (eager, lazy, auto, mpi, eager, ...) in one script run so
# that load changes hit all alike. Prints the median wall time of each, the ratios to eager
# and to MPI, then one CAPE_STATS run per mode at BENCH_BYTES_PROCS ranks: bytes sent by the
# merge plus bytes fetched on demand, summed over the ranks, per region (for jacobi also
# without its final checksum's read: the sweeps' bytes alone), beside the MPI version's.
# Every output is checked against the sequential gcc build.
#
# usage: scripts/bench_merge.sh [KERNEL ...]   (default: jacobi matmul pi)
# environment: BENCH_REPS (default 5), BENCH_PROCS (default 2), BENCH_BYTES_PROCS (default 4),
#              BENCH_CHRT=1 runs the ranks at real-time priority (chrt -f 10; needs root),
#              CAPECC (default target/release/capecc),
#              BENCH_BASELINE: another capecc (a build of the main branch, with its libcapert.a
#              beside it) whose three modes run interleaved with the others, printed on a
#              second line per kernel (KERNEL-base) with this build's times over the baseline's
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/env.sh
source scripts/env.sh
unset OMP_NUM_THREADS CAPE_MERGE CAPE_STATS
# The MPI version gets the point-to-point layer capert asks for on one node (ob1, with
# shared-memory transfers): left to its default, Open MPI 4.1 here picks a layer that makes
# examples/mpi/jacobi.c 1.5 times slower, which would flatter every ratio to MPI.
export OMPI_MCA_pml=${OMPI_MCA_pml:-ob1}

CAPECC=${CAPECC:-$ROOT/target/release/capecc}
BASELINE=${BENCH_BASELINE:-}
REPS=${BENCH_REPS:-5}
PROCS=${BENCH_PROCS:-2}
BYTES_PROCS=${BENCH_BYTES_PROCS:-4}
kernels=("$@")
[ ${#kernels[@]} -gt 0 ] || kernels=(jacobi matmul pi)
declare -A args=([matmul]="1500" [jacobi]="2000 100" [pi]="1000000000")
prio=()
[ "${BENCH_CHRT:-0}" = 1 ] && prio=(chrt -f 10)

OUT=$ROOT/bench-out/merge
mkdir -p "$OUT"
for k in "${kernels[@]}"; do
    gcc -O2 "examples/$k.c" -o "$OUT/$k-seq" -lm 2>/dev/null
    "$CAPECC" -O2 "examples/$k.c" -o "$OUT/$k-capecc" -lm
    rm -f "$OUT/$k-base"
    [ -n "$BASELINE" ] && "$BASELINE" -O2 "examples/$k.c" -o "$OUT/$k-base" -lm
    rm -f "$OUT/$k-mpi"
    [ -f "examples/mpi/$k.c" ] && mpicc -O2 "examples/mpi/$k.c" -o "$OUT/$k-mpi" -lm
done

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

echo "load before the run: $(uptime)"
printf '%-8s %3s %10s %10s %10s %10s %11s %11s %9s %9s %9s\n' kernel P eager lazy auto mpi lazy/eager auto/eager eager/mpi lazy/mpi auto/mpi
for k in "${kernels[@]}"; do
    read -r -a a <<<"${args[$k]}"
    expected=$("$OUT/$k-seq" "${a[@]}")
    variants=(eager lazy auto)
    [ -x "$OUT/$k-mpi" ] && variants+=(mpi)
    [ -x "$OUT/$k-base" ] && variants+=(base-eager base-lazy base-auto)
    for p in $PROCS; do
        declare -A times=()
        for ((r = 0; r < REPS; r++)); do
            for v in "${variants[@]}"; do
                if [ "$v" = mpi ]; then
                    cmd=(mpirun -np "$p" "${prio[@]}" "$OUT/$k-mpi" "${a[@]}")
                elif [ "${v#base-}" != "$v" ]; then
                    cmd=(env CAPE_MERGE="${v#base-}" mpirun -np "$p" "${prio[@]}" "$OUT/$k-base" "${a[@]}")
                else
                    cmd=(env CAPE_MERGE="$v" mpirun -np "$p" "${prio[@]}" "$OUT/$k-capecc" "${a[@]}")
                fi
                start=$(date +%s.%N)
                got=$("${cmd[@]}")
                end=$(date +%s.%N)
                if [ "$v" != mpi ] && [ "$got" != "$expected" ]; then
                    echo "bench_merge.sh: $k ($v, P=$p) printed another answer than the sequential build" >&2
                    exit 1
                fi
                times[$v]+="$(awk -v s="$start" -v e="$end" 'BEGIN { print e - s }') "
            done
        done
        declare -A med=()
        for v in "${variants[@]}"; do
            med[$v]=$(printf '%s\n' ${times[$v]} | median)
        done
        mpi=${med[mpi]:-0}
        # prints one line: the three modes of build $1 (eager, lazy, auto medians) against MPI
        line() {
            printf '%-8s %3s %9.3fs %9.3fs %9.3fs %9.3fs %11.3f %11.3f %9s %9s %9s%s\n' "$1" "$p" \
                "$2" "$3" "$4" "$mpi" \
                "$(awk -v a="$3" -v b="$2" 'BEGIN { print a / b }')" \
                "$(awk -v a="$4" -v b="$2" 'BEGIN { print a / b }')" \
                "$(awk -v a="$2" -v b="$mpi" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "-" }')" \
                "$(awk -v a="$3" -v b="$mpi" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "-" }')" \
                "$(awk -v a="$4" -v b="$mpi" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "-" }')" \
                "${5:-}"
        }
        line "$k" "${med[eager]}" "${med[lazy]}" "${med[auto]}"
        if [ -n "${med[base-eager]:-}" ]; then
            line "$k-base" "${med[base-eager]}" "${med[base-lazy]}" "${med[base-auto]}" \
                "$(awk -v e="${med[eager]}" -v l="${med[lazy]}" -v a="${med[auto]}" \
                    -v be="${med[base-eager]}" -v bl="${med[base-lazy]}" -v ba="${med[base-auto]}" \
                    'BEGIN { printf "   this build / base: eager %.3f, lazy %.3f, auto %.3f", e / be, l / bl, a / ba }')"
        fi
        unset times med
    done
done
echo "load after the run:  $(uptime)"

# jacobi-sweeps: examples/jacobi.c without the read of its final checksum (a sequential loop
# over the whole grid, which every rank runs, so the lazy merge fetches every page another
# rank changed, and which the MPI version replaces by gathering the grid on rank 0): its
# bytes are the sweeps' alone, to set beside the MPI version's halo rows.
bytes_kernels=("${kernels[@]}")
if [[ " ${kernels[*]} " == *" jacobi "* ]]; then
    sed 's/checksum += u\[p\];/checksum += 0.0;/' examples/jacobi.c >"$OUT/jacobi-sweeps.c"
    grep -q 'checksum += 0.0;' "$OUT/jacobi-sweeps.c"
    "$CAPECC" -O2 "$OUT/jacobi-sweeps.c" -o "$OUT/jacobi-sweeps-capecc" -lm
    args[jacobi-sweeps]=${args[jacobi]}
    bytes_kernels+=(jacobi-sweeps)
fi

echo
echo "bytes moved at P = $BYTES_PROCS (summed over the ranks; per region = per sweep for jacobi)"
printf '%-13s %-6s %8s %14s %14s %14s %16s\n' kernel mode regions merge_bytes fetched_bytes total_bytes per_region
for k in "${bytes_kernels[@]}"; do
    read -r -a a <<<"${args[$k]}"
    for v in eager lazy auto; do
        CAPE_MERGE=$v CAPE_STATS=1 mpirun -np "$BYTES_PROCS" "$OUT/$k-capecc" "${a[@]}" 2>"$OUT/$k-$v.stats" >/dev/null
        grep 'stats: total:' "$OUT/$k-$v.stats" | awk -v k="$k" -v v="$v" '
            { for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
              regions = f["regions"]; sent += f["bytes_sent"]; fetched += f["bytes_fetched"] }
            END { printf "%-13s %-6s %8d %14d %14d %14d %16.0f\n", k, v, regions, sent, fetched,
                  sent + fetched, (sent + fetched) / (regions ? regions : 1) }'
    done
done
if [[ " ${kernels[*]} " == *" jacobi "* ]]; then
    read -r -a a <<<"${args[jacobi]}"
    awk -v n="${a[0]}" -v s="${a[1]}" -v p="$BYTES_PROCS" 'BEGIN {
        sweep = 2 * (p - 1) * n * 8; gather = (n - 2) * n * 8 * (p - 1) / p
        printf "the MPI version: %d bytes per sweep (a row of %d doubles each way across %d boundaries), %d in all with the final gather of the grid on rank 0 (about %d per sweep)\n",
            sweep, n, p - 1, sweep * s + gather, (sweep * s + gather) / s }'
fi
