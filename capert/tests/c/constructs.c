/* The issue-5 constructs, hand-lowered: barriers between dependent loops, dynamic / guided /
 * runtime / auto schedules with lastprivate, single + copyprivate, atomic updates (integer,
 * double, max), reductions at a barrier, threadprivate with and without copyin, teams smaller
 * than the world (num_threads(2), (3)) with barriers inside, nesting queries, an orphaned loop.
 * Every printed value is what sequential execution computes, whatever the number of ranks. */
#include <stdio.h>
#include <string.h>
#include "capert.h"
#include "omp.h"

#define N 1000
long a[N], b[N], c[N], d[N];
long counter, hist[7], maxval, last_k, team_n;
double dsum;
long bad;
int tp = 5;           /* threadprivate */
long tpseen[N];

__attribute__((constructor)) static void register_tp(void) { __cape_threadprivate(&tp, sizeof tp); }

static void add_long(void *x, const void *y) { *(long *)x += *(const long *)y; }
static void add_double(void *x, const void *y) { *(double *)x += *(const double *)y; }
static void max_long(void *x, const void *y) { if (*(const long *)y > *(long *)x) *(long *)x = *(const long *)y; }

/* 1: two dependent loops separated by the first loop's barrier, then a nowait loop and an
 *    explicit barrier, a reduction merged at a barrier and read after it. */
struct d1 { long *sum_after; };
static void phases(void *data) {
    struct d1 *D = data;
    __cape_loop l;
    unsigned long long lo, hi;
    __cape_loop_init(&l, N, CAPE_SCHED_STATIC, 0);
    while (__cape_loop_next(&l, &lo, &hi))
        for (unsigned long long k = lo; k < hi; k++) a[k] = (long)(k * 3 + 1);
    __cape_loop_end(&l, 0);
    __cape_loop_init(&l, N, CAPE_SCHED_STATIC, 7);
    while (__cape_loop_next(&l, &lo, &hi))
        for (unsigned long long k = lo; k < hi; k++) b[k] = a[N - 1 - k] * 2;
    __cape_loop_end(&l, 1);
    __cape_barrier();
    long part = 0;
    __cape_loop_init(&l, N, CAPE_SCHED_STATIC, 0);
    while (__cape_loop_next(&l, &lo, &hi))
        for (unsigned long long k = lo; k < hi; k++) part += b[k] + a[k];
    __cape_reduce(D->sum_after, &part, sizeof part, add_long);
    __cape_loop_end(&l, 0);
    /* the reduction is complete after the barrier */
    __cape_loop_init(&l, N, CAPE_SCHED_STATIC, 0);
    while (__cape_loop_next(&l, &lo, &hi))
        for (unsigned long long k = lo; k < hi; k++) c[k] = *D->sum_after + (long)k;
    __cape_loop_end(&l, 0);
}

/* 2: schedules; the thread that runs the last iteration stores it (lastprivate). */
struct d2 { int sched; long long chunk; long salt; };
static void scheduled(void *data) {
    struct d2 *D = data;
    __cape_loop l;
    unsigned long long lo, hi;
    long mine = -1;
    __cape_loop_init(&l, N, D->sched, D->chunk);
    while (__cape_loop_next(&l, &lo, &hi))
        for (unsigned long long k = lo; k < hi; k++) {
            d[k] += (long)k * D->salt;
            mine = (long)k;
        }
    if (__cape_loop_is_last(&l)) last_k += mine * D->salt;
    __cape_loop_end(&l, 0);
}

/* 3: single + copyprivate, then atomics in a dynamic loop. */
static void singles(void *data) {
    (void)data;
    long x = 0;
    if (__cape_single_begin()) {
        x = 42;
        team_n += 1;      /* shared write by one thread */
    }
    __cape_single_end(1);
    __cape_copyprivate(&x, sizeof x);
    __cape_loop l;
    unsigned long long lo, hi;
    __cape_loop_init(&l, N, CAPE_SCHED_DYNAMIC, 5);
    while (__cape_loop_next(&l, &lo, &hi))
        for (unsigned long long k = lo; k < hi; k++) {
            c[k] = x + (long)k;
            long one = 1, kk = (long)k;
            double half = 0.5 * (double)k;
            long v = (long)((k * 7919) % 1009);
            __cape_atomic_update(&counter, &kk, sizeof kk, add_long);
            __cape_atomic_update(&hist[k % 7], &one, sizeof one, add_long);
            __cape_atomic_update(&dsum, &half, sizeof half, add_double);
            __cape_atomic_update(&maxval, &v, sizeof v, max_long);
        }
    __cape_loop_end(&l, 0);
    /* after the barrier every thread sees the complete counter */
    if (__cape_single_begin()) {
        if (counter % ((long)N * (N - 1) / 2) != 0) bad += 1;
    }
    __cape_single_end(0);
}

/* 4: threadprivate. */
static void tp_set(void *data) {
    (void)data;
    tp = 100 + omp_get_thread_num();
}
static void tp_use(void *data) {
    (void)data;
    __cape_loop l;
    unsigned long long lo, hi;
    __cape_loop_init(&l, N, CAPE_SCHED_STATIC, 3);
    while (__cape_loop_next(&l, &lo, &hi))
        for (unsigned long long k = lo; k < hi; k++) tpseen[k] += tp - omp_get_thread_num();
    __cape_loop_end(&l, 1);
}
static void tp_copyin(void *data) {
    (void)data;
    __cape_copyin(&tp, sizeof tp);
    __cape_loop l;
    unsigned long long lo, hi;
    __cape_loop_init(&l, N, CAPE_SCHED_GUIDED, 2);
    while (__cape_loop_next(&l, &lo, &hi))
        for (unsigned long long k = lo; k < hi; k++) tpseen[k] += tp;
    __cape_loop_end(&l, 1);
}

/* 5: nesting queries; `bad` is written only when something is wrong. */
static void inner(void *data) {
    (void)data;
    if (omp_get_level() != 2 || omp_get_num_threads() != 1 || omp_get_thread_num() != 0) bad += 100;
    if (omp_get_team_size(2) != 1 || omp_get_ancestor_thread_num(2) != 0) bad += 1000;
    if (omp_get_ancestor_thread_num(3) != -1 || omp_get_team_size(0) != 1) bad += 10000;
}
static void outer(void *data) {
    (void)data;
    int tid = omp_get_thread_num();
    if (omp_get_level() != 1 || omp_get_ancestor_thread_num(1) != tid) bad += 10;
    if (omp_get_team_size(1) != omp_get_num_threads()) bad += 20;
    if (omp_get_active_level() != (omp_get_num_threads() > 1)) bad += 40;
    __cape_parallel(inner, NULL, 0, 1, __CAPE_STACK_POINTER());
    if (omp_get_level() != 1) bad += 80;
}

/* orphaned: outside any region the loop runs every iteration */
static long orphan(void) {
    __cape_loop l;
    unsigned long long lo, hi;
    long s = 0;
    __cape_loop_init(&l, 100, CAPE_SCHED_DYNAMIC, 3);
    while (__cape_loop_next(&l, &lo, &hi))
        for (unsigned long long k = lo; k < hi; k++) s += (long)k;
    if (!__cape_loop_is_last(&l)) s = -1;
    __cape_loop_end(&l, 0);
    __cape_barrier();
    return s;
}

static long checksum(const long *v) {
    long h = 0;
    for (int i = 0; i < N; i++) h = h * 31 + v[i];
    return h;
}

int __cape_user_main(int argc, char **argv, char **envp) {
    (void)argc; (void)argv; (void)envp;
    long sum_after = 0;
    struct d1 D1 = { &sum_after };
    __cape_parallel(phases, &D1, 0, 1, __CAPE_STACK_POINTER());
    printf("phases: sum %ld a %ld b %ld c %ld\n", sum_after, checksum(a), checksum(b), checksum(c));
    /* a small team with barriers: outsiders must end with the same memory */
    sum_after = 0;
    memset(a, 0, sizeof a);
    __cape_parallel(phases, &D1, 2, 1, __CAPE_STACK_POINTER());
    printf("phases(2): sum %ld a %ld b %ld c %ld\n", sum_after, checksum(a), checksum(b), checksum(c));

    int scheds[] = { CAPE_SCHED_DYNAMIC, CAPE_SCHED_GUIDED, CAPE_SCHED_RUNTIME, CAPE_SCHED_AUTO, CAPE_SCHED_STATIC };
    long long chunks[] = { 0, 3, 0, 0, 4 };
    for (int r = 0; r < 3; r++) {
        if (r == 1) omp_set_schedule(omp_sched_dynamic, 7);
        if (r == 2) omp_set_schedule(omp_sched_guided, 0);
        for (int s = 0; s < 5; s++) {
            struct d2 D2 = { scheds[s], chunks[s], 1 + s + 5 * r };
            __cape_parallel(scheduled, &D2, r == 2 ? 3 : 0, 1, __CAPE_STACK_POINTER());
        }
    }
    printf("schedules: d %ld last %ld\n", checksum(d), last_k);

    for (int r = 0; r < 2; r++)
        __cape_parallel(singles, NULL, r ? 3 : 0, 1, __CAPE_STACK_POINTER());
    long h = 0;
    for (int i = 0; i < 7; i++) h = h * 1000 + hist[i];
    printf("single/atomic: team_n %ld c %ld counter %ld hist %ld dsum %.1f max %ld\n", team_n, checksum(c), counter, h, dsum, maxval);

    tp = 7;
    __cape_parallel(tp_set, NULL, 0, 1, __CAPE_STACK_POINTER());
    printf("threadprivate after region: %d\n", tp);
    __cape_parallel(tp_use, NULL, 0, 1, __CAPE_STACK_POINTER());
    tp = 55;
    __cape_parallel(tp_copyin, NULL, 0, 1, __CAPE_STACK_POINTER());
    printf("threadprivate seen: %ld\n", checksum(tpseen));

    __cape_parallel(outer, NULL, 0, 1, __CAPE_STACK_POINTER());
    __cape_parallel(outer, NULL, 2, 1, __CAPE_STACK_POINTER());
    printf("orphan %ld bad %ld level %d\n", orphan(), bad, omp_get_level());
    return 0;
}

int main(int argc, char **argv, char **envp) {
    return __cape_start(argc, argv, envp, __cape_user_main);
}
