/* Globals (data and bss), heap arrays, a caller's stack array, a sum and a max reduction,
 * lastprivate, as the compiler lowers `#pragma omp parallel for`. */
#include <stdio.h>
#include "capert.h"
#include "omp.h"

#define N 1000
double a[N];
int counter = 5;
long owner_sum;

static void sum_double(void *inout, const void *in) { *(double *)inout += *(const double *)in; }
static void max_int(void *inout, const void *in) {
    if (*(const int *)in > *(int *)inout) *(int *)inout = *(const int *)in;
}

struct fn0_data { double *total; int *maxv; double **heap; int *stack_arr; int *last_i; };

static void __cape_fn_0(void *__data) {
    struct fn0_data *__d = __data;
    __cape_loop l;
    unsigned long long lo, hi;
    double total = 0;      /* reduction(+:total) private copy */
    int maxv = -1000000;   /* reduction(max:maxv) private copy */
    int i = 0;             /* lastprivate(i) */
    __cape_loop_init(&l, N, CAPE_SCHED_STATIC, 0);
    while (__cape_loop_next(&l, &lo, &hi)) {
        for (unsigned long long k = lo; k < hi; k++) {
            i = (int)k;
            a[i] = i * 0.5 + counter;
            (*__d->heap)[i] = a[i] * 2;
            __d->stack_arr[i % 100] += 0; /* read-modify-write of the same value: no change */
            if (i % 10 == 3) __d->stack_arr[i / 10] = i;
            total += a[i];
            if ((i * 37) % 1001 > maxv) maxv = (i * 37) % 1001;
        }
    }
    __cape_loop_end(&l, 0);
    if (__cape_loop_is_last(&l)) *__d->last_i = i;
    __cape_reduce(__d->total, &total, sizeof total, sum_double);
    __cape_reduce(__d->maxv, &maxv, sizeof maxv, max_int);
}

static void run(void) {
    int stack_arr[100] = {0};
    double total = 100.0;
    int maxv = 5;
    int last_i = -1;
    double *heap = __cape_malloc(N * sizeof(double));
    for (int k = 0; k < N; k++) heap[k] = -1;
    struct fn0_data d = { &total, &maxv, &heap, stack_arr, &last_i };
    __cape_parallel(__cape_fn_0, &d, 0, 1, __CAPE_STACK_POINTER());
    double s1 = 0, s2 = 0;
    long s3 = 0;
    for (int k = 0; k < N; k++) { s1 += a[k]; s2 += heap[k]; }
    for (int k = 0; k < 100; k++) s3 += stack_arr[k] * (k + 1);
    printf("total=%.3f max=%d last=%d sum_a=%.3f sum_heap=%.3f stack=%ld\n",
           total, maxv, last_i, s1, s2, s3);
    counter++;
    __cape_free(heap);
}

int __cape_user_main(int argc, char **argv, char **envp) {
    (void)argc; (void)argv; (void)envp;
    printf("threads outside: %d\n", omp_get_num_threads());
    for (int r = 0; r < 3; r++) run();
    return 0;
}

int main(int argc, char **argv, char **envp) {
    return __cape_start(argc, argv, envp, __cape_user_main);
}
