/* Regions with write scopes (as capecc emits them for regions whose writes it can bound):
 * a global array, a large heap block through its pointer and through a pointer just past
 * its end, a small heap block, shared stack locals (as an exact span, and through a pointer
 * into the stack, which reaches the whole shared stack), and memory written by sequential
 * code while it was outside the scopes of the regions in between (the next region whose scope
 * holds it must diff it against what it held at that region's start, not before). A large
 * untouched block lies beside them all. With WRONG_SCOPE set, the region writing B claims
 * the small block's scope: `CAPE_WRITE_SCOPE=check` must catch that. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "capert.h"
#include "omp.h"

#define G 4096
#define A_LEN (256 * 1024)
#define B_LEN (512 * 1024)
double g[G];

struct data { double *a; double *end; long *small; long *b; long *local; };

static void write_global(void *arg) {
    (void)arg;
    __cape_loop l;
    unsigned long long lo, hi;
    __cape_loop_init(&l, G, CAPE_SCHED_STATIC, 0);
    while (__cape_loop_next(&l, &lo, &hi))
        for (unsigned long long k = lo; k < hi; k++) g[k] = g[k] * 0.5 + (double)k;
    __cape_loop_end(&l, 1);
}

static void write_local_again(void *arg) {
    struct data *d = arg;
    __cape_loop l;
    unsigned long long lo, hi;
    __cape_loop_init(&l, 16, CAPE_SCHED_STATIC, 0);
    while (__cape_loop_next(&l, &lo, &hi))
        for (unsigned long long k = lo; k < hi; k++) d->local[k] += 2 * (long)k;
    __cape_loop_end(&l, 1);
}

static void write_heap(void *arg) {
    struct data *d = arg;
    __cape_loop l;
    unsigned long long lo, hi;
    __cape_loop_init(&l, A_LEN / 2, CAPE_SCHED_STATIC, 1000);
    while (__cape_loop_next(&l, &lo, &hi))
        for (unsigned long long k = lo; k < hi; k++) {
            d->a[k] += (double)k;     /* through the block's pointer */
            d->end[-1 - (long)k] = (double)(k % 7); /* through a pointer past its end */
        }
    __cape_loop_end(&l, 1);
}

static void write_small(void *arg) {
    struct data *d = arg;
    __cape_loop l;
    unsigned long long lo, hi;
    __cape_loop_init(&l, 12, CAPE_SCHED_STATIC, 0);
    while (__cape_loop_next(&l, &lo, &hi))
        for (unsigned long long k = lo; k < hi; k++) d->small[k] = (long)(k * k);
    __cape_loop_end(&l, 1);
}

static void write_local(void *arg) {
    struct data *d = arg;
    __cape_loop l;
    unsigned long long lo, hi;
    __cape_loop_init(&l, 16, CAPE_SCHED_STATIC, 0);
    while (__cape_loop_next(&l, &lo, &hi))
        for (unsigned long long k = lo; k < hi; k++) d->local[k] = (long)k + 1;
    __cape_loop_end(&l, 1);
}

/* Each rank writes every 16th long of B in its own iterations: every page of B is written by
 * several ranks, some bytes of each page by none. */
static void write_b(void *arg) {
    struct data *d = arg;
    __cape_loop l;
    unsigned long long lo, hi;
    __cape_loop_init(&l, B_LEN / 16, CAPE_SCHED_STATIC, 3);
    while (__cape_loop_next(&l, &lo, &hi))
        for (unsigned long long k = lo; k < hi; k++) d->b[16 * k] = (long)k * 3;
    __cape_loop_end(&l, 1);
}

static unsigned long sum(const void *p, size_t n) {
    const unsigned char *c = p;
    unsigned long s = 0;
    for (size_t i = 0; i < n; i++) s = s * 31 + c[i];
    return s;
}

int __cape_user_main(int argc, char **argv, char **envp) {
    (void)argc; (void)argv; (void)envp;
    long local[16] = {0};
    double *ballast = __cape_malloc(4 << 20);
    memset(ballast, 3, 4 << 20);
    struct data d;
    d.a = __cape_calloc(A_LEN, sizeof(double));
    d.end = d.a + A_LEN;
    d.small = __cape_malloc(12 * sizeof(long));
    d.b = __cape_malloc(B_LEN * sizeof(long));
    d.local = local;
    memset(d.small, 0, 12 * sizeof(long));
    memset(d.b, 0, B_LEN * sizeof(long));
    for (int round = 0; round < 3; round++) {
        struct __cape_span gs[] = { { g, sizeof g } };
        __cape_parallel_in_scope(write_global, &d, 0, 1, __CAPE_STACK_POINTER(), gs, 1);
        struct __cape_span hs[] = { { d.a, 0 }, { d.end, 0 } };
        __cape_parallel_in_scope(write_heap, &d, 0, 1, __CAPE_STACK_POINTER(), hs, 2);
        struct __cape_span ss[] = { { d.small, 0 } };
        __cape_parallel_in_scope(write_small, &d, 0, 1, __CAPE_STACK_POINTER(), ss, 1);
        struct __cape_span ls[] = { { local, sizeof local } };
        __cape_parallel_in_scope(write_local, &d, 0, 1, __CAPE_STACK_POINTER(), ls, 1);
        struct __cape_span ps[] = { { d.local + 3, 0 } };
        __cape_parallel_in_scope(write_local_again, &d, 0, 1, __CAPE_STACK_POINTER(), ps, 1);
        /* sequential writes to B, then regions whose scope does not hold B, then one that does */
        for (int i = 0; i < B_LEN; i += 7) d.b[i] = i + round;
        __cape_parallel_in_scope(write_small, &d, 0, 1, __CAPE_STACK_POINTER(), ss, 1);
        struct __cape_span bs[] = { { getenv("WRONG_SCOPE") ? (void *)d.small : d.b + 5, 0 } };
        __cape_parallel_in_scope(write_b, &d, 0, 1, __CAPE_STACK_POINTER(), bs, 1);
        printf("round %d: g %lu a %lu small %lu local %lu b %lu ballast %lu\n", round,
               sum(g, sizeof g), sum(d.a, A_LEN * sizeof(double)),
               sum(d.small, 12 * sizeof(long)), sum(local, sizeof local),
               sum(d.b, B_LEN * sizeof(long)), sum(ballast, 4 << 20));
    }
    return 0;
}

int main(int argc, char **argv, char **envp) {
    return __cape_start(argc, argv, envp, __cape_user_main);
}
