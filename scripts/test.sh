#!/usr/bin/env bash
# The whole test suite (and the CI entry point): dependencies, release build,
# Rust unit/integration tests with the end-to-end programs (cargo's `e2e` test target runs
# tests/e2e/run.sh once per program), the runtime's C tests, the fault-tolerance tests
# (caperun, restart, corrupt logs).
# Extra arguments select the end-to-end runs as tests/e2e/run.sh's would: --quick, --procs L,
# or FILTER regexps.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/env.sh
source scripts/env.sh

while [ $# -gt 0 ]; do
    case "$1" in
    --quick) export E2E_PROCS="1 3 4" ;;
    --procs)
        export E2E_PROCS=${2:?--procs needs a list}
        shift
        ;;
    -*)
        echo "test.sh: unknown option \`$1\` (run tests/e2e/run.sh directly for its other options)" >&2
        exit 2
        ;;
    *) export E2E_FILTER="${E2E_FILTER:-}${E2E_FILTER:+ }$1" ;;
    esac
    shift
done

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
step "cargo clippy -D warnings" cargo clippy --workspace --all-targets -- -D warnings
step "cargo test --release (with the end-to-end programs)" cargo test --release --workspace --no-fail-fast
# the other page tracker on a subset that exercises every path of the data path
step "end-to-end subset with CAPE_TRACKER=mprotect" env CAPE_TRACKER=mprotect E2E_PROCS="2 3" \
    E2E_FILTER="examples/ heap red_ omp_atomic omp_critical large_array many_regions stack_data" \
    cargo test --release -p capecc --test e2e
# the default merge (`auto`) runs everything above; both fixed merge modes on a subset, the
# demand-driven one with both trackers (docs/lazy-merge.md); `auto` merges most regions
# eagerly, so the eager and the second lazy subset run at one odd rank count only
# (the suite must stay well under 30 minutes on 2 cores)
lazy_subset="examples/ heap lazy_ red_ omp_atomic omp_barrier omp_critical omp_single large_array many_regions stack_data stdin polybench/(jacobi|heat|seidel|fdtd|gemm)"
step "end-to-end subset with CAPE_MERGE=lazy" env CAPE_MERGE=lazy E2E_PROCS="2 3 5" \
    E2E_FILTER="$lazy_subset" cargo test --release -p capecc --test e2e
step "end-to-end subset with CAPE_MERGE=lazy CAPE_TRACKER=mprotect" env CAPE_MERGE=lazy \
    CAPE_TRACKER=mprotect E2E_PROCS="3" E2E_FILTER="$lazy_subset" \
    cargo test --release -p capecc --test e2e
step "end-to-end subset with CAPE_MERGE=eager" env CAPE_MERGE=eager E2E_PROCS="3" \
    E2E_FILTER="$lazy_subset" cargo test --release -p capecc --test e2e
# hybrid execution (R ranks of T threads, docs/hybrid.md) against gcc -fopenmp at R*T threads
hybrid_subset="examples/ hybrid_ critical_ lock_helpers heap_in_(single|master) omp_threadprivate red_ omp_atomic_(scalars|histogram|mixed) omp_barrier omp_critical omp_for omp_single omp_master omp_sections omp_sched omp_ordered omp_queries clause_ polybench/(jacobi|lu|cholesky|gemm)"
step "end-to-end subset with several threads per rank" env E2E_PROCS="1x2 2x2 2x3" \
    E2E_FILTER="$hybrid_subset" cargo test --release -p capecc --test e2e
# every write the compiler's write scopes leave out would be a wrong answer: full scans check them
step "end-to-end programs with CAPE_WRITE_SCOPE=check" env CAPE_WRITE_SCOPE=check E2E_PROCS="3" \
    cargo test --release -p capecc --test e2e
if [ -x capert/tests/run_c_tests.sh ]; then
    step "runtime C tests (capert/tests/run_c_tests.sh)" capert/tests/run_c_tests.sh
fi
step "runtime as an ordinary user (scripts/nonroot-tests.sh)" scripts/nonroot-tests.sh
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
