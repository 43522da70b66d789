/* scanf under mpirun: every rank must read the same numbers (stdin is fed to rank 0 only). */
#include <stdio.h>
#include "capert.h"

#define MAXN 10000
long values[MAXN];
long squares[MAXN];

struct fn_data { int *n; long *sum; };
static void add_long(void *inout, const void *in) { *(long *)inout += *(const long *)in; }

static void __cape_fn_0(void *__data) {
    struct fn_data *__d = __data;
    __cape_loop l;
    unsigned long long lo, hi;
    long sum = 0;
    __cape_loop_init(&l, (unsigned long long)*__d->n, CAPE_SCHED_STATIC, 0);
    while (__cape_loop_next(&l, &lo, &hi))
        for (unsigned long long k = lo; k < hi; k++) {
            squares[k] = values[k] * values[k];
            sum += squares[k];
        }
    __cape_loop_end(&l, 0);
    __cape_reduce(__d->sum, &sum, sizeof sum, add_long);
}

int __cape_user_main(int argc, char **argv, char **envp) {
    (void)argc; (void)argv; (void)envp;
    int n = 0;
    __cape_stdin_sync();
    while (n < MAXN && scanf("%ld", &values[n]) == 1) n++;
    long sum = 0;
    struct fn_data d = { &n, &sum };
    __cape_parallel(__cape_fn_0, &d, 0, 1, __CAPE_STACK_POINTER());
    long check = 0;
    for (int k = 0; k < n; k++) check += squares[k] % 97;
    printf("read %d numbers, sum of squares %ld, check %ld\n", n, sum, check);
    return 0;
}

int main(int argc, char **argv, char **envp) {
    return __cape_start(argc, argv, envp, __cape_user_main);
}
