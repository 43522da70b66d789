#!/usr/bin/env bash
# The whole test suite (and the CI entry point): dependencies, release build,
# Rust unit/integration tests, the runtime's C tests, the end-to-end tests, the
# fault-tolerance tests (caperun, restart, corrupt logs).
# Extra arguments go to tests/e2e/run.sh (e.g. --quick, or a filter).
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/env.sh
source scripts/env.sh

steps=()
failures=0
step() { # name, command...
    local name=$1 start rc
    shift
    echo
    echo "==> $name"
    start=$(date +%s)
    "$@"
    rc=$?
    local secs=$(($(date +%s) - start))
    if [ $rc -eq 0 ]; then
        steps+=("ok    $name (${secs}s)")
    else
        steps+=("FAIL  $name (exit $rc, ${secs}s)")
        failures=$((failures + 1))
    fi
    return $rc
}

step "dependencies (scripts/deps.sh)" scripts/deps.sh || exit 1
step "cargo build --release" cargo build --release --workspace
step "cargo test --release" cargo test --release --workspace --no-fail-fast
if [ -x capert/tests/run_c_tests.sh ]; then
    step "runtime C tests (capert/tests/run_c_tests.sh)" capert/tests/run_c_tests.sh
fi
step "runtime as an ordinary user (scripts/nonroot-tests.sh)" scripts/nonroot-tests.sh
step "end-to-end tests (tests/e2e/run.sh)" tests/e2e/run.sh "$@"
step "fault tolerance (tests/ft/run.sh)" tests/ft/run.sh
step "crafted checkpoint logs (tests/ft/crafted.sh)" tests/ft/crafted.sh

echo
echo "==> summary"
printf '  %s\n' "${steps[@]}"
if [ $failures -gt 0 ]; then
    echo "test.sh: $failures step(s) failed"
    exit 1
fi
echo "test.sh: all passed"
