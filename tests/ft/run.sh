#!/usr/bin/env bash
# Fault-tolerance tests: the durable region log, restart by replay on any rank
# count, exactly-once output, refused corrupt logs, and caperun relaunching a job after a rank
# is SIGKILLed. tests/ft/progs/ftjacobi.c (a Jacobi sweep of a small grid, 600 parallel
# regions, a checksum every 50 iterations) is built with `gcc -O2 -fopenmp` (the reference,
# itself checked against the program built without OpenMP) and with capecc; every run's
# output must equal the reference byte for byte, or the first run's output followed by the
# restart's must. tests/ft/checkpoint_dir.sh (sourced as section 6): the checkpoint directory
# against other users (as root and as an ordinary user), a full disk, a directory made
# unwritable mid-run, a hang until --timeout. tests/ft/progs/ftheap.c (section 7): a restart
# rebuilds the heap blocks of `single`/`master` blocks. Section 10: the demand-driven merge
# (`CAPE_MERGE=lazy`) with the log and a restart; section 11: the default `CAPE_MERGE=auto`
# under caperun at P = 4, undisturbed and with a kill; section 12: argv written in regions,
# replayed by a restart.
#
# usage: tests/ft/run.sh [--kills N] [--seed S] [--keep]
#   --kills N  how many kill-a-random-rank runs (default 10)
#   --seed S   seed of the random delays and ranks (default: random; printed)
#   --keep     keep tests/out/ft on success
# Environment: CAPECC (default $CARGO_TARGET_DIR or target, then release/capecc), CAPERUN (default: beside capecc),
# FT_TIMEOUT seconds per run (default 180), FT_OUT (default tests/out/ft), MPIRUN (default mpirun).
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=scripts/env.sh
source "$ROOT/scripts/env.sh"
CAPECC=${CAPECC:-${CARGO_TARGET_DIR:-$ROOT/target}/release/capecc}
CAPERUN=${CAPERUN:-$(dirname "$CAPECC")/caperun}
MPIRUN=${MPIRUN:-mpirun}
TIMEOUT=${FT_TIMEOUT:-180}
OUT=${FT_OUT:-$ROOT/tests/out/ft}
SRC=$ROOT/tests/ft/progs/ftjacobi.c
unset OMP_NUM_THREADS CAPE_CHECKPOINT CAPE_RESTART CAPE_CHECKPOINT_EVERY CAPE_OUTPUT

kills=10
seed=$((RANDOM * 32768 + RANDOM))
keep=0
while [ $# -gt 0 ]; do
    case "$1" in
    --kills)
        kills=${2:?--kills needs a number}
        shift
        ;;
    --seed)
        seed=${2:?--seed needs a number}
        shift
        ;;
    --keep) keep=1 ;;
    -h | --help)
        sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'
        exit 0
        ;;
    *)
        echo "run.sh: unknown argument \`$1\`" >&2
        exit 2
        ;;
    esac
    shift
done
RANDOM=$seed
read -r -a mpirun <<<"$MPIRUN"

passed=0
failed=0
pass() { # name, details
    passed=$((passed + 1))
    printf 'PASS  %-34s %s\n' "$1" "${2:-}"
}
fail() { # name, reason, [file whose tail to show]
    failed=$((failed + 1))
    echo "FAIL  $1  $2"
    if [ -n "${3:-}" ] && [ -s "$3" ]; then
        tail -n 6 "$3" | sed 's/^/      ! /'
    fi
}

for tool in "$CAPECC" "$CAPERUN"; do
    if [ ! -x "$tool" ]; then
        echo "run.sh: \`$tool\` not found (run \`cargo build --release\` or set CAPECC / CAPERUN)" >&2
        echo "ft: 0 passed, 1 failed"
        exit 1
    fi
done

rm -rf "$OUT"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd) # absolute: some runs start in a directory of their own
# the user's key that authenticates the logs: private to these runs, outside every log directory
export CAPE_KEY_FILE=$OUT/user.key
# Most checks are of the log of every region (`CAPE_CHECKPOINT_EVERY=1`, no compaction);
# sections 8 to 10 check compaction and the default, snapshot mode.
export CAPE_CHECKPOINT_EVERY=1 CAPE_CHECKPOINT_COMPACT=0
echo "seed $seed (rerun with --seed $seed)"
INPUT=$OUT/input
echo 100 >"$INPUT"

# --- builds --------------------------------------------------------------------------------
gcc -O2 -fopenmp "$SRC" -o "$OUT/ref" &&
    gcc -O2 -Wno-unknown-pragmas "$SRC" -o "$OUT/seq" &&
    "$CAPECC" -O2 -DWITH_CAPE "$SRC" -o "$OUT/cape" &&
    "$CAPECC" -O2 -DWITH_CAPE -DOTHER_PROGRAM "$SRC" -o "$OUT/other" ||
    {
        echo "run.sh: build failed" >&2
        echo "ft: 0 passed, 1 failed"
        exit 1
    }
OMP_NUM_THREADS=2 "$OUT/ref" <"$INPUT" >"$OUT/ref.out"
"$OUT/seq" <"$INPUT" >"$OUT/seq.out"
if ! cmp -s "$OUT/ref.out" "$OUT/seq.out" || [ "$(wc -l <"$OUT/ref.out")" -ne 13 ]; then
    echo "run.sh: bad test: the gcc -fopenmp output differs from the sequential one" >&2
    echo "ft: 0 passed, 1 failed"
    exit 1
fi
REF=$OUT/ref.out
# the checkpoint-on-request tests run longer, so that a kill after the request always lands
# well before the end even on a loaded machine
OMP_NUM_THREADS=2 "$OUT/ref" 2000 <"$INPUT" >"$OUT/ref2000.out"
REF2000=$OUT/ref2000.out

# --- helpers -------------------------------------------------------------------------------
# u64 at byte OFFSET of FILE (the log header: 40 committed length, 48 committed regions)
header_word() { od -An -t u8 -j "$2" -N 8 "$1" 2>/dev/null | tr -d ' '; }

# rank processes of a binary: its file name is unique per test and is their comm
ranks_of() { pgrep -x "$1"; }

# waits until COUNT processes named NAME exist (at most 20 s)
wait_ranks() {
    local i
    for i in $(seq 200); do
        [ "$(ranks_of "$1" | wc -l)" -ge "$2" ] && return 0
        sleep 0.1
    done
    return 1
}

# waits until FILE has at least N lines (at most SECONDS, default 30 s)
wait_lines() {
    local i
    for i in $(seq $((${3:-30} * 10))); do
        [ -f "$1" ] && [ "$(wc -l <"$1")" -ge "$2" ] && return 0
        sleep 0.1
    done
    return 1
}

# waits until FILE contains TEXT (at most 30 s)
wait_text() {
    local i
    for i in $(seq 600); do
        [ -f "$1" ] && grep -qF -- "$2" "$1" && return 0
        sleep 0.05
    done
    return 1
}

# waits until the log FILE holds at least N regions (at most 30 s)
wait_regions() {
    local i
    for i in $(seq 1500); do
        [ "$(header_word "$1" 48)" -ge "$2" ] 2>/dev/null && return 0
        sleep 0.02
    done
    return 1
}

# SIGKILLs one random rank of NAME; prints "rank R (pid P)"; fails when none is left
kill_random_rank() {
    local pids pid rank
    mapfile -t pids < <(ranks_of "$1")
    [ ${#pids[@]} -gt 0 ] || return 1
    pid=${pids[RANDOM % ${#pids[@]}]}
    rank=$(tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | sed -n 's/^OMPI_COMM_WORLD_RANK=//p')
    kill -9 "$pid" 2>/dev/null || return 1
    echo "rank ${rank:-?} (pid $pid)"
}

# a private copy of the capecc build whose name (<= 15 characters) identifies its ranks
fresh_binary() { # dir, name, [source binary]
    mkdir -p "$1"
    cp "${3:-$OUT/cape}" "$1/$2"
    echo "$1/$2"
}

now() { date +%s%N; }
secs_since() { # start (ns)
    local ms=$((($(now) - $1) / 1000000))
    printf '%d.%02d' $((ms / 1000)) $((ms % 1000 / 10))
}

# --- 1. caperun without a failure ----------------------------------------------------------
d=$OUT/plain
bin=$(fresh_binary "$d" "ftp$$")
start=$(now)
timeout -k 5 "$TIMEOUT" "$CAPERUN" -np 4 --checkpoint "$d/ck" "$bin" <"$INPUT" >"$d/stdout" 2>"$d/stderr"
rc=$?
if [ $rc -ne 0 ]; then
    fail "caperun, no failure" "exit status $rc" "$d/stderr"
elif ! cmp -s "$REF" "$d/stdout"; then
    fail "caperun, no failure" "output differs from the reference" "$d/stderr"
elif grep -q '^caperun:' "$d/stderr"; then
    fail "caperun, no failure" "caperun reported something" "$d/stderr"
elif [ "$(cat "$d/ck/status" 2>/dev/null)" != "exit 0" ]; then
    fail "caperun, no failure" "DIR/status is \`$(cat "$d/ck/status" 2>/dev/null)\`, expected \`exit 0\`"
else
    pass "caperun, no failure" "P=4, $(secs_since "$start") s, $(header_word "$d/ck/cape.log" 48) regions logged"
fi

# --- 2. kill a random rank at a random region, N times in a row -------------------------------
# The log's header lags the program (rank 0 commits regions behind the computation), so a kill
# aimed at a late region can land after the job completed (DIR/status says `exit 0`, caperun
# rightly reports no failure) or after the ranks were gone: that try says nothing, and is
# repeated (at most twice) aiming at an earlier region.
for k in $(seq "$kills"); do
    name="kill $k"
    d=$OUT/kill-$k
    limit=551
    for try in 1 2 3; do
        rm -rf "$d"
        bin=$(fresh_binary "$d" "ftk$$-$k")
        start=$(now)
        timeout -k 5 "$TIMEOUT" "$CAPERUN" -np 4 --checkpoint "$d/ck" "$bin" <"$INPUT" >"$d/stdout" 2>"$d/stderr" &
        job=$!
        victim="" target=""
        if ! wait_ranks "$(basename "$bin")" 4; then
            wait $job
            break
        fi
        # a random region (0: during start-up), seen in the log header as it grows
        target=$((RANDOM % limit))
        [ $target -gt 0 ] && wait_regions "$d/ck/cape.log" $target
        delay_ms=$((($(now) - start) / 1000000))
        killed_at=$(now)
        victim=$(kill_random_rank "$(basename "$bin")")
        wait $job
        rc=$?
        if [ $rc -eq 0 ] && ! grep -q '^caperun: attempt 1 failed' "$d/stderr" &&
            [ "$(cat "$d/ck/status" 2>/dev/null)" = "exit 0" ] && cmp -s "$REF" "$d/stdout"; then
            echo "      (kill $k: ${victim:-no rank} killed after the job completed; again, before region $((target / 2 + 1)))"
            limit=$((target / 2 + 1))
            continue
        fi
        break
    done
    durable=$(sed -n 's/.*attempt 1 failed.*(\([0-9]*\) regions durable.*/\1/p' "$d/stderr")
    if [ -z "$target" ]; then
        fail "$name" "the 4 ranks never showed up" "$d/stderr"
    elif [ -z "$victim" ]; then
        fail "$name" "the job ended before the kill at region $target (${delay_ms} ms)" "$d/stderr"
    elif [ $rc -ne 0 ]; then
        fail "$name" "caperun exit status $rc after killing $victim at ${delay_ms} ms" "$d/stderr"
    elif ! cmp -s "$REF" "$d/stdout"; then
        fail "$name" "output differs from the reference after killing $victim at ${delay_ms} ms" "$d/stderr"
        diff "$REF" "$d/stdout" | head -n 6 | sed 's/^/      | /'
    elif ! grep -q '^caperun: attempt 1 failed after' "$d/stderr" &&
        [ -e "$d/ck/status" ] && [ "$(stat -c %.9Y "$d/ck/status" | tr -d .)" -lt "$killed_at" ]; then
        # the job had written its final status before the kill (a rank killed in MPI_Finalize
        # under load): a completed job, which caperun rightly does not relaunch
        pass "$name" "killed $victim after the job completed (${delay_ms} ms): not a failure, output right"
    elif ! grep -q '^caperun: attempt 1 failed after' "$d/stderr" ||
        ! grep -q '^caperun: completed after 1 restart(s); time lost to failures' "$d/stderr"; then
        fail "$name" "the failure was not reported" "$d/stderr"
    else
        pass "$name" "killed $victim at region >= $target (${delay_ms} ms), ${durable:-no} regions durable, total $(secs_since "$start") s"
    fi
done

# --- 3. restart on P = 1 2 3 4 and on 1x2, 2x2 (R ranks of T threads) from a log written at P = 4
# The job dies midway: run in a directory holding `ftjacobi.stall.150`, it waits after
# iteration 150 (line 3 of its output) until the file goes, so the kill of a rank always lands there,
# once the log holds those 150 regions, however fast or slow the machine; its output so far
# followed by the restart's must be the reference. The restarts run elsewhere (no stall).
d=$OUT/migrate
bin=$(fresh_binary "$d" "ftm$$")
touch "$d/ftjacobi.stall.150"
(cd "$d" && CAPE_CHECKPOINT=$d/ck exec timeout -k 5 "$TIMEOUT" "${mpirun[@]}" -np 4 "$bin" <"$INPUT" >"$d/out1" 2>"$d/err1") &
job=$!
victim=""
# (the job cannot end before the kill: the waits may be long on a loaded machine)
wait_lines "$d/out1" 3 $((TIMEOUT - 30)) && wait_regions "$d/ck/cape.log" 150 &&
    victim=$(kill_random_rank "$(basename "$bin")")
# the ranks left wait for the dead one in the next region (or, with no kill, the job ends)
rm -f "$d/ftjacobi.stall.150"
wait $job
base_ok=0
if [ -z "$victim" ]; then
    fail "log at P=4, killed midway" "could not kill a rank after iteration 150" "$d/err1"
elif [ -e "$d/ck/status" ]; then
    fail "log at P=4, killed midway" "DIR/status exists after a rank was killed: $(cat "$d/ck/status")"
elif [ "$(header_word "$d/ck/cape.log" 48)" = "" ] || [ "$(header_word "$d/ck/cape.log" 48)" -eq 0 ]; then
    fail "log at P=4, killed midway" "no region durable after iteration 150 was printed"
elif ! head -c "$(stat -c %s "$d/out1")" "$REF" | cmp -s - "$d/out1"; then
    fail "log at P=4, killed midway" "the output before the kill is not a prefix of the reference"
else
    base_ok=1
    pass "log at P=4, killed midway" "killed $victim after $(wc -l <"$d/out1") lines, $(header_word "$d/ck/cape.log" 48) regions durable"
fi
# restart from a copy of the log in DIR; stdout and stderr in DIR.out / DIR.err, status in DIR.rc
restart() { # ckdir, P (or RxT: R ranks of T threads), binary, args...
    local ck=$1 p=${2%x*} t=1 b=$3
    [[ $2 == *x* ]] && t=${2#*x}
    shift 3
    OMP_NUM_THREADS=$t CAPE_RESTART=$ck timeout -k 5 "$TIMEOUT" "${mpirun[@]}" -np "$p" "$b" "$@" <"$INPUT" >"$ck.out" 2>"$ck.err"
    echo $? >"$ck.rc"
}
if [ $base_ok -eq 1 ]; then
    for P in 1 2 3 4 1x2 2x2; do
        cp -r "$d/ck" "$d/ck-p$P"
        restart "$d/ck-p$P" "$P" "$bin"
        if [ "$(cat "$d/ck-p$P.rc")" != 0 ]; then
            fail "restart at P=$P" "exit status $(cat "$d/ck-p$P.rc")" "$d/ck-p$P.err"
        elif ! cat "$d/out1" "$d/ck-p$P.out" | cmp -s "$REF" -; then
            fail "restart at P=$P" "first run + restart output differs from the reference" "$d/ck-p$P.err"
            cat "$d/out1" "$d/ck-p$P.out" | diff "$REF" - | head -n 6 | sed 's/^/      | /'
        elif [ "$(cat "$d/ck-p$P/status" 2>/dev/null)" != "exit 0" ]; then
            fail "restart at P=$P" "DIR/status is \`$(cat "$d/ck-p$P/status" 2>/dev/null)\`"
        elif [ "$(header_word "$d/ck-p$P/cape.log" 48)" != 600 ]; then
            fail "restart at P=$P" "the log holds $(header_word "$d/ck-p$P/cape.log" 48) regions after the restart, expected 600"
        else
            pass "restart at P=$P" "$(wc -l <"$d/ck-p$P.out") lines printed by the restart"
        fi
    done
fi

# --- 4. corrupt and mismatched logs ---------------------------------------------------------
# Each must be refused with exactly one `capert: error:` line, a nonzero status, `error` in
# DIR/status and no output at all (the program prints nothing before region 50, and the whole
# log is validated before the first injection).
refused() { # name, ckdir, binary, [args...]  (expects a refusal); pattern in $expect if set
    local name=$1 ck=$2 b=$3 n
    shift 3
    restart "$ck" 2 "$b" "$@"
    n=$(grep -c 'capert: error:' "$ck.err")
    if [ "$(cat "$ck.rc")" = 0 ]; then
        fail "$name" "accepted (exit status 0)" "$ck.err"
    elif [ "$(cat "$ck.rc")" -ge 124 ]; then
        fail "$name" "timed out or crashed (status $(cat "$ck.rc"))" "$ck.err"
    elif [ "$n" -ne 1 ]; then
        fail "$name" "$n \`capert: error:\` lines, expected 1" "$ck.err"
    elif [ -n "${expect:-}" ] && ! grep -q -- "$expect" "$ck.err"; then
        fail "$name" "the error does not say \`$expect\`" "$ck.err"
    elif [ -s "$ck.out" ]; then
        fail "$name" "printed output: $(head -c 80 "$ck.out")" "$ck.err"
    elif [ "$(cat "$ck/status" 2>/dev/null)" != error ]; then
        fail "$name" "DIR/status is \`$(cat "$ck/status" 2>/dev/null)\`, expected \`error\`" "$ck.err"
    else
        pass "$name" "$(grep -m1 'capert: error:' "$ck.err" | cut -c1-110)"
    fi
}
# flips one bit of byte OFFSET of FILE in place
flip_bit() {
    local byte
    byte=$(od -An -t u1 -j "$2" -N 1 "$1" | tr -d ' ')
    printf "$(printf '\\%03o' $((byte ^ 16)))" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}
if [ $base_ok -eq 1 ]; then
    c=$OUT/corrupt
    mkdir -p "$c"
    len=$(header_word "$d/ck/cape.log" 40)
    fresh() { rm -rf "$c/$1" && cp -r "$d/ck" "$c/$1" && echo "$c/$1"; }
    expect=""
    ck=$(fresh trunc-1) && truncate -s $((len - 1)) "$ck/cape.log" && refused "truncated by 1 byte" "$ck" "$bin"
    ck=$(fresh trunc-half) && truncate -s $((len / 2)) "$ck/cape.log" && refused "truncated to half" "$ck" "$bin"
    ck=$(fresh trunc-header) && truncate -s 30 "$ck/cape.log" && refused "truncated inside the header" "$ck" "$bin"
    for off in 2 20 44 60 70 100 $((len / 3)) $((len / 2 + 7)) $((len - 3)); do
        ck=$(fresh "flip-$off") && flip_bit "$ck/cape.log" "$off" && refused "bit flipped at byte $off" "$ck" "$bin"
    done
    ck=$(fresh other-program) && refused "log of another program" "$ck" "$(fresh_binary "$c" "fto$$" "$OUT/other")"
    ck=$(fresh other-args) && refused "other arguments" "$ck" "$bin" 600
    expect="standard input differs"
    ck=$(fresh other-input)
    echo 90 >"$c/input90"
    INPUT=$c/input90 refused "other input" "$ck" "$bin"
    expect=""
    mkdir -p "$c/empty" && refused "no log in the directory" "$c/empty" "$bin"
    # caperun must not relaunch a refused log
    ck=$(fresh caperun-refused) && truncate -s $((len - 100)) "$ck/cape.log"
    timeout -k 5 "$TIMEOUT" "$CAPERUN" -np 2 --resume --checkpoint "$ck" "$bin" >"$ck.out" 2>"$ck.err"
    rc=$?
    if [ $rc -ne 1 ] || [ "$(grep -c 'capert: error:' "$ck.err")" -ne 1 ] ||
        ! grep -q '^caperun: error: the job stopped with a runtime error' "$ck.err" || [ -s "$ck.out" ]; then
        fail "caperun --resume of a bad log" "status $rc; expected 1, one capert error, no relaunch, no output" "$ck.err"
    else
        pass "caperun --resume of a bad log" "refused once, not relaunched"
    fi
    # a torn tail (bytes past the committed length) is the trace of a crash during a write
    ck=$(fresh torn-tail) && head -c 1000 /dev/urandom >>"$ck/cape.log" && restart "$ck" 3 "$bin"
    if [ "$(cat "$ck.rc")" != 0 ]; then
        fail "torn tail accepted" "exit status $(cat "$ck.rc")" "$ck.err"
    elif ! cat "$d/out1" "$ck.out" | cmp -s "$REF" -; then
        fail "torn tail accepted" "first run + restart output differs from the reference" "$ck.err"
    else
        pass "torn tail accepted" "1000 bytes past the committed length, restart at P=3 right"
    fi
fi

# --- 5. checkpoint on request: cape_checkpoint_now() and SIGUSR1 ----------------------------
# With CAPE_CHECKPOINT_EVERY far beyond the run's length only the request makes a record.
export CAPE_CHECKPOINT_EVERY=100000
d=$OUT/now
bin=$(fresh_binary "$d" "ftn$$")
timeout -k 5 "$TIMEOUT" "$CAPERUN" -np 4 --checkpoint "$d/ck" "$bin" 2000 300 <"$INPUT" >"$d/stdout" 2>"$d/stderr" &
job=$!
victim=""
# kill right after the requested checkpoint (iteration 300 of 2000), not at a later line that a
# fast run may pass on its way to the end before the kill lands
wait_text "$d/stderr" 'cape_checkpoint_now() = ' && victim=$(kill_random_rank "$(basename "$bin")")
wait $job
rc=$?
line=$(grep -m1 'cape_checkpoint_now()' "$d/stderr")
if [ -z "$victim" ]; then
    fail "cape_checkpoint_now()" "could not kill a rank after iteration 300" "$d/stderr"
elif [ "$line" != "ftjacobi: cape_checkpoint_now() = 0, regions durable 300" ]; then
    fail "cape_checkpoint_now()" "the program printed \`$line\`" "$d/stderr"
elif ! grep -q 'attempt 1 failed.*(300 regions durable' "$d/stderr"; then
    fail "cape_checkpoint_now()" "the failure report does not say 300 regions durable" "$d/stderr"
elif [ $rc -ne 0 ] || ! cmp -s "$REF2000" "$d/stdout"; then
    fail "cape_checkpoint_now()" "status $rc or output differs after the relaunch" "$d/stderr"
else
    pass "cape_checkpoint_now()" "300 regions durable at the kill, relaunched right"
fi

d=$OUT/sigusr1
bin=$(fresh_binary "$d" "fts$$")
# a run that ended before the kill landed (fast regions) is repeated with twice as many
# iterations (at most twice)
for iters in 2000 4000 8000; do
    rm -rf "$d/ck"
    timeout -k 5 "$TIMEOUT" "$CAPERUN" -np 4 --checkpoint "$d/ck" "$bin" $iters <"$INPUT" >"$d/stdout" 2>"$d/stderr" &
    job=$!
    victim=""
    regions=0
    if wait_lines "$d/stdout" 4; then
        caperun_pid=$(pgrep -P $job -x caperun)
        [ -n "$caperun_pid" ] && kill -USR1 "$caperun_pid"
        for _ in $(seq 50); do
            regions=$(header_word "$d/ck/cape.log" 48)
            [ "${regions:-0}" -gt 0 ] && break
            sleep 0.1
        done
        victim=$(kill_random_rank "$(basename "$bin")")
    fi
    wait $job
    rc=$?
    [ -n "$victim" ] && grep -q '^caperun: attempt 1 failed' "$d/stderr" && break
    echo "      (SIGUSR1: the run of $iters iterations ended before the kill; again with twice as many)"
done
OMP_NUM_THREADS=2 "$OUT/ref" $iters <"$INPUT" >"$d/ref.out"
if [ -z "$victim" ]; then
    fail "SIGUSR1" "could not kill a rank after iteration 200" "$d/stderr"
elif [ "${regions:-0}" -lt 200 ]; then
    fail "SIGUSR1" "the log holds ${regions:-0} regions 5 s after SIGUSR1 (iteration >= 200)" "$d/stderr"
elif ! grep -q "attempt 1 failed.*($regions regions durable" "$d/stderr"; then
    fail "SIGUSR1" "the failure report does not say $regions regions durable" "$d/stderr"
elif [ $rc -ne 0 ] || ! cmp -s "$d/ref.out" "$d/stdout"; then
    fail "SIGUSR1" "status $rc or output differs after the relaunch" "$d/stderr"
else
    pass "SIGUSR1" "forwarded by caperun and mpirun: $regions regions durable at the kill, $iters iterations"
fi
export CAPE_CHECKPOINT_EVERY=1

# --- 6. the checkpoint directory against other users, full disk, unwritable, hang ------------
# shellcheck source=tests/ft/checkpoint_dir.sh
source "$ROOT/tests/ft/checkpoint_dir.sh"
ckdir_run

# --- 7. heap blocks of `single`/`master` blocks: a restart rebuilds the heap -----------------
# tests/ft/progs/ftheap.c allocates and frees inside `single` and `master` in every region (and
# grows the heap by 6 MiB in region 50); the first run stops after region 90 (ftheap.stop),
# the restart replays those 90 regions and runs the rest.
d=$OUT/heap
mkdir -p "$d"
HEAP_SRC=$ROOT/tests/ft/progs/ftheap.c
if ! gcc -O2 -fopenmp "$HEAP_SRC" -o "$d/ref" || ! "$CAPECC" -O2 "$HEAP_SRC" -o "$d/ftheap"; then
    fail "heap of single/master, restart" "build failed"
else
    OMP_NUM_THREADS=3 "$d/ref" >"$d/ref.out"
    echo 90 >"$d/ftheap.stop"
    (cd "$d" && CAPE_CHECKPOINT=$d/ck timeout -k 5 "$TIMEOUT" "${mpirun[@]}" -np 3 "$d/ftheap" >"$d/out1" 2>"$d/err1")
    rc1=$?
    rm -f "$d/ftheap.stop"
    (cd "$d" && restart "$d/ck" 2 "$d/ftheap")
    if [ $rc1 -ne 3 ]; then
        fail "heap of single/master, restart" "first run: exit status $rc1, expected 3" "$d/err1"
    elif [ "$(cat "$d/ck.rc")" != 0 ]; then
        fail "heap of single/master, restart" "restart at P=2: exit status $(cat "$d/ck.rc")" "$d/ck.err"
    elif ! cat "$d/out1" "$d/ck.out" | cmp -s "$d/ref.out" -; then
        fail "heap of single/master, restart" "first run + restart output differs from the reference" "$d/ck.err"
        cat "$d/out1" "$d/ck.out" | diff "$d/ref.out" - | head -n 6 | sed 's/^/      | /'
    else
        pass "heap of single/master, restart" "stopped after region 90 at P=3, restarted at P=2"
    fi
fi

# --- 8. compaction: a bounded log, and a crash in the middle of a compaction ---------------
# ftjacobi's shared data is its two 48x48 grids (36 KiB); each region logs one of them, so
# without compaction (the default) the log grows by ~18 KiB per region. With it the log holds
# one snapshot, the regions since it and a few bytes per region before it.
export CAPE_CHECKPOINT_COMPACT=1
d=$OUT/compact
bin=$(fresh_binary "$d" "ftc$$")
CAPE_CHECKPOINT=$d/ck timeout -k 5 "$TIMEOUT" "${mpirun[@]}" -np 2 "$bin" <"$INPUT" >"$d/out" 2>"$d/err"
rc=$?
CAPE_CHECKPOINT_COMPACT=0 CAPE_CHECKPOINT=$d/full timeout -k 5 "$TIMEOUT" "${mpirun[@]}" -np 2 "$bin" <"$INPUT" >"$d/out-full" 2>"$d/err-full"
size=$(stat -c %s "$d/ck/cape.log" 2>/dev/null || echo 0)
full=$(stat -c %s "$d/full/cape.log" 2>/dev/null || echo 0)
bound=$((3 * 2 * 48 * 48 * 8 + 128 * 600))
if [ $rc -ne 0 ] || ! cmp -s "$d/out" "$REF" || ! cmp -s "$d/out-full" "$REF"; then
    fail "compacted log" "status $rc or output differs" "$d/err"
elif ! grep -q 'CAPESNP' "$d/ck/cape.log" || [ "$size" -gt $bound ]; then
    fail "compacted log" "$size bytes (no snapshot, or above $bound); uncompacted $full bytes"
else
    pass "compacted log" "$size bytes after 600 regions, $full without compaction"
fi
# rank 0 SIGKILLs itself halfway through writing its first compacted log (the test hook);
# the previous log is intact and a restart at P=3 completes the job
CAPE_CHECKPOINT_TEST_KILL=compaction CAPE_CHECKPOINT=$d/ckk timeout -k 5 "$TIMEOUT" "${mpirun[@]}" -np 2 "$bin" <"$INPUT" >"$d/out1" 2>"$d/err1"
rc1=$?
regions=$(header_word "$d/ckk/cape.log" 48)
half_written=$([ -s "$d/ckk/cape.log.tmp" ] && [ ! -e "$d/ckk/status" ] && echo 1)
restart "$d/ckk" 3 "$bin"
if [ $rc1 -eq 0 ] || [ -z "$half_written" ]; then
    fail "crash during compaction" "the first run was not killed mid-compaction (status $rc1)" "$d/err1"
elif [ "$(cat "$d/ckk.rc")" != 0 ] || ! cat "$d/out1" "$d/ckk.out" | cmp -s "$REF" -; then
    fail "crash during compaction" "the restart failed or its output differs" "$d/ckk.err"
elif grep -q CAPESNP "$d/ckk/cape.log" && [ "$(header_word "$d/ckk/cape.log" 48)" = 600 ]; then
    pass "crash during compaction" "killed with ${regions:-0} regions durable, restarted at P=3 (compacted again)"
else
    fail "crash during compaction" "the restart's log was not compacted"
fi

# restarts a copy of the log DIR/mid (argument ITERATIONS) at each P; the first run's output
# DIR/out1 followed by the restart's must be REFERENCE
restart_copies() { # name, dir, reference, details, binary, iterations, P...
    local name=$1 dir=$2 want=$3 details=$4 b=$5 iterations=$6 P
    shift 6
    for P in "$@"; do
        cp -r "$dir/mid" "$dir/mid-p$P"
        restart "$dir/mid-p$P" "$P" "$b" "$iterations"
        if [ "$(cat "$dir/mid-p$P.rc")" != 0 ] || ! cat "$dir/out1" "$dir/mid-p$P.out" | cmp -s "$want" -; then
            fail "$name at P=$P" "status $(cat "$dir/mid-p$P.rc") or output differs" "$dir/mid-p$P.err"
        else
            pass "$name at P=$P" "$details"
        fi
    done
}

# Runs BINARY at -np P with a log in DIR/mid for SWEEPS sweeps (stdin from $INPUT) and kills a
# random rank once the output has LINES lines and one region is durable. The regions are fast
# enough that a run can end before the kill lands: then again with twice and four times as
# many sweeps. Sets `victim` (empty if none was killed), `sweeps` (of the last run) and
# `ended` (1: that run ended before the kill).
kill_logged_run() { # name, dir, P, binary, lines, sweeps
    local name=$1 dir=$2 np=$3 b=$4 lines=$5 first=$6
    for sweeps in $first $((first * 2)) $((first * 4)); do
        rm -rf "$dir/mid"
        CAPE_CHECKPOINT=$dir/mid timeout -k 5 "$TIMEOUT" "${mpirun[@]}" -np "$np" "$b" $sweeps <"$INPUT" >"$dir/out1" 2>"$dir/err1" &
        local job=$!
        victim=""
        wait_lines "$dir/out1" "$lines" && wait_regions "$dir/mid/cape.log" 1 && victim=$(kill_random_rank "$(basename "$b")")
        wait $job
        ended=0
        [ "$(wc -l <"$dir/out1")" -gt $((sweeps / 50)) ] && ended=1
        [ -n "$victim" ] && [ $ended -eq 0 ] && return
        echo "      ($name: the run of $sweeps sweeps ended before the kill; again with twice as many)"
    done
}

# --- 9. snapshot mode (the default is `auto`; here every 0.02 s) -----------------------------
# Regions are logged thinned and become durable with each snapshot: a rank killed after
# iteration 150 is recovered from the last snapshot; a log killed midway restarts at P = 1 and 3.
# The regions are fast (a run of 2000 sweeps takes well under a second at P = 3), so each run
# has 4000 sweeps, and a run that ended before the kill landed is repeated with twice as many
# (at most twice).
export CAPE_CHECKPOINT_EVERY=0.02s
d=$OUT/snap
bin=$(fresh_binary "$d" "fts$$")
for sweeps in 4000 8000 16000; do
    rm -rf "$d/ck"
    timeout -k 5 "$TIMEOUT" "$CAPERUN" -np 3 --checkpoint "$d/ck" "$bin" $sweeps <"$INPUT" >"$d/stdout" 2>"$d/stderr" &
    job=$!
    victim=""
    wait_ranks "$(basename "$bin")" 3 && wait_lines "$d/stdout" 3 && victim=$(kill_random_rank "$(basename "$bin")")
    wait $job
    rc=$?
    [ -n "$victim" ] && break
    echo "      (snapshot mode: the run of $sweeps sweeps ended before the kill; again with twice as many)"
done
OMP_NUM_THREADS=2 "$OUT/ref" $sweeps <"$INPUT" >"$d/ref.out"
if [ -z "$victim" ] || [ $rc -ne 0 ] || ! cmp -s "$d/ref.out" "$d/stdout"; then
    fail "snapshot mode, rank killed" "status $rc, victim ${victim:-none}, or output differs ($sweeps sweeps)" "$d/stderr"
elif ! grep -q 'CAPESNP' "$d/ck/cape.log" || ! grep -q '^caperun: attempt 1 failed' "$d/stderr"; then
    fail "snapshot mode, rank killed" "no snapshot in the log, or the failure was not reported" "$d/stderr"
else
    pass "snapshot mode, rank killed" "killed $victim, $(sed -n 's/.*(\([0-9]*\) regions durable.*/\1/p' "$d/stderr") regions durable, $sweeps sweeps"
fi
kill_logged_run "snapshot mode, restart" "$d" 4 "$bin" 3 4000
regions=$(header_word "$d/mid/cape.log" 48)
OMP_NUM_THREADS=2 "$OUT/ref" $sweeps <"$INPUT" >"$d/ref.out"
if [ -z "$victim" ] || [ $ended -eq 1 ] || [ "${regions:-0}" -eq 0 ]; then
    fail "snapshot mode, restart" "could not kill a rank after a snapshot (${regions:-0} regions durable, $sweeps sweeps)" "$d/err1"
else
    restart_copies "snapshot mode, restart" "$d" "$d/ref.out" "from $regions regions (snapshot), killed $victim, $sweeps sweeps" "$bin" $sweeps 1 3
fi

# --- 10. exact snapshots: what sequential code keeps outside shared memory ------------------
# tests/ft/progs/ftrunning.c adds a grid point to a running sum after every sweep and counts
# warm sweeps, in locals of main that no region writes. A P = 3 run is killed after a snapshot;
# restarts at P = 3 and 2 re-run the sequential code against an earlier state of the grid and
# must still print the values of the undisturbed run (the snapshot restores every user frame
# and the callee-saved registers at the region call). Snapshots as often as the writer allows
# and the kill soon after the first one (after iteration 250), in a run of 3000 sweeps; when the
# regions are so fast that the run ended before the kill landed, again with twice as many
# sweeps (at most twice).
d=$OUT/exact
mkdir -p "$d"
if ! gcc -O2 -fopenmp "$ROOT/tests/ft/progs/ftrunning.c" -o "$d/ref" ||
    ! "$CAPECC" -O2 "$ROOT/tests/ft/progs/ftrunning.c" -o "$d/ftx$$"; then
    fail "exact snapshot" "build failed"
else
    bin=$d/ftx$$
    CAPE_CHECKPOINT_EVERY=0.001s kill_logged_run "exact snapshot" "$d" 3 "$bin" 5 3000
    regions=$(header_word "$d/mid/cape.log" 48)
    OMP_NUM_THREADS=2 "$d/ref" $sweeps >"$d/ref.out"
    if [ -z "$victim" ] || [ "${regions:-0}" -eq 0 ] || [ $ended -eq 1 ]; then
        fail "exact snapshot" "could not kill a rank after a snapshot (${regions:-0} regions durable, $sweeps sweeps)" "$d/err1"
    else
        restart_copies "exact snapshot, restart" "$d" "$d/ref.out" "locals of main restored from region $regions, killed $victim, $sweeps sweeps" "$bin" $sweeps 3 2
    fi
fi
export CAPE_CHECKPOINT_EVERY=1 CAPE_CHECKPOINT_COMPACT=0

# --- 10. the demand-driven merge with the log (CAPE_MERGE=lazy) -----------------------------
# Rank 0 fetches the pages the other ranks publish at once, so the payload holds them. A
# 256x256 grid (rows of 2 KiB: each rank homes its block of pages); the first run (P = 3) is
# killed after its 12th line, the restart (P = 2) replays the log and runs the rest lazily.
d=$OUT/lazy
mkdir -p "$d"
lazy_bin=$d/ftl$$
if ! gcc -O2 -fopenmp -DN=256 "$SRC" -o "$d/ref" || ! "$CAPECC" -O2 -DWITH_CAPE -DN=256 "$SRC" -o "$lazy_bin"; then
    fail "lazy merge, log and restart" "build failed"
else
    OMP_NUM_THREADS=3 "$d/ref" 2000 <"$INPUT" >"$d/ref.out"
    export CAPE_MERGE=lazy CAPE_STATS=1
    CAPE_CHECKPOINT=$d/ck timeout -k 5 "$TIMEOUT" "${mpirun[@]}" -np 3 "$lazy_bin" 2000 <"$INPUT" >"$d/out1" 2>"$d/err1" &
    job=$!
    victim=""
    wait_lines "$d/out1" 12 && victim=$(kill_random_rank "$(basename "$lazy_bin")")
    wait $job
    regions=$(header_word "$d/ck/cape.log" 48)
    restart "$d/ck" 2 "$lazy_bin" 2000
    notices=$(sed -n 's/.*stats: total:.* notices=\([0-9]*\).*/\1/p' "$d/ck.err" | awk '{n += $1} END {print n + 0}')
    unset CAPE_MERGE CAPE_STATS
    if [ -z "$victim" ] || [ "${regions:-0}" -eq 0 ]; then
        fail "lazy merge, log and restart" "could not kill a rank mid-run (${regions:-0} regions durable)" "$d/err1"
    elif [ "$(cat "$d/ck.rc")" != 0 ] || ! cat "$d/out1" "$d/ck.out" | cmp -s "$d/ref.out" -; then
        fail "lazy merge, log and restart" "restart status $(cat "$d/ck.rc") or output differs" "$d/ck.err"
    elif [ "$notices" -eq 0 ]; then
        fail "lazy merge, log and restart" "no page went by notice: the merge was not lazy" "$d/ck.err"
    else
        pass "lazy merge, log and restart" "killed $victim after $regions regions, restarted at P=2, $notices notices"
    fi
    # The log holds the bytes the eager merge would log (the changed bytes of each published
    # page, not the whole page): an uninterrupted run logs as much in both modes (the
    # records' grouping may differ a little).
    for mode in eager lazy; do
        CAPE_MERGE=$mode CAPE_CHECKPOINT=$d/ck-$mode timeout -k 5 "$TIMEOUT" "${mpirun[@]}" -np 3 "$lazy_bin" 100 <"$INPUT" >"$d/out-$mode" 2>"$d/err-$mode"
    done
    eager_size=$(stat -c %s "$d/ck-eager/cape.log" 2>/dev/null || echo 0)
    lazy_size=$(stat -c %s "$d/ck-lazy/cape.log" 2>/dev/null || echo 0)
    OMP_NUM_THREADS=3 "$d/ref" 100 <"$INPUT" >"$d/ref100.out"
    if ! cmp -s "$d/ref100.out" "$d/out-eager" || ! cmp -s "$d/ref100.out" "$d/out-lazy"; then
        fail "lazy merge logs the eager bytes" "output differs from the reference" "$d/err-lazy"
    elif [ "$eager_size" -eq 0 ] || [ $((lazy_size * 100)) -lt $((eager_size * 99)) ] ||
        [ $((lazy_size * 100)) -gt $((eager_size * 101)) ]; then
        fail "lazy merge logs the eager bytes" "log of $lazy_size bytes lazily, $eager_size eagerly"
    else
        pass "lazy merge logs the eager bytes" "$lazy_size bytes lazily, $eager_size eagerly (100 regions, P=3)"
    fi
fi

# --- 11. the default merge (`CAPE_MERGE=auto`) under caperun at P = 4 -----------------------
# `auto` decides per region, from every rank's timings, whether an instance merges lazily;
# the decision must be the same on every rank (one rank in the eager merge while another
# exchanges notices is a hang), and rank 0 writing the log and its snapshots times its
# instances differently from the others. The 256x256 grid of section 10: once undisturbed for
# 6000 sweeps (it must have tried the lazy merge: `auto` checks at every doubling of the
# instance count once the region has run 2 s, and on a quiet machine the 2048th instance comes
# before that, the 4096th after; 12000 when none was tried), once for 4000 sweeps with a rank
# killed midway.
d=$OUT/auto
mkdir -p "$d"
auto_bin=$d/fta$$
if ! gcc -O2 -fopenmp -DN=256 "$SRC" -o "$d/ref" || ! "$CAPECC" -O2 -DWITH_CAPE -DN=256 "$SRC" -o "$auto_bin"; then
    fail "auto merge under caperun" "build failed"
else
    OMP_NUM_THREADS=4 "$d/ref" 4000 <"$INPUT" >"$d/ref.out"
    unset CAPE_CHECKPOINT_EVERY CAPE_CHECKPOINT_COMPACT
    # a machine fast enough to reach the 4096th instance within 2 s: again, twice as long
    for sweeps in 6000 12000; do
        OMP_NUM_THREADS=4 "$d/ref" $sweeps <"$INPUT" >"$d/ref-long.out"
        rm -rf "$d/ck"
        CAPE_MERGE=auto CAPE_STATS=1 timeout -k 5 "$TIMEOUT" "$CAPERUN" -np 4 --checkpoint "$d/ck" "$auto_bin" $sweeps <"$INPUT" >"$d/out" 2>"$d/err"
        rc=$?
        notices=$(sed -n 's/.*stats: total:.* notices=\([0-9]*\).*/\1/p' "$d/err" | awk '{n += $1} END {print n + 0}')
        [ $rc -ne 0 ] || [ "$notices" -gt 0 ] && break
    done
    if [ $rc -ne 0 ] || ! cmp -s "$d/ref-long.out" "$d/out" || grep -q '^caperun:' "$d/err"; then
        fail "auto merge under caperun" "exit status $rc, a failure, or output differs" "$d/err"
    elif [ "$notices" -eq 0 ]; then
        fail "auto merge under caperun" "no trial of the lazy merge (no page went by notice)" "$d/err"
    else
        pass "auto merge under caperun" "P=4, $sweeps regions, $notices notices"
    fi
    # the first attempt waits after iteration 2000 (`ftjacobi.stall.2000` in its working
    # directory) until a rank is killed, so the kill cannot come after the end; the file goes
    # at once, before the relaunch replays that far
    mkdir -p "$d/kill-cwd"
    touch "$d/kill-cwd/ftjacobi.stall.2000"
    (cd "$d/kill-cwd" && CAPE_MERGE=auto exec timeout -k 5 "$TIMEOUT" "$CAPERUN" -np 4 --checkpoint "$d/ck-kill" "$auto_bin" 4000 <"$INPUT" >"$d/out-kill" 2>"$d/err-kill") &
    job=$!
    victim=""
    wait_lines "$d/out-kill" 40 $((TIMEOUT - 30)) && victim=$(kill_random_rank "$(basename "$auto_bin")")
    rm -f "$d/kill-cwd/ftjacobi.stall.2000"
    wait $job
    rc=$?
    if [ -z "$victim" ]; then
        fail "auto merge under caperun, killed" "could not kill a rank after iteration 2000" "$d/err-kill"
    elif [ $rc -ne 0 ] || ! cmp -s "$d/ref.out" "$d/out-kill"; then
        fail "auto merge under caperun, killed" "caperun exit status $rc or output differs after killing $victim" "$d/err-kill"
    elif ! grep -q '^caperun: completed after 1 restart(s)' "$d/err-kill"; then
        fail "auto merge under caperun, killed" "the failure was not reported" "$d/err-kill"
    else
        pass "auto merge under caperun, killed" "killed $victim after iteration 2000"
    fi
    export CAPE_CHECKPOINT_EVERY=1 CAPE_CHECKPOINT_COMPACT=0
fi

# --- 12. the command line: shared memory that a restart rebuilds ------------------------------
# tests/ft/progs/ftargv.c changes its argv strings and array in every region; the first run
# (P = 3) stops after region 90 (ftargv.stop), the restart (P = 2) replays them and runs the
# rest, once with a log of every region and once in snapshot mode. The log binds argv[0] too:
# a restart naming the program through a symbolic link is refused.
d=$OUT/argv
mkdir -p "$d"
if ! gcc -O2 -fopenmp "$ROOT/tests/ft/progs/ftargv.c" -o "$d/ref" ||
    ! "$CAPECC" -O2 "$ROOT/tests/ft/progs/ftargv.c" -o "$d/ftargv"; then
    fail "argv written in regions, restart" "build failed"
else
    argv_args=(alphabet soup tests)
    OMP_NUM_THREADS=3 "$d/ref" "${argv_args[@]}" >"$d/ref.out"
    for mode in 1 0.001s; do
        name="argv written in regions, restart (CAPE_CHECKPOINT_EVERY=$mode)"
        rm -rf "$d/ck-$mode" && echo 90 >"$d/ftargv.stop"
        (cd "$d" && CAPE_CHECKPOINT_EVERY=$mode CAPE_CHECKPOINT_COMPACT=1 CAPE_CHECKPOINT=$d/ck-$mode \
            timeout -k 5 "$TIMEOUT" "${mpirun[@]}" -np 3 "$d/ftargv" "${argv_args[@]}" >"$d/out1-$mode" 2>"$d/err1-$mode")
        rc1=$?
        rm -f "$d/ftargv.stop"
        (cd "$d" && CAPE_CHECKPOINT_EVERY=$mode CAPE_CHECKPOINT_COMPACT=1 restart "$d/ck-$mode" 2 "$d/ftargv" "${argv_args[@]}")
        if [ $rc1 -ne 3 ]; then
            fail "$name" "first run: exit status $rc1, expected 3" "$d/err1-$mode"
        elif [ "$(cat "$d/ck-$mode.rc")" != 0 ]; then
            fail "$name" "restart at P=2: exit status $(cat "$d/ck-$mode.rc")" "$d/ck-$mode.err"
        elif ! cat "$d/out1-$mode" "$d/ck-$mode.out" | cmp -s "$d/ref.out" -; then
            fail "$name" "first run + restart output differs from the reference" "$d/ck-$mode.err"
            cat "$d/out1-$mode" "$d/ck-$mode.out" | diff "$d/ref.out" - | head -n 6 | sed 's/^/      | /'
        else
            pass "$name" "stopped after region 90 at P=3, restarted at P=2"
        fi
    done
    ln -sf ftargv "$d/ftargv-link"
    rm -rf "$d/ck-link" && cp -r "$d/ck-1" "$d/ck-link"
    expect="other arguments" refused "argv[0] differs (a symbolic link)" "$d/ck-link" "$d/ftargv-link" "${argv_args[@]}"
fi

if [ $failed -eq 0 ] && [ $keep -eq 0 ]; then
    rm -rf "$OUT"
elif [ $failed -gt 0 ]; then
    echo "outputs kept in $OUT"
fi
echo "ft: $passed passed, $failed failed"
[ $failed -eq 0 ]
