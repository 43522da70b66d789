#!/usr/bin/env bash
# Data-path benchmark (not a test): the speed of diff, check, merge and inject per core
# for four change patterns, beside memcpy and MPI point-to-point bandwidth measured in the same
# run on this machine. Writes docs/datapath.md (or the file given as the first argument).
# usage: scripts/bench_datapath.sh [OUT] ; env RUNS (default 11), MIB (default 64)
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/env.sh
source scripts/env.sh
OUT=${1:-docs/datapath.md}
RUNS=${RUNS:-11}
MIB=${MIB:-64}

cargo build --release --quiet -p capert --example bench_datapath --example mpi_stream
bench=${CARGO_TARGET_DIR:-target}/release/examples/bench_datapath
stream=${CARGO_TARGET_DIR:-target}/release/examples/mpi_stream

work=$(mktemp -d "${TMPDIR:-/tmp}/capecc-datapath.XXXXXX")
trap 'rm -rf "$work"' EXIT

# MPI bandwidth: 2 ranks bounce one message back and forth; median of the round trips.
cat >"$work/pingpong.c" <<'C'
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}
int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int runs = atoi(argv[1]);
    long sizes[] = {1L << 20, 16L << 20, 64L << 20};
    char *buf = malloc(sizes[2]);
    for (long i = 0; i < sizes[2]; i++) buf[i] = (char)i;
    double *t = malloc(sizeof(double) * (runs + 1));
    for (int s = 0; s < 3; s++) {
        int n = (int)sizes[s];
        for (int r = 0; r <= runs; r++) { /* round 0 warms up */
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            if (rank == 0) {
                MPI_Send(buf, n, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
                MPI_Recv(buf, n, MPI_CHAR, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(buf, n, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(buf, n, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
            }
            t[r] = MPI_Wtime() - t0;
        }
        qsort(t + 1, runs, sizeof(double), cmp);
        if (rank == 0)
            printf("| %ld MiB | %.2f |\n", sizes[s] >> 20, 2.0 * n / t[1 + runs / 2] / 1e9);
    }
    MPI_Finalize();
    return 0;
}
C
mpicc -O2 "$work/pingpong.c" -o "$work/pingpong"

echo "==> data path ($MIB MiB, $RUNS runs)" >&2
"$bench" --runs "$RUNS" --mib "$MIB" >"$work/datapath.txt"
echo "==> MPI ping-pong, 2 ranks" >&2
mpirun -np 2 "$work/pingpong" "$RUNS" >"$work/mpi.txt"
echo "==> streamed merge messages, 2 ranks" >&2
# one plain message and the runtime's pieces (CAPE_MERGE_CHUNK, default 1 MiB), alternately
mpirun -np 2 "$stream" bench --runs "$RUNS" --mib "$MIB" >>"$work/mpi.txt"

# Whole programs at P = 2, as a user sees them: every rank's CAPE_STATS totals.
cargo build --release --quiet -p capecc -p capert
capecc=${CARGO_TARGET_DIR:-target}/release/capecc
declare -A program_args=([jacobi]="2000 100" [matmul]="1500" [saxpy]="" [mandelbrot]="")
echo "==> CAPE_STATS of the examples at P=2" >&2
for k in jacobi matmul saxpy mandelbrot; do
    "$capecc" -O2 "examples/$k.c" -o "$work/$k" -lm
    read -r -a a <<<"${program_args[$k]}"
    start=$(date +%s.%N)
    # in the scratch directory: mandelbrot writes its image into the current one
    (cd "$work" && CAPE_STATS=1 mpirun -np 2 "./$k" "${a[@]}" >/dev/null 2>"$k.stats")
    end=$(date +%s.%N)
    grep 'capert: stats: total:' "$work/$k.stats" |
        awk -v prog="$k ${program_args[$k]}" -v start="$start" -v end="$end" '
        { for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
          printf "| %s | %s | %.2f | %d | %d | %.1f | %.1f | %.2f | %.1f | %.1f | %.1f | %.2f | %.1f |\n",
            prog, v["rank"], end - start, v["regions"], v["pages_written"], v["bytes_diffed"] / 1e6,
            v["diff_us"] / 1e3, v["diff_gbps"], v["run_bytes"] / 1e6, v["bytes_sent"] / 1e6,
            v["merge_us"] / 1e3, v["bytes_injected"] / 1e6, v["inject_us"] / 1e3 }' >>"$work/programs.txt"
done

{
    cat <<'MD'
# The data path: measured

Produced by `scripts/bench_datapath.sh` (rerun it to refresh this file). One core per
measurement: the runtime's steps at a merge point, each over the same span of changed pages,
beside memcpy and MPI point-to-point bandwidth measured in the same run.

- **diff**: written page vs its twin -> the page's record in the change set, in the form it is
  sent (`diff_page` in `capert/src/diff.rs`), page by page; the twin is brought up to date.
- **check**: the validation of a change set received from a peer (`ChangeSet::parse`).
- **merge**: two ranks' change sets (`cape-format/src/changeset/merge.rs`): rank 0 changed the
  even pages, rank 1 the odd ones; no decoding, the result written in the same form.
- **inject**: the merged changes written into tracked memory and its twin
  (`capert/src/inject.rs`, through `Tracker::inject`).

Every GB/s is *span bytes / median time* (the span is the memory the pattern covers), so each
column compares directly with memcpy of the same span. Patterns: dense (every byte of a page
changed), every 8th byte, 2 bytes per double (the two high bytes of each 8-byte word: a double
going from 0.0 to a value like 3.0), and sparse (one byte per page). "wire / changed" is the
bytes of the merge message per changed byte (docs/merge-encoding.md).

MD
    echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), L3 $(lscpu 2>/dev/null | sed -n 's/^L3 cache: *//p')."
    echo "Load when measured (\`uptime\`): $(uptime | sed 's/^ *//')."
    echo "Date: $(date -u +%Y-%m-%d), commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- capert cape-format || echo ' (with local changes)')."
    echo
    echo "## Runtime steps"
    echo
    sed 's/^memcpy: /memcpy of the same span: /' "$work/datapath.txt"
    echo
    echo "## MPI point-to-point bandwidth (2 ranks, ping-pong, one direction)"
    echo
    echo "One message with \`MPI_Send\`/\`MPI_Recv\` (C), then \`capert/examples/mpi_stream.rs\`: one"
    echo "plain message and the runtime's streamed merge message (\`capert/src/sys/mpi_stream.rs\`),"
    echo "alternately in one run; \"both ranks at once\" is the exchange of a merge round."
    echo
    echo "| message | GB/s |"
    echo "|---|---:|"
    cat "$work/mpi.txt"
    echo
    echo "## Whole programs at P = 2 (\`CAPE_STATS=1\`, every rank)"
    echo
    echo "Wall seconds include mpirun's start-up. diff MB: bytes of written pages compared;"
    echo "changed MB: the rank's own changed bytes; merge ms: the exchange (sending, receiving,"
    echo "waiting for the partner, merging); inject MB: the other ranks' bytes written here."
    echo
    echo "| program | rank | wall s | regions | pages written | diff MB | diff ms | diff GB/s | changed MB | sent MB | merge ms | inject MB | inject ms |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    cat "$work/programs.txt"
} >"$OUT"
echo "==> wrote $OUT" >&2
