#!/usr/bin/env bash
# Builds the C programs in capert/tests/c (hand-written code as capecc lowers it, calling the
# capert ABI directly), runs them under mpirun at P = 1 2 3 4 5 8 and compares their output
# with what sequential execution prints: the same program built with plain gcc against
# sequential_runtime.c (an independent one-thread implementation of the ABI, FAKE_THREADS
# unset). The oracle's output is
# also checked against the committed tests/c/*.expected files.
# Usage: capert/tests/run_c_tests.sh   (CARGO_TARGET_DIR respected; NP="1 2" to choose P)
set -u
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
target="${CARGO_TARGET_DIR:-$root/target}"
nps="${NP:-1 2 3 4 5 8}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
# The exact list printed by `cargo rustc -p capert --release --lib --crate-type staticlib
# -- --print native-static-libs`.
native_libs="-lmpi -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc"

pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }

(cd "$root" && cargo build -q -p capert --release) || { echo "0 passed, 1 failed"; exit 1; }
lib="$target/release/libcapert.a"

build() { # name -> $work/name (capert) and $work/name.serial (oracle)
    local name=$1 src="$here/c/$1.c"
    gcc -O1 -w -I "$root/capert/include" "$src" "$here/sequential_runtime.c" -o "$work/$name.serial" || return 1
    mpicc -O1 -no-pie -I "$root/capert/include" -c "$src" -o "$work/$name.o" || return 1
    objcopy --rename-section .data=cape_data --rename-section .bss=cape_bss,alloc "$work/$name.o" || return 1
    mpicc -no-pie "$work/$name.o" "$lib" $native_libs -o "$work/$name"
}

input_of() { if [ -f "$here/c/$1.input" ]; then echo "$here/c/$1.input"; else echo /dev/null; fi; }

run_np() { # np name [env...] -> stdout in $work/out, status in $rc
    local np=$1 name=$2; shift 2
    env "$@" timeout 120 mpirun -np "$np" "$work/$name" <"$(input_of "$name")" >"$work/out" 2>"$work/err"
    rc=$?
}

for name in basic bytes many_regions stdin_sum exit_status constructs write_scope; do
    if ! build "$name"; then bad "$name: build"; continue; fi
    "$work/$name.serial" <"$(input_of "$name")" >"$work/$name.want"
    want_rc=$?
    if [ -f "$here/c/$name.expected" ] && ! cmp -s "$work/$name.want" "$here/c/$name.expected"; then
        bad "$name: the sequential oracle differs from $name.expected"
    fi
    for np in $nps; do
        run_np "$np" "$name"
        if [ "$rc" = "$want_rc" ] && cmp -s "$work/out" "$work/$name.want"; then
            ok "$name P=$np"
        else
            bad "$name P=$np (exit $rc, want $want_rc)"
            diff "$work/$name.want" "$work/out" | head -5
            head -5 "$work/err"
        fi
    done
done

# Write scopes: also checked against full scans, and a wrong scope must be caught.
run_np 3 write_scope CAPE_WRITE_SCOPE=check
if [ "$rc" = 0 ] && cmp -s "$work/out" "$work/write_scope.want"; then ok "write_scope P=3 CAPE_WRITE_SCOPE=check"; else bad "write_scope P=3 CAPE_WRITE_SCOPE=check (exit $rc)"; head -5 "$work/err"; fi
run_np 3 write_scope CAPE_WRITE_SCOPE=check WRONG_SCOPE=1
if [ "$rc" != 0 ] && grep -q "outside the write scope the compiler computed" "$work/err"; then ok "write_scope P=3: a wrong scope is caught"; else bad "write_scope P=3: a wrong scope is not caught (exit $rc)"; head -5 "$work/err"; fi

# The fallback tracker.
run_np 4 many_regions CAPE_TRACKER=mprotect
if [ "$rc" = 0 ] && cmp -s "$work/out" "$work/many_regions.want"; then ok "many_regions P=4 CAPE_TRACKER=mprotect"; else bad "many_regions P=4 CAPE_TRACKER=mprotect (exit $rc)"; head -5 "$work/err"; fi
run_np 3 basic CAPE_TRACKER=mprotect CAPE_OUTPUT=all
if [ "$rc" = 0 ] && [ "$(sort -u "$work/out")" = "$(sort -u "$work/basic.want")" ] && [ "$(wc -l <"$work/out")" = "$((3 * $(wc -l <"$work/basic.want")))" ]; then
    ok "basic P=3 CAPE_OUTPUT=all (every rank prints)"
else
    bad "basic P=3 CAPE_OUTPUT=all"
fi

# Sequential output once, region output from every thread.
if build region_print; then
    for np in 1 3; do
        run_np "$np" region_print
        want="$(printf 'before\n'; for t in $(seq 0 $((np - 1))); do echo "hello from thread $t of $np"; done; printf 'after, in parallel: 0\n')"
        if [ "$rc" = 0 ] && [ "$(sort "$work/out")" = "$(echo "$want" | sort)" ] && [ "$(head -1 "$work/out")" = before ]; then
            ok "region_print P=$np"
        else
            bad "region_print P=$np (exit $rc)"; cat "$work/out"
        fi
    done
else
    bad "region_print: build"
fi

# schedule(runtime) from OMP_SCHEDULE, and the mprotect tracker with barriers and small teams.
for extra in "OMP_SCHEDULE=dynamic,4" "OMP_SCHEDULE=guided" "OMP_SCHEDULE=static,2" "CAPE_TRACKER=mprotect"; do
    run_np 4 constructs "$extra"
    if [ "$rc" = 0 ] && cmp -s "$work/out" "$work/constructs.want"; then ok "constructs P=4 $extra"; else bad "constructs P=4 $extra (exit $rc)"; head -5 "$work/err"; fi
done
# The mprotect tracker runs one thread per rank: num_threads(3) at P = 2 gets a team of 2 (the
# answers do not depend on it) and rank 0 says so once.
run_np 2 constructs CAPE_TRACKER=mprotect
if [ "$rc" = 0 ] && cmp -s "$work/out" "$work/constructs.want" &&
    [ "$(grep -c "capert: warning: a team of 3 threads runs with 2 (one per rank): the mprotect page tracker" "$work/err")" = 1 ]; then
    ok "constructs P=2 CAPE_TRACKER=mprotect: a capped team is one warning"
else bad "constructs P=2 CAPE_TRACKER=mprotect (exit $rc)"; head -5 "$work/err"; fi
# A bad value is one line for the job, from rank 0, not one per rank.
run_np 3 constructs OMP_SCHEDULE=sometimes
if [ "$rc" != 0 ] && [ "$(grep -c "^capert: error: \`OMP_SCHEDULE=sometimes\` is not a schedule" "$work/err")" = 1 ] &&
    [ "$(grep -c '^capert:' "$work/err")" = 1 ]; then ok "bad OMP_SCHEDULE is one clear error"; else bad "bad OMP_SCHEDULE (exit $rc)"; head -3 "$work/err"; fi
# an absurd thread count per rank: refused at once, not minutes of thread start-up
run_np 2 constructs OMP_NUM_THREADS=100000
if [ "$rc" != 0 ] && [ "$(grep -c '^capert:' "$work/err")" = 1 ] &&
    grep -q "^capert: error: \`OMP_NUM_THREADS=100000\` asks for more threads per rank than capert runs (at most 1024" "$work/err"; then
    ok "OMP_NUM_THREADS=100000 is one clear error"
else bad "OMP_NUM_THREADS=100000 (exit $rc)"; head -3 "$work/err"; fi
# ... also when only one rank has it: rank 0 names that rank
timeout 120 mpirun -np 2 "$work/constructs" : -np 1 env CAPE_MERGE=garbage "$work/constructs" </dev/null >"$work/out" 2>"$work/err"
rc=$?
if [ "$rc" != 0 ] && [ "$(grep -c '^capert:' "$work/err")" = 1 ] &&
    grep -q "^capert: error: on rank 2: \`CAPE_MERGE=garbage\` is not a merge mode" "$work/err"; then
    ok "a bad value on one rank is one clear error"
else
    bad "a bad value on one rank (exit $rc)"; head -3 "$work/err"
fi

# Ranks started with different settings (here a thread count one rank lacks, as when mpirun
# does not export it to a remote node): one clear error before the first region.
timeout 120 mpirun -np 1 env OMP_NUM_THREADS=2 "$work/constructs" : -np 2 "$work/constructs" </dev/null >"$work/out" 2>"$work/err"
rc=$?
if [ "$rc" != 0 ] && grep -q "capert: error: the ranks were started with different settings: OMP_NUM_THREADS is \`2\` on rank 0 and \`1\` on rank 1" "$work/err"; then
    ok "ranks with different OMP_NUM_THREADS are one clear error"
else
    bad "ranks with different OMP_NUM_THREADS (exit $rc)"; head -3 "$work/err"
fi

# Locks: plain flags outside regions; inside a region of more than one rank a set that the
# compiler did not pair with its unset is refused.
if build lock_in_region; then
    run_np 1 lock_in_region
    if [ "$rc" = 0 ] && [ "$(cat "$work/out")" = "$(printf 'held 1 total 1\ntotal 2')" ]; then ok "lock_in_region P=1"; else bad "lock_in_region P=1 (exit $rc): $(cat "$work/out")"; fi
    run_np 3 lock_in_region
    if [ "$rc" != 0 ] && grep -q "capert: error: \`omp_set_lock\` inside a parallel region was reached from code capecc did not instrument" "$work/err" && [ "$(cat "$work/out")" = "held 1 total 1" ]; then
        ok "lock_in_region P=3 is one clear error"
    else
        bad "lock_in_region P=3 (exit $rc)"; head -3 "$work/err"
    fi
else
    bad "lock_in_region: build"
fi

# Race detection.
if build racy; then
    run_np 3 racy CAPE_CHECK=races
    if [ "$rc" != 0 ] && grep -q "capert: error: data race on 0x[0-9a-f]* (in \`shared_flag\`) in the parallel region: [0-9]* byte(s) written by threads [0-9] and [0-9] with different values" "$work/err"; then
        ok "racy P=3 CAPE_CHECK=races reports the race"
    else
        bad "racy P=3 CAPE_CHECK=races (exit $rc)"; head -5 "$work/err"
    fi
    run_np 3 racy
    if [ "$rc" = 0 ] && [ "$(cat "$work/out")" = "flag 1002" ]; then ok "racy P=3 unchecked: last rank wins"; else bad "racy P=3 unchecked (exit $rc): $(cat "$work/out")"; fi
else
    bad "racy: build"
fi

# Arena errors: exhaustion and a collision with an existing mapping (the executable at 0x400000).
if build big_alloc; then
    run_np 2 big_alloc CAPE_ARENA_SIZE=1M
    if [ "$rc" = 3 ] && [ "$(cat "$work/out")" = "NULL 1" ] \
        && [ "$(grep -c "capert: warning: the application heap arena is exhausted .*CAPE_ARENA_SIZE" "$work/err")" = 1 ]; then
        ok "arena exhaustion: NULL with ENOMEM and one clear warning"
    else
        bad "arena exhaustion (exit $rc)"; head -5 "$work/err"
    fi
    run_np 2 big_alloc CAPE_ARENA_BASE=0x400000
    if [ "$rc" != 0 ] && grep -q "capert: error: cannot map the application heap arena at 0x400000.*already mapped.*CAPE_ARENA_BASE" "$work/err" &&
        [ "$(grep -c "capert: error" "$work/err")" = 1 ]; then
        ok "arena collision is one clear error"
    else
        bad "arena collision (exit $rc)"; head -5 "$work/err"
    fi
    run_np 1 big_alloc CAPE_ARENA_SIZE=banana
    if [ "$rc" != 0 ] && grep -q "capert: error: \`CAPE_ARENA_SIZE=banana\` is not a size" "$work/err"; then ok "bad CAPE_ARENA_SIZE is one clear error"; else bad "bad CAPE_ARENA_SIZE (exit $rc)"; head -3 "$work/err"; fi
else
    bad "big_alloc: build"
fi

# The streamed merge messages: every size around a piece, both ways at once, and the folds of
# non-powers of two (capert/examples/mpi_stream.rs checks every byte and every prefix).
if (cd "$root" && cargo build -q -p capert --release --example mpi_stream); then
    for np in 2 3 5; do
        for chunk in 1048576 4096; do
            timeout 300 mpirun -np "$np" "$target/release/examples/mpi_stream" check --chunk "$chunk" >"$work/out" 2>"$work/err"
            rc=$?
            if [ "$rc" = 0 ] && [ "$(cat "$work/out")" = ok ]; then ok "mpi_stream P=$np chunk=$chunk"; else bad "mpi_stream P=$np chunk=$chunk (exit $rc)"; head -5 "$work/err"; fi
        done
    done
else
    bad "mpi_stream: build"
fi
run_np 3 many_regions CAPE_MERGE_CHUNK=100
if [ "$rc" = 0 ] && cmp -s "$work/out" "$work/many_regions.want"; then ok "many_regions P=3 CAPE_MERGE_CHUNK=100"; else bad "many_regions P=3 CAPE_MERGE_CHUNK=100 (exit $rc)"; head -5 "$work/err"; fi
# several threads per rank: the regions of one thread per rank (num_threads(2) at P=2) use
# the demand-driven merge (their pages go by notice), the hybrid regions between them fetch
# the invalid pages before their threads start and merge eagerly
run_np 2 many_regions CAPE_MERGE=lazy OMP_NUM_THREADS=2 CAPE_STATS=1
if [ "$rc" = 0 ] && cmp -s "$work/out" "$work/many_regions.want" &&
    ! grep -q "capert: warning" "$work/err" && grep -q "stats: total:.* notices=[1-9]" "$work/err"; then
    ok "many_regions P=2 CAPE_MERGE=lazy OMP_NUM_THREADS=2 merges on demand"
else bad "many_regions P=2 CAPE_MERGE=lazy OMP_NUM_THREADS=2 (exit $rc)"; head -5 "$work/err"; fi
# the reader prefetch: rank 1 reads the halo page rank 0 publishes at every sweep, so from
# the second sweep on it fetches it at the merge point instead of at a fault
run_np 2 many_regions CAPE_MERGE=lazy CAPE_STATS=1
if [ "$rc" = 0 ] && cmp -s "$work/out" "$work/many_regions.want" &&
    grep -q "stats: total:.* pages_prefetched=[1-9][0-9]* rank=1$" "$work/err"; then
    ok "many_regions P=2 CAPE_MERGE=lazy prefetches what a rank reads"
else bad "many_regions P=2 CAPE_MERGE=lazy reader prefetch (exit $rc)"; grep "stats: total" "$work/err"; fi
run_np 1 basic CAPE_MERGE_CHUNK=0
if [ "$rc" != 0 ] && grep -q "capert: error: \`CAPE_MERGE_CHUNK=0\` is not a size" "$work/err"; then ok "bad CAPE_MERGE_CHUNK is one clear error"; else bad "bad CAPE_MERGE_CHUNK (exit $rc)"; head -3 "$work/err"; fi
# an OpenMP variable capert does not act on, set to a value libgomp refuses: libgomp's warning,
# once (from rank 0), and the run goes on
run_np 3 basic OMP_PROC_BIND=maybe
if [ "$rc" = 0 ] && cmp -s "$work/out" "$work/basic.want" &&
    [ "$(grep -c "capert: warning: \`OMP_PROC_BIND=maybe\` is not a valid value" "$work/err")" = 1 ]; then
    ok "an invalid OMP_PROC_BIND is one warning"
else bad "an invalid OMP_PROC_BIND (exit $rc)"; head -3 "$work/err"; fi

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
