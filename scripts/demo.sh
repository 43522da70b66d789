#!/usr/bin/env bash
# The 2-minute demo: install what is missing, build capecc, compile an unchanged
# OpenMP program (examples/matmul.c) with capecc and, for comparison, as a plain
# sequential program and with gcc -fopenmp; run capecc on as many MPI ranks as the
# machine has cores and gcc -fopenmp on as many threads; show that all three print
# the same answer, how long each took and the speed-ups over the sequential build.
# usage: scripts/demo.sh [N]   (matrix size, default 1000; DEMO_RANKS overrides the rank count)
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/env.sh
source scripts/env.sh
N=${1:-1000}
CORES=$(nproc 2>/dev/null || echo 2)
RANKS=${DEMO_RANKS:-$CORES}

scripts/deps.sh
echo "==> building capecc (cargo build --release)"
cargo build --release --quiet
CAPECC=$ROOT/target/release/capecc

work=$(mktemp -d "${TMPDIR:-/tmp}/capecc-demo.XXXXXX")
trap 'rm -rf "$work"' EXIT

echo "==> capecc -O2 examples/matmul.c -o matmul-cape"
"$CAPECC" -O2 examples/matmul.c -o "$work/matmul-cape"
echo "==> gcc -O2 examples/matmul.c -o matmul-seq      (pragmas ignored: sequential)"
gcc -O2 examples/matmul.c -o "$work/matmul-seq"
echo "==> gcc -O2 -fopenmp examples/matmul.c -o matmul-omp"
gcc -O2 -fopenmp examples/matmul.c -o "$work/matmul-omp"
# an MPI program that only starts and stops: what every mpirun pays before the program runs
printf '#include <mpi.h>\nint main(int c, char **v) { MPI_Init(&c, &v); MPI_Finalize(); return 0; }\n' >"$work/noop.c"
mpicc -O2 "$work/noop.c" -o "$work/noop"

# wall-clock seconds of a command, its stdout saved to a file
timed() { # out-file, command...
    local out=$1 start end
    shift
    start=$(date +%s%N)
    "$@" >"$out"
    end=$(date +%s%N)
    local ms=$(((end - start) / 1000000))
    printf '%d.%03d' $((ms / 1000)) $((ms % 1000))
}

echo
echo "==> ./matmul-seq $N"
t_seq=$(timed "$work/seq.out" "$work/matmul-seq" "$N")
sed 's/^/    /' "$work/seq.out"
echo "==> OMP_NUM_THREADS=$RANKS ./matmul-omp $N"
t_omp=$(timed "$work/omp.out" env OMP_NUM_THREADS="$RANKS" "$work/matmul-omp" "$N")
sed 's/^/    /' "$work/omp.out"
echo "==> mpirun -np $RANKS ./matmul-cape $N"
t_cape=$(timed "$work/cape.out" mpirun -np "$RANKS" "$work/matmul-cape" "$N")
sed 's/^/    /' "$work/cape.out"

# speed-up of a run over the sequential one, as "1.87x"
t_start=$(timed /dev/null mpirun -np "$RANKS" "$work/noop")
t_run=$(awk -v a="$t_cape" -v b="$t_start" 'BEGIN { d = a - b; printf "%.3f", (d > 0 ? d : 0) }')

speedup() { awk -v s="$t_seq" -v t="$1" 'BEGIN { if (t > 0) printf "%.2fx", s / t; else print "-" }'; }
over=""
[ "$RANKS" -gt "$CORES" ] && over="  (oversubscribed: $CORES cores)"
echo
printf '%-34s %9s   %s\n' "build (matmul N=$N)" "time" "speed-up vs sequential"
printf '%-34s %7s s   %s\n' "sequential (gcc -O2)" "$t_seq" "1.00x"
printf '%-34s %7s s   %s\n' "gcc -O2 -fopenmp, $RANKS threads" "$t_omp" "$(speedup "$t_omp")$over"
printf '%-34s %7s s   %s\n' "capecc -O2, mpirun -np $RANKS" "$t_cape" "$(speedup "$t_cape")$over"
printf '%-34s %7s s   %s\n' "  of which mpirun's start-up" "$t_start" "(an MPI program that only starts and stops)"
printf '%-34s %7s s   %s\n' "  the program itself" "$t_run" "$(speedup "$t_run")"
status=0
for variant in omp cape; do
    if ! cmp -s "$work/seq.out" "$work/$variant.out"; then
        echo "the $variant output DIFFERS from the sequential one:"
        diff -u --label sequential --label "$variant" "$work/seq.out" "$work/$variant.out" || true
        status=1
    fi
done
[ "$status" = 0 ] && echo "the three outputs are identical"
exit "$status"
