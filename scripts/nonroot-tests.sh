#!/usr/bin/env bash
# Cluster users are not root: run the page-tracker tests and a capecc-built program under
# mpirun as an ordinary user (created here when the suite runs as root). With
# vm.unprivileged_userfaultfd=0 the uffd tracker must still be chosen (UFFD_USER_MODE_ONLY).
# Prints `nonroot: N passed, M failed`; skipped (exit 0) when not root or no `su`.
set -u
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
target="${CARGO_TARGET_DIR:-$ROOT/target}"
user=capetest
if [ "$(id -u)" != 0 ] || ! command -v su >/dev/null || ! command -v useradd >/dev/null; then
    echo "nonroot: skipped (needs root to create the test user)"
    exit 0
fi
id "$user" >/dev/null 2>&1 || useradd -m "$user" || { echo "nonroot: cannot create user $user"; exit 1; }

work=$(mktemp -d /tmp/capecc-nonroot.XXXXXX)
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"
chown "$user" "$work"
pass=0
fail=0
check() { # name command...
    local name=$1
    shift
    if "$@" >"$work/log" 2>&1; then
        pass=$((pass + 1))
        echo "ok   $name"
    else
        fail=$((fail + 1))
        echo "FAIL $name"
        tail -20 "$work/log"
    fi
}
as_user() { su "$user" -s /bin/bash -c "cd $work && $*"; }

# The tracker test binaries, copied where the user can run them.
tests=$(cargo test --release -q -p capert --test track_uffd --test track_mprotect --no-run \
    --message-format=json 2>/dev/null |
    sed -n 's/.*"executable":"\([^"]*\)".*/\1/p')
for exe in $tests; do
    name=$(basename "$exe" | sed 's/-[0-9a-f]*$//')
    cp "$exe" "$work/$name"
    chmod 755 "$work/$name"
    check "$name (as $user)" as_user "./$name --test-threads=1"
done

# A real program under mpirun, and the tracker it picks.
"$target/release/capecc" -O2 examples/pi.c -o "$work/pi" && gcc -O2 -fopenmp examples/pi.c -o "$work/pi.ref" -lm
chmod 755 "$work/pi"
want=$("$work/pi.ref" 2000000)
check "pi under mpirun -np 3 (as $user)" as_user \
    "OMPI_MCA_rmaps_base_oversubscribe=1 mpirun -np 3 ./pi 2000000 > out && test \"\$(cat out)\" = \"$want\""
check "uffd tracker chosen (as $user)" as_user "CAPE_VERBOSE=1 ./pi 1000 2>&1 | grep -i 'tracker.*uffd'"

echo "nonroot: $pass passed, $fail failed"
[ "$fail" = 0 ]
