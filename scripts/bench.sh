#!/usr/bin/env bash
# Benchmark: matmul, jacobi and pi, each as
#   seq     gcc -O2                     (the OpenMP pragmas ignored)
#   openmp  gcc -O2 -fopenmp            P threads
#   capecc  capecc -O2                  P MPI ranks (the same unchanged source)
#   mpi     mpicc -O2 examples/mpi/*.c  P MPI ranks (hand-written MPI)
# for P = 1 2 4. Every figure is the median wall-clock time of the whole command
# (including mpirun's start-up, which is measured on its own too) over BENCH_REPS
# runs (default 3), taken interleaved in one run of this script. Every output is
# checked against the sequential one.
# Writes docs/benchmarks.md and docs/benchmarks.svg, and prints the table.
#
# usage: scripts/bench.sh [--quick]   (--quick: small sizes, 1 rep, results in bench-out/ only)
# environment: BENCH_REPS, BENCH_PROCS (default "1 2 4")
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/env.sh
source scripts/env.sh
unset OMP_NUM_THREADS

quick=0
[ "${1:-}" = "--quick" ] && quick=1

scripts/deps.sh python3:python3
echo "==> cargo build --release"
cargo build --release --quiet || echo "bench.sh: the build failed; capecc figures will be missing" >&2
CAPECC=${CAPECC:-$ROOT/target/release/capecc}

OUT=$ROOT/bench-out
mkdir -p "$OUT"
have_capecc=1
for k in matmul jacobi pi; do
    gcc -O2 "examples/$k.c" -o "$OUT/$k-seq" -lm 2>/dev/null
    gcc -O2 -fopenmp "examples/$k.c" -o "$OUT/$k-openmp" -lm
    mpicc -O2 "examples/mpi/$k.c" -o "$OUT/$k-mpi" -lm
    rm -f "$OUT/$k-capecc"
    if [ -x "$CAPECC" ] && "$CAPECC" -O2 "examples/$k.c" -o "$OUT/$k-capecc" -lm 2>"$OUT/$k-capecc.log"; then
        :
    else
        have_capecc=0
        echo "bench.sh: capecc could not build examples/$k.c (see bench-out/$k-capecc.log)" >&2
    fi
done

# an MPI program that only starts and stops: the launch cost every MPI run pays
printf '#include <mpi.h>\nint main(int c, char **v) { MPI_Init(&c, &v); MPI_Finalize(); return 0; }\n' >"$OUT/noop.c"
mpicc -O2 "$OUT/noop.c" -o "$OUT/noop"

export BENCH_OUT=$OUT BENCH_QUICK=$quick BENCH_REPS=${BENCH_REPS:-$([ $quick = 1 ] && echo 1 || echo 3)}
export BENCH_PROCS=${BENCH_PROCS:-1 2 4}
export BENCH_HAVE_CAPECC=$have_capecc
python3 - <<'PY'
import os, statistics, subprocess, time, datetime, platform, html

out_dir = os.environ["BENCH_OUT"]
quick = os.environ["BENCH_QUICK"] == "1"
reps = int(os.environ["BENCH_REPS"])
procs = [int(p) for p in os.environ["BENCH_PROCS"].split()]
cores = os.cpu_count() or 1

kernels = {
    "matmul": (["400"] if quick else ["1500"], "N = 400" if quick else "N = 1500"),
    "jacobi": (["500", "20"] if quick else ["2000", "100"],
               "N = 500, 20 sweeps" if quick else "N = 2000, 100 sweeps"),
    "pi": (["50000000"] if quick else ["1000000000"],
           "5e7 steps" if quick else "1e9 steps"),
}
variants = ["openmp", "capecc", "mpi"]


def exe(kernel, variant):
    return os.path.join(out_dir, f"{kernel}-{variant}")


def command(kernel, variant, p):
    args = kernels[kernel][0]
    if variant == "seq":
        return [exe(kernel, "seq")] + args, {}
    if variant == "openmp":
        return [exe(kernel, "openmp")] + args, {"OMP_NUM_THREADS": str(p)}
    return ["mpirun", "-np", str(p), exe(kernel, variant)] + args, {}


def run(cmd, extra_env):
    env = dict(os.environ, **extra_env)
    start = time.perf_counter()
    r = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=900)
    return time.perf_counter() - start, r.returncode, r.stdout, r.stderr


available = {v: True for v in variants}
available["capecc"] = all(os.access(exe(k, "capecc"), os.X_OK) for k in kernels)

times = {}      # (kernel, variant, p) -> [seconds]
wrong = set()   # (kernel, variant, p) whose output differed from the sequential one
launch = {p: [] for p in procs}
expected = {}
for rep in range(reps):
    for p in procs:
        t, _, _, _ = run(["mpirun", "-np", str(p), os.path.join(out_dir, "noop")], {})
        launch[p].append(t)
    for kernel in kernels:
        t, rc, stdout, _ = run(*command(kernel, "seq", 1))
        expected[kernel] = stdout
        times.setdefault((kernel, "seq", 1), []).append(t)
        # side by side: every variant and P once per repetition
        for p in procs:
            for v in variants:
                if not available[v]:
                    continue
                t, rc, stdout, stderr = run(*command(kernel, v, p))
                if rc != 0 or stdout != expected[kernel]:
                    wrong.add((kernel, v, p))
                times.setdefault((kernel, v, p), []).append(t)
        print(f"  rep {rep + 1}/{reps} {kernel} done", flush=True)


def med(key):
    return statistics.median(times[key]) if key in times else None


def fmt(x):
    return "n/a" if x is None else f"{x:.3f}"


def ratio(a, b):
    return "n/a" if a is None or b is None else f"{a / b:.2f}"


lines = []
lines.append("| kernel | P | seq (s) | OpenMP (s) | capecc (s) | MPI (s) | capecc/MPI | capecc/OpenMP |")
lines.append("|---|---:|---:|---:|---:|---:|---:|---:|")
for kernel in kernels:
    seq = med((kernel, "seq", 1))
    for p in procs:
        cells = {}
        for v in variants:
            m = med((kernel, v, p))
            cells[v] = fmt(m) + (" (wrong output!)" if (kernel, v, p) in wrong else "")
        over = " (oversubscribed)" if p > cores else ""
        lines.append(
            f"| {kernel} | {p}{over} | {fmt(seq)} | {cells['openmp']} | {cells['capecc']} | {cells['mpi']} "
            f"| {ratio(med((kernel, 'capecc', p)), med((kernel, 'mpi', p)))} "
            f"| {ratio(med((kernel, 'capecc', p)), med((kernel, 'openmp', p)))} |")
table = "\n".join(lines)
launch_line = ", ".join(f"P={p}: {statistics.median(launch[p]):.3f} s" for p in procs)

# CAPE_STATS: where capecc's time goes, one run per kernel at P = 2
stats = {}
if available["capecc"]:
    for kernel in kernels:
        p = 2 if 2 in procs else procs[-1]
        cmd, env = command(kernel, "capecc", p)
        _, _, _, stderr = run(cmd, {"CAPE_STATS": "1"})
        text = stderr.decode(errors="replace").strip().splitlines()
        stats[kernel] = (p, "\n".join(text[:60]) + ("\n..." if len(text) > 60 else ""))

# SVG: speed-up over the sequential build, one group of bars per (kernel, P)
colors = {"openmp": "#4e79a7", "capecc": "#e15759", "mpi": "#59a14f"}
groups = [(k, p) for k in kernels for p in procs]
speedups = {}
for (k, p) in groups:
    seq = med((k, "seq", 1))
    for v in variants:
        m = med((k, v, p))
        speedups[(k, v, p)] = seq / m if m and seq else 0.0
top = max([2.0] + list(speedups.values())) * 1.1
W, H, left, bottom, topm = 80 + 70 * len(groups), 340, 50, 60, 40
plot_h = H - bottom - topm
svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="11">',
       f'<rect width="{W}" height="{H}" fill="white"/>',
       f'<text x="{W / 2}" y="18" text-anchor="middle" font-size="13">speed-up over gcc -O2 sequential (higher is better; {cores} cores)</text>']
y_of = lambda s: topm + plot_h - s / top * plot_h
tick = 0.0
while tick <= top:
    y = y_of(tick)
    svg.append(f'<line x1="{left}" x2="{W - 10}" y1="{y:.1f}" y2="{y:.1f}" stroke="#ddd"/>')
    svg.append(f'<text x="{left - 4}" y="{y + 4:.1f}" text-anchor="end">{tick:g}</text>')
    tick += 0.5 if top < 6 else 1.0
svg.append(f'<line x1="{left}" x2="{W - 10}" y1="{y_of(1):.1f}" y2="{y_of(1):.1f}" stroke="#333" stroke-dasharray="4 3"/>')
for gi, (k, p) in enumerate(groups):
    x0 = left + 10 + gi * 70
    for vi, v in enumerate(variants):
        s = speedups[(k, v, p)]
        y = y_of(s)
        svg.append(f'<rect x="{x0 + vi * 18}" y="{y:.1f}" width="16" height="{topm + plot_h - y:.1f}" fill="{colors[v]}">'
                   f'<title>{k} P={p} {v}: {s:.2f}x</title></rect>')
    svg.append(f'<text x="{x0 + 26}" y="{H - bottom + 16}" text-anchor="middle">P={p}{"*" if p > cores else ""}</text>')
    if p == procs[0]:
        svg.append(f'<text x="{x0 + 26 + 35 * (len(procs) - 1)}" y="{H - bottom + 32}" text-anchor="middle" font-weight="bold">{html.escape(k)}</text>')
for vi, v in enumerate(variants):
    svg.append(f'<rect x="{left + vi * 90}" y="{H - 18}" width="12" height="12" fill="{colors[v]}"/>')
    svg.append(f'<text x="{left + vi * 90 + 16}" y="{H - 8}">{v}</text>')
svg.append(f'<text x="{W - 10}" y="{H - 8}" text-anchor="end">* oversubscribed</text>')
svg.append("</svg>")

now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
md = []
md.append("# Benchmarks\n")
md.append(f"Measured by `scripts/bench.sh` on {now}: {platform.machine()}, {cores} cores, "
          f"Linux {platform.release()}. Median wall-clock time of the whole command over {reps} "
          "run(s), all variants interleaved in one run of the script. The MPI and capecc times "
          f"include `mpirun`'s start-up; an MPI program that only calls `MPI_Init` and `MPI_Finalize` "
          f"takes: {launch_line}.\n")
md.append("Sizes: " + "; ".join(f"{k} {kernels[k][1]}" for k in kernels) + ".\n")
if any(p > cores for p in procs):
    md.append(f"P larger than {cores} is oversubscribed on this machine: more ranks or threads "
              "than cores, so it shows overheads, not speed-up.\n")
if not available["capecc"]:
    md.append("**capecc could not build the examples when this was measured: its column is n/a.**\n")
if wrong:
    md.append("**Wrong output** (differs from the sequential build) for: "
              + ", ".join(f"{k} {v} P={p}" for k, v, p in sorted(wrong)) + ".\n")
md.append(table + "\n")
md.append("![speed-up chart](benchmarks.svg)\n")
md.append("Variants: `seq` = `gcc -O2` (pragmas ignored); `OpenMP` = `gcc -O2 -fopenmp`, "
          "`OMP_NUM_THREADS=P`; `capecc` = the same source built with `capecc -O2`, "
          "`mpirun -np P`; `MPI` = the hand-written `examples/mpi/*.c`, `mpicc -O2`, `mpirun -np P`.\n")
if stats:
    md.append("## Where capecc's time goes (`CAPE_STATS=1`)\n")
    for k, (p, text) in stats.items():
        md.append(f"### {k}, P = {p}\n\n```\n{text or '(no statistics printed)'}\n```\n")

report = "\n".join(md)
dest = out_dir if quick else os.path.join(os.getcwd(), "docs")
os.makedirs(dest, exist_ok=True)
with open(os.path.join(dest, "benchmarks.md"), "w") as f:
    f.write(report)
with open(os.path.join(dest, "benchmarks.svg"), "w") as f:
    f.write("\n".join(svg) + "\n")
print()
print(table)
print()
print("mpirun + MPI_Init + MPI_Finalize alone:", launch_line)
if wrong:
    print("WRONG OUTPUT:", ", ".join(f"{k} {v} P={p}" for k, v, p in sorted(wrong)))
for k, (p, text) in stats.items():
    print(f"\nCAPE_STATS {k} P={p}:\n{text}")
print(f"\nwrote {os.path.relpath(os.path.join(dest, 'benchmarks.md'))} and benchmarks.svg")
PY
