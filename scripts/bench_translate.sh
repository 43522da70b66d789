#!/usr/bin/env bash
# Translation speed: capecc --emit-c on a generated 10,000-line OpenMP C file against
# `gcc -O2 -c` of the same file (median of 5 runs each). Writes docs/translate-speed.md.
#
# Then the scaling cases (one run each, wall clock and peak memory from /usr/bin/time -v):
# 4,000 and 16,000 regions in one function, and a 7.9 MB number table with a small region.
# With BASELINE=path/to/another/capecc (e.g. a build of an older commit) each case also runs
# with it, side by side, limited to BASELINE_TIMEOUT seconds (default 600).
#
#   scripts/bench_translate.sh            # builds capecc --release first
#   CAPECC=path/to/capecc scripts/bench_translate.sh
#   BASELINE=old/capecc scripts/bench_translate.sh
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
runs=5
lines_wanted=10000

if [[ -z "${CAPECC:-}" ]]; then
    (cd "$root" && cargo build --release -p capecc >&2)
    CAPECC="${CARGO_TARGET_DIR:-$root/target}/release/capecc"
fi
cc=${CAPECC_CC:-gcc}
export CAPECC_CC=$cc

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
src=$work/big.c

# Many functions, loops and some OpenMP directives of the kinds capecc lowers.
function_block() {
    local f=$1
    cat <<EOF
static double data_$f[N];
static double out_$f[N];

/* function $f: a parallel loop with a reduction, then a serial loop */
double kernel_$f(int n, double scale)
{
    double sum = 0.0;
    int i;
    #pragma omp parallel for reduction(+:sum) schedule(static)
    for (i = 0; i < n; i++) {
        double x = data_$f[i] * scale + (double)i;
        if (x > 100.0)
            x = sqrt(x);
        out_$f[i] = x;
        sum += x;
    }
    for (int j = 1; j < n; j++) {
        out_$f[j] += out_$f[j - 1] * 0.5;
    }
    #pragma omp parallel for private(i) firstprivate(scale)
    for (int k = n - 1; k >= 0; k--) {
        data_$f[k] = out_$f[k] / (scale + 1.0);
    }
    return sum;
}

EOF
}
block_lines=$(function_block 0 | wc -l)
# Header and main take about 10 + functions/50 lines.
functions=$(((lines_wanted - 10) * 50 / (block_lines * 50 + 1) + 1))
{
    echo '#include <stdio.h>'
    echo '#include <stdlib.h>'
    echo '#include <math.h>'
    echo '#define N 1000'
    echo
    for ((f = 0; f < functions; f++)); do
        function_block "$f"
    done
    echo 'int main(void)'
    echo '{'
    echo '    double total = 0.0;'
    for ((g = 0; g < functions; g += 50)); do
        echo "    total += kernel_$g(N, 1.5);"
    done
    echo '    printf("%f\\n", total);'
    echo '    return 0;'
    echo '}'
} > "$src"
f=$functions
lines=$(wc -l < "$src")
pragmas=$(grep -c '#pragma omp' "$src")

# Median wall-clock seconds of `runs` runs of a command.
median() {
    local times=()
    for ((r = 0; r < runs; r++)); do
        local start end
        start=$(date +%s.%N)
        "$@" > /dev/null
        end=$(date +%s.%N)
        times+=("$(echo "$end - $start" | bc -l)")
    done
    printf '%s\n' "${times[@]}" | sort -n | sed -n "$(((runs + 1) / 2))p"
}

# The preprocessed file capecc's own pipeline produces, so that translation can be timed alone.
(cd "$work" && "$CAPECC" --save-temps --emit-c big.c > /dev/null)

t_translate=$(median "$CAPECC" --emit-c "$work/big.i")
t_emit=$(median "$CAPECC" --emit-c "$src")
t_cpp=$(median "$cc" -E -dD "$src")
t_gcc=$(median "$cc" -O2 -c "$src" -o "$work/big.o")
t_gcc0=$(median "$cc" -O0 -c "$src" -o "$work/big.o")

ratio=$(echo "$t_translate / $t_gcc" | bc -l)
verdict=$(echo "$t_translate <= $t_gcc" | bc -l)
[[ $verdict == 1 ]] && verdict="met" || verdict="NOT met"

# Scaling cases: `regions N` (N regions in one function: parallel, for, barrier) and the table.
regions_file() {
    local n=$1
    echo '#include <stdio.h>'
    echo 'int main(void)'
    echo '{'
    echo '    int s = 0;'
    echo '    double a[100];'
    for ((r = 0; r < n; r++)); do
        printf '    #pragma omp parallel\n    {\n        #pragma omp for reduction(+:s)\n'
        printf '        for (int i = 0; i < 100; i++) { a[i] = i; s += i; }\n'
        printf '        #pragma omp barrier\n    }\n'
    done
    echo '    printf("%d %f\n", s, a[99]);'
    echo '    return 0;'
    echo '}'
}
regions_file 4000 > "$work/regions4k.c"
regions_file 16000 > "$work/regions16k.c"
{
    echo '#include <stdio.h>'
    echo 'static const double table[] = {'
    awk 'BEGIN { for (i = 0; i < 1000000; i++) printf "%.3f,%s", i * 0.001, (i % 10 == 9 ? "\n" : "") }'
    echo '};'
    echo 'int main(void)'
    echo '{'
    echo '    double s = 0;'
    echo '    #pragma omp parallel for reduction(+:s)'
    echo '    for (int i = 0; i < 1000000; i++) s += table[i];'
    echo '    printf("%f\n", s);'
    echo '    return 0;'
    echo '}'
} > "$work/table.c"
table_mb=$(echo "$(wc -c < "$work/table.c") / 1000000" | bc -l)

# "seconds peak-MB" of one run of capecc --emit-c, or "> T s" after the timeout.
measure() {
    local capecc=$1 input=$2 limit=$3 log
    log=$work/time.log
    if timeout "$limit" /usr/bin/time -v "$capecc" --emit-c "$input" -o "$work/out.c" 2> "$log" > /dev/null; then
        local wall rss
        wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$log" \
            | awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }')
        rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$log")
        printf '%.2f s | %d MB' "$wall" "$((rss / 1024))"
    else
        printf '> %d s (stopped) | -' "$limit"
    fi
}
scaling=""
for case in regions4k regions16k table; do
    ours=$(measure "$CAPECC" "$work/$case.c" 3600)
    if [[ -n "${BASELINE:-}" ]]; then
        base=$(measure "$BASELINE" "$work/$case.c" "${BASELINE_TIMEOUT:-600}")
    else
        base="- | -"
    fi
    scaling+="| $case | $base | $ours |"$'\n'
done
t_gcc_table=$(median "$cc" -O0 -c "$work/table.c" -o "$work/table.o")

cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
report="$root/docs/translate-speed.md"
cat > "$report" <<EOF
# Translation speed

Generated by \`scripts/bench_translate.sh\` on $(date -u +%Y-%m-%d) ($(nproc) cores, ${cpu:-unknown CPU}).
Input: a generated C file of $lines lines, $f functions, $pragmas \`#pragma omp\` directives
(\`parallel for\` with \`reduction\`, \`schedule\`, \`private\`, \`firstprivate\`), including
\`stdio.h\`, \`stdlib.h\` and \`math.h\`. Median of $runs runs, wall clock.

| step | seconds |
|---|---|
| \`capecc --emit-c big.i\` (translation alone: parse, directives, analysis, lowering, emit) | $(printf %.3f "$t_translate") |
| \`capecc --emit-c big.c\` (with its \`$cc -E -dD\` step) | $(printf %.3f "$t_emit") |
| \`$cc -E -dD big.c\` (preprocessing alone) | $(printf %.3f "$t_cpp") |
| \`$cc -O2 -c big.c\` | $(printf %.3f "$t_gcc") |
| \`$cc -O0 -c big.c\` | $(printf %.3f "$t_gcc0") |

Translation / \`$cc -O2 -c\`: $(printf %.2f "$ratio"). Goal (translation no slower than the C
compiler): **$verdict**.

## Scaling

\`capecc --emit-c\`, one run each, wall clock and peak resident memory (\`/usr/bin/time -v\`).
regions4k / regions16k: 4,000 / 16,000 regions in one function, each a \`parallel\` holding a
\`for\` with a reduction and a \`barrier\`. table: a $(printf %.1f "$table_mb") MB file, a
\`static const double table[]\` of one million numbers and one \`parallel for\` (\`$cc -O0 -c\`
of it: $(printf %.2f "$t_gcc_table") s). Baseline: ${BASELINE_NAME:-${BASELINE:-none}}. Both columns come
from the same script run; the machine may have been busy with other work, so compare the
columns with each other rather than with other runs.

| case | baseline: time | baseline: peak | this build: time | this build: peak |
|---|---|---|---|---|
$scaling
EOF
cat "$report"
