#!/usr/bin/env bash
# The checkers' corpus: racy/ (programs with a known data race; `expect: race on VAR at line
# L`), clean/ (race-free programs) and divergence/ (sequential code that computes different
# values on different ranks; `expect: divergence in VAR before the region at line L`).
#
#   racy/       built with `capecc --check=races`: the run must fail with a report that names
#               VAR and line L
#   clean/      built with `capecc --check=races`, run with CAPE_CHECK=divergence: no report,
#               and the output of gcc -fopenmp with as many threads
#   divergence/ built normally, run with CAPE_CHECK=divergence: a report naming VAR and the
#               region at line L
#
# Environment: NP (rank counts, default "2 4"), FILTER (extended regexp on the names),
# SAMPLE=k (every k-th program of each directory only), CAPECC (default: target/release).
# Prints one line per failure and a summary; exits 1 on a missed race, a false positive or
# a wrong answer.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=scripts/env.sh
source "$root/scripts/env.sh"
CAPECC=${CAPECC:-$root/target/release/capecc}
NP=${NP:-"2 4"}
FILTER=${FILTER:-.}
SAMPLE=${SAMPLE:-1}
TIMEOUT=${TIMEOUT:-60}
work=$(mktemp -d "${TMPDIR:-/tmp}/cape-races.XXXXXX")
trap 'rm -rf "$work"' EXIT

failures=0
fail() {
    echo "FAIL $*"
    failures=$((failures + 1))
}

# the programs of a directory, after FILTER and SAMPLE
programs() {
    local i=0 f
    for f in "$here/$1"/*.c; do
        local name
        name=$(basename "$f" .c)
        echo "$1/$name" | grep -Eq "$FILTER" || continue
        if [ $((i % SAMPLE)) = 0 ]; then echo "$f"; fi
        i=$((i + 1))
    done
}

run() { # run P exe -> $work/out, $work/err, $rc
    local p=$1
    shift
    timeout -k 5 "$TIMEOUT" mpirun -np "$p" "$@" >"$work/out" 2>"$work/err"
    rc=$?
}

declare -A found total
for p in $NP; do found[$p]=0; total[$p]=0; done
clean_runs=0
false_positives=0

for f in $(programs racy); do
    name=$(basename "$f" .c)
    read -r var line < <(sed -n 's/.*expect: race on \([A-Za-z_0-9]*\) at line \([0-9]*\).*/\1 \2/p' "$f")
    if ! gcc -fopenmp -o "$work/gcc" "$f" 2>"$work/gcc.err"; then
        fail "racy/$name: not valid OpenMP C for gcc: $(head -1 "$work/gcc.err")"
        continue
    fi
    if ! "$CAPECC" --check=races -O1 -o "$work/$name" "$f" 2>"$work/build.err"; then
        fail "racy/$name: build: $(head -1 "$work/build.err")"
        continue
    fi
    for p in $NP; do
        total[$p]=$((total[$p] + 1))
        run "$p" "$work/$name"
        races=$(grep "capert: error: data race on $var[[ ]" "$work/err")
        if [ "$rc" != 0 ] && echo "$races" | grep -q "/$name\.c:$line\b"; then
            found[$p]=$((found[$p] + 1))
        else
            fail "racy/$name P=$p: no report on $var at line $line (exit $rc): $(grep -m1 'capert:' "$work/err")"
        fi
    done
done

for f in $(programs clean); do
    name=$(basename "$f" .c)
    if ! gcc -fopenmp -o "$work/gcc" "$f" 2>"$work/gcc.err"; then
        fail "clean/$name: not valid OpenMP C for gcc: $(head -1 "$work/gcc.err")"
        continue
    fi
    if ! "$CAPECC" --check=races -O1 -o "$work/$name" "$f" 2>"$work/build.err"; then
        fail "clean/$name: build: $(head -1 "$work/build.err")"
        continue
    fi
    for p in $NP; do
        clean_runs=$((clean_runs + 1))
        OMP_NUM_THREADS=$p "$work/gcc" >"$work/expected" 2>/dev/null
        CAPE_CHECK=divergence run "$p" "$work/$name"
        if grep -q "capert: error:" "$work/err"; then
            false_positives=$((false_positives + 1))
            fail "clean/$name P=$p: false positive: $(grep -m1 'capert: error:' "$work/err")"
        elif [ "$rc" != 0 ]; then
            fail "clean/$name P=$p: exit $rc: $(head -1 "$work/err")"
        elif ! cmp -s "$work/out" "$work/expected"; then
            fail "clean/$name P=$p: output differs from gcc -fopenmp: $(head -c 80 "$work/out") vs $(head -c 80 "$work/expected")"
        fi
    done
done

divergent=0
divergent_total=0
for f in $(programs divergence); do
    name=$(basename "$f" .c)
    read -r var line < <(sed -n 's/.*expect: divergence in \([A-Za-z_0-9]*\) before the region at line \([0-9]*\).*/\1 \2/p' "$f")
    if ! "$CAPECC" -O1 -o "$work/$name" "$f" 2>"$work/build.err"; then
        fail "divergence/$name: build: $(head -1 "$work/build.err")"
        continue
    fi
    for p in $NP; do
        divergent_total=$((divergent_total + 1))
        CAPE_CHECK=divergence run "$p" "$work/$name"
        if [ "$rc" != 0 ] && grep -q "capert: error: the ranks diverged before the parallel[a-z ]* at [^ ]*/$name\.c:$line: sequential code left different values in $var[[ ]" "$work/err"; then
            divergent=$((divergent + 1))
        else
            fail "divergence/$name P=$p: no report on $var before line $line (exit $rc): $(grep -m1 'capert:' "$work/err")"
        fi
    done
done

for p in $NP; do
    echo "racy: P=$p: ${found[$p]} of ${total[$p]} reported with the variable and the line"
done
echo "clean: $false_positives false positive(s) in $clean_runs runs"
echo "divergence: $divergent of $divergent_total reported at the right region and object"
[ "$failures" = 0 ]
