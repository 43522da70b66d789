#!/usr/bin/env bash
# Crafted checkpoint logs and restarts with other input (docs/security.md). tests/ft/progs/
# ftinput.c keeps N (stdin) and FTINPUT_SCALE (environment) in local variables; its output must
# equal the gcc -fopenmp build's. A log written by the capecc build is then
#   - edited to make printf's GOT entry point to ftinput_pwned(), every checksum and MAC
#     recomputed with the user's key (capert/examples/forge_log.rs): the restart must be
#     refused by the range check, at P = 1 and 2, without running that function;
#   - edited the same way but sealed with another key, and restarted under another key: refused
#     as not authentic;
#   - restarted with other stdin or another FTINPUT_SCALE: refused, naming the input;
#   - restarted with another CAPE_ARENA_BASE or CAPE_STACK_SIZE: refused, naming the setting.
# A compacted log of tests/ft/progs/ftrunning.c (snapshot mode) is edited, resealed with the
# user's key, to put another return address on the snapshot's region call or another code
# address in its stack image (the return address of main): refused before anything resumes.
# A log and `output` file grown to 64 GiB (sparse) past what was written must be accepted without
# reading the growth. Each refusal: one `capert: error:` line with the expected words, status 1, `error` in
# DIR/status, no output. The same log with the same input must be accepted.
#
# usage: tests/ft/crafted.sh [--keep]
# Environment: CAPECC (default $CARGO_TARGET_DIR or target, then release/capecc), FORGE_LOG
# (default: examples/forge_log beside capecc, built with cargo if missing), FT_TIMEOUT seconds
# per run (default 60), FT_OUT (default tests/out/ft-crafted), MPIRUN (default mpirun).
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=scripts/env.sh
source "$ROOT/scripts/env.sh"
CAPECC=${CAPECC:-${CARGO_TARGET_DIR:-$ROOT/target}/release/capecc}
BUILD_FORGE_LOG=0
[ -n "${FORGE_LOG:-}" ] || BUILD_FORGE_LOG=1
FORGE_LOG=${FORGE_LOG:-$(dirname "$CAPECC")/examples/forge_log}
MPIRUN=${MPIRUN:-mpirun}
TIMEOUT=${FT_TIMEOUT:-60}
OUT=${FT_OUT:-$ROOT/tests/out/ft-crafted}
SRC=$ROOT/tests/ft/progs/ftinput.c
unset OMP_NUM_THREADS CAPE_CHECKPOINT CAPE_RESTART CAPE_CHECKPOINT_EVERY CAPE_OUTPUT FTINPUT_SCALE
keep=0
[ "${1:-}" = --keep ] && keep=1
read -r -a mpirun <<<"$MPIRUN"

passed=0
failed=0
pass() { passed=$((passed + 1)) && printf 'PASS  %-36s %s\n' "$1" "${2:-}"; }
fail() { # name, reason, [file whose tail to show]
    failed=$((failed + 1))
    echo "FAIL  $1  $2"
    [ -n "${3:-}" ] && [ -s "$3" ] && tail -n 6 "$3" | sed 's/^/      ! /'
}
give_up() {
    echo "crafted.sh: $1" >&2
    echo "ft-crafted: 0 passed, 1 failed"
    exit 1
}

[ -x "$CAPECC" ] || give_up "\`$CAPECC\` not found (run \`cargo build --release\` or set CAPECC)"
# rebuilt unless given: a stale one would write an older log format
if [ $BUILD_FORGE_LOG -eq 1 ] || [ ! -x "$FORGE_LOG" ]; then
    (cd "$ROOT" && cargo build --release -q -p capert --example forge_log) ||
        give_up "cannot build capert/examples/forge_log.rs"
fi
rm -rf "$OUT"
mkdir -p "$OUT"
# the user's key of these runs (never in a checkpoint directory)
export CAPE_KEY_FILE=$OUT/keys/user.key
# logs of every region (the default snapshot mode makes regions durable only with snapshots)
export CAPE_CHECKPOINT_EVERY=1 CAPE_CHECKPOINT_COMPACT=0
echo 3 >"$OUT/in3"
echo 4 >"$OUT/in4"

gcc -O2 -fopenmp "$SRC" -o "$OUT/ref" && "$CAPECC" -O2 "$SRC" -o "$OUT/cape" ||
    give_up "build failed"
OMP_NUM_THREADS=3 "$OUT/ref" <"$OUT/in3" >"$OUT/ref.out"

# --- the log of a complete run at P = 2 ------------------------------------------------------
CAPE_CHECKPOINT=$OUT/ck timeout -k 5 "$TIMEOUT" "${mpirun[@]}" -np 2 "$OUT/cape" <"$OUT/in3" >"$OUT/ck.out" 2>"$OUT/ck.err"
if [ $? -ne 0 ] || ! cmp -s "$OUT/ref.out" "$OUT/ck.out"; then
    fail "log written at P=2" "status or output differs from gcc -fopenmp" "$OUT/ck.err"
    echo "ft-crafted: $passed passed, $failed failed"
    exit 1
fi
pass "log written at P=2" "output equals gcc -fopenmp"

# restart from a copy of the log; stdout, stderr and status in DIR.out, DIR.err, DIR.rc
restart() { # ckdir, P, stdin file
    CAPE_RESTART=$1 timeout -k 5 "$TIMEOUT" "${mpirun[@]}" -np "$2" "${BIN:-$OUT/cape}" "${@:4}" <"$3" >"$1.out" 2>"$1.err"
    echo $? >"$1.rc"
}
copy() { rm -rf "$OUT/$1" && cp -r "$OUT/${2:-ck}" "$OUT/$1" && echo "$OUT/$1"; }
refused() { # name, ckdir, P, stdin file, expected text, [program arguments]
    local n
    restart "$2" "$3" "$4" "${@:6}"
    n=$(grep -c 'capert: error:' "$2.err")
    if grep -q PWNED "$2.out" "$2.err" || [ "$(cat "$2.rc")" = 42 ]; then
        fail "$1" "the code the log pointed to ran" "$2.err"
    elif [ "$(cat "$2.rc")" != 1 ]; then
        fail "$1" "exit status $(cat "$2.rc"), expected 1" "$2.err"
    elif [ "$n" -ne 1 ]; then
        fail "$1" "$n \`capert: error:\` lines, expected 1" "$2.err"
    elif ! grep 'capert: error:' "$2.err" | grep -q -- "$5"; then
        fail "$1" "the error does not say \`$5\`" "$2.err"
    elif [ -s "$2.out" ]; then
        fail "$1" "printed output: $(head -c 80 "$2.out")" "$2.err"
    elif [ "$(cat "$2/status" 2>/dev/null)" != error ]; then
        fail "$1" "DIR/status is \`$(cat "$2/status" 2>/dev/null)\`, expected \`error\`" "$2.err"
    else
        pass "$1" "$(grep -m1 'capert: error:' "$2.err" | cut -c1-100)"
    fi
}

# --- the same input is accepted ----------------------------------------------------------------
ck=$(copy same)
restart "$ck" 3 "$OUT/in3"
if [ "$(cat "$ck.rc")" != 0 ] || [ "$(cat "$ck/status" 2>/dev/null)" != "exit 0" ] || [ -s "$ck.out" ]; then
    fail "same input accepted" "status $(cat "$ck.rc"), DIR/status \`$(cat "$ck/status" 2>/dev/null)\`" "$ck.err"
else
    pass "same input accepted" "P=3, replayed, nothing printed again"
fi

# --- files grown past what was written: only what the log committed is read -------------------
ck=$(copy grown)
truncate -s 64G "$ck/cape.log" && truncate -s 64G "$ck/output" ||
    give_up "cannot grow the files of $ck"
restart "$ck" 2 "$OUT/in3"
if [ "$(cat "$ck.rc")" != 0 ] || [ "$(cat "$ck/status" 2>/dev/null)" != "exit 0" ] || [ -s "$ck.out" ]; then
    fail "grown log and output accepted" "status $(cat "$ck.rc"), DIR/status \`$(cat "$ck/status" 2>/dev/null)\`" "$ck.err"
else
    pass "grown log and output accepted" "64 GiB sparse tails left unread"
fi
rm -rf "$ck"

# --- a forged log: printf's GOT entry -> ftinput_pwned ------------------------------------------
got=$(readelf -rW "$OUT/cape" | awk '$5 ~ /^printf@/ { print $1; exit }')
pwned=$(nm "$OUT/cape" | awk '$3 == "ftinput_pwned" { print $1 }')
[ -n "$got" ] && [ -n "$pwned" ] || give_up "no GOT entry of printf or no ftinput_pwned in the capecc build"
# the function's address as 8 little-endian bytes in hex
bytes=$(printf '%016x' "0x$pwned" | sed 's/../& /g' | awk '{ for (i = 8; i >= 1; i--) printf "%s", $i }')
forge() { # ckdir, key that seals the forgery
    "$FORGE_LOG" "$1/cape.log" "$OUT/cape" "$CAPE_KEY_FILE" "$2" 5 "0x$got" "$bytes" ||
        give_up "forge_log failed"
}
for P in 1 2; do
    ck=$(copy "got-p$P")
    forge "$ck" "$CAPE_KEY_FILE"
    refused "forged GOT write refused, P=$P" "$ck" "$P" "$OUT/in3" "outside the program's shared memory"
done
head -c 32 /dev/urandom >"$OUT/keys/other.key"
chmod 600 "$OUT/keys/other.key"
ck=$(copy got-other-key)
forge "$ck" "$OUT/keys/other.key"
refused "forgery sealed with another key" "$ck" 2 "$OUT/in3" "is not authentic"
ck=$(copy restart-other-key)
CAPE_KEY_FILE=$OUT/keys/other.key refused "restart under another key" "$ck" 2 "$OUT/in3" "is not authentic"

# --- other input -----------------------------------------------------------------------------
ck=$(copy other-stdin)
refused "other stdin (a local variable)" "$ck" 2 "$OUT/in4" "standard input differs"
ck=$(copy other-stdin-p1)
refused "other stdin at P=1" "$ck" 1 "$OUT/in4" "standard input differs"
ck=$(copy other-env)
FTINPUT_SCALE=2 refused "other environment variable" "$ck" 2 "$OUT/in3" "environment variables.*FTINPUT_SCALE"

# --- another layout of shared memory: refused naming the setting and the log's value -------
ck=$(copy other-arena)
CAPE_ARENA_BASE=0x300000000000 refused "another CAPE_ARENA_BASE" "$ck" 2 "$OUT/in3" \
    "written with \`CAPE_ARENA_BASE=0x200000000000\` and this run has \`0x300000000000\`.*restart with \`CAPE_ARENA_BASE=0x200000000000\`"
ck=$(copy other-stack)
CAPE_STACK_SIZE=128M refused "another CAPE_STACK_SIZE" "$ck" 2 "$OUT/in3" \
    "written with \`CAPE_STACK_SIZE=0x10000000\` and this run has \`0x8000000\`"

# --- a forged snapshot: the control state at the region call ------------------------------
"$CAPECC" -O2 "$ROOT/tests/ft/progs/ftrunning.c" -o "$OUT/running" || give_up "build of ftrunning.c failed"
# enough sweeps that a snapshot is taken however fast regions are
sweeps=3000
CAPE_CHECKPOINT_EVERY=0.001s CAPE_CHECKPOINT_COMPACT=1 CAPE_CHECKPOINT=$OUT/snap \
    timeout -k 5 "$TIMEOUT" "${mpirun[@]}" -np 2 "$OUT/running" $sweeps </dev/null >"$OUT/snap.out" 2>"$OUT/snap.err"
grep -q CAPESNP2 "$OUT/snap/cape.log" || give_up "ftrunning.c wrote no snapshot (see $OUT/snap.err)"
main=$(nm "$OUT/running" | awk '$3 == "__cape_user_main" { print $1 }')
main=$(printf '%016x' "0x$main" | sed 's/../& /g' | awk '{ for (i = 8; i >= 1; i--) printf "%s", $i }')
for what in return main-return; do
    ck=$(copy "snap-$what" snap)
    "$FORGE_LOG" "$ck/cape.log" "$OUT/running" "$CAPE_KEY_FILE" "$CAPE_KEY_FILE" snapshot "$what" "$main" $sweeps ||
        give_up "forge_log failed"
done
BIN=$OUT/running refused "forged call return address" "$OUT/snap-return" 2 /dev/null "another region call" $sweeps
BIN=$OUT/running refused "forged return address of main" "$OUT/snap-main-return" 1 /dev/null "puts the code address" $sweeps

if [ $failed -eq 0 ] && [ $keep -eq 0 ]; then
    rm -rf "$OUT"
elif [ $failed -gt 0 ]; then
    echo "outputs kept in $OUT"
fi
echo "ft-crafted: $passed passed, $failed failed"
[ $failed -eq 0 ]
