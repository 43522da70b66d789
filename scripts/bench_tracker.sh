#!/bin/sh
# Page-tracker micro-benchmark (not a test): cost per written page and a region's fixed overhead
# for each backend. Figures and method: docs/tracker.md. Usage: scripts/bench_tracker.sh [runs]
set -eu
cd "$(dirname "$0")/.."
runs=${1:-11}
cargo build --release -p capert --example bench_tracker
bin=${CARGO_TARGET_DIR:-target}/release/examples/bench_tracker
for kind in uffd mprotect; do
    "$bin" "$kind" --runs "$runs"
    echo
done
