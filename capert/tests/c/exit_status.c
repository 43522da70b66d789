/* exit() from user code after a region: output appears once, the status is 3. */
#include <stdio.h>
#include <stdlib.h>
#include "capert.h"

int data[64];
static void __cape_fn_0(void *__data) {
    (void)__data;
    __cape_loop l;
    unsigned long long lo, hi;
    __cape_loop_init(&l, 64, CAPE_SCHED_STATIC, 0);
    while (__cape_loop_next(&l, &lo, &hi))
        for (unsigned long long k = lo; k < hi; k++) data[k] = (int)k * 2;
    __cape_loop_end(&l, 0);
}

int __cape_user_main(int argc, char **argv, char **envp) {
    (void)argc; (void)argv; (void)envp;
    __cape_parallel(__cape_fn_0, NULL, 0, 1, __CAPE_STACK_POINTER());
    int s = 0;
    for (int k = 0; k < 64; k++) s += data[k];
    printf("sum %d\n", s);
    exit(3);
}

int main(int argc, char **argv, char **envp) {
    return __cape_start(argc, argv, envp, __cape_user_main);
}
