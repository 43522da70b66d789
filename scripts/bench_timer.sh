# Shared by the benchmark scripts that time a kernel (bench_codegen.sh, bench_hybrid.sh):
# bench_timer_header DIR writes DIR/bench_timer.h (bench_start/bench_stop: clock_gettime,
# `kernel_seconds T` on stderr, and `kernel_cycles C`, the thread's user-mode cycles, where
# perf_event_open is allowed), and instrument SRC SCALE prints SRC with its size macros
# scaled by SCALE (- for none) and the timer put around the parallel part of main.
# shellcheck shell=bash

bench_timer_header() {
    cat >"$1/bench_timer.h" <<'EOF'
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <linux/perf_event.h>
static struct timespec bench_t0;
/* The calling thread's user-mode cycles, where the kernel lets a process count them: unlike
   the clock they do not count the time the thread waits while other processes run. */
static int bench_cycles_fd = -1;
static void bench_start(void)
{
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.type = PERF_TYPE_HARDWARE;
    a.size = sizeof a;
    a.config = PERF_COUNT_HW_CPU_CYCLES;
    a.disabled = 1;
    a.exclude_kernel = 1;
    a.exclude_hv = 1;
    bench_cycles_fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
    if (bench_cycles_fd >= 0) {
        ioctl(bench_cycles_fd, PERF_EVENT_IOC_RESET, 0);
        ioctl(bench_cycles_fd, PERF_EVENT_IOC_ENABLE, 0);
    }
    clock_gettime(CLOCK_MONOTONIC, &bench_t0);
}
static void bench_stop(void)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    long long cycles = -1;
    if (bench_cycles_fd >= 0 && read(bench_cycles_fd, &cycles, sizeof cycles) != sizeof cycles)
        cycles = -1;
    fprintf(stderr, "kernel_seconds %.6f\n",
            (double)(t1.tv_sec - bench_t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - bench_t0.tv_nsec));
    if (cycles >= 0)
        fprintf(stderr, "kernel_cycles %lld\n", cycles);
}
EOF
}

# Scales the size macros and puts bench_start()/bench_stop() around the parallel part of main
# (top-level statements are indented by 4 spaces in these sources; pragmas are at column 0).
instrument() {
    local src=$1 scale=$2
    awk -v scale="$scale" '
        { line[NR] = $0 }
        END {
            for (i = 1; i <= NR; i++) {
                if (scale != "-" && line[i] ~ /^#define [A-Z_0-9]+ [0-9]+$/ && line[i] !~ /TSTEPS|TMAX/) {
                    split(line[i], f, " "); line[i] = f[1] " " f[2] " " f[3] * scale
                }
                if (line[i] ~ /^#pragma omp/) { if (!first) first = i; last = i }
            }
            # start: the top-level statement holding the first pragma
            start = first
            if (line[first + 1] !~ /^    [^ ]/)
                for (start = first - 1; start > 0; start--)
                    if (line[start] ~ /^    [^ }]/) break
            # stop: the first top-level statement after the last region
            for (stop = last + 2; stop <= NR; stop++)
                if (line[stop] ~ /^    [^ }]/) break
            if (!first || start < 1 || stop > NR) { print "cannot place the timer" > "/dev/stderr"; exit 1 }
            for (i = 1; i <= NR; i++) {
                if (i == start) print "    bench_start();"
                if (i == stop) print "    bench_stop();"
                print line[i]
            }
        }' "$src"
}
