/* Neighbouring ranks write neighbouring bytes of the same words (schedule(static,1) and
 * (static,3) over char and short arrays): byte-precise diffs must keep every write. */
#include <stdio.h>
#include "capert.h"

#define N 4099
char text[N];
unsigned short halves[N];

struct fn_data { int *chunk; };

static void __cape_fn_0(void *__data) {
    struct fn_data *__d = __data;
    __cape_loop l;
    unsigned long long lo, hi;
    __cape_loop_init(&l, N, CAPE_SCHED_STATIC, *__d->chunk);
    while (__cape_loop_next(&l, &lo, &hi)) {
        for (unsigned long long k = lo; k < hi; k++) {
            text[k] = (char)('a' + (k * 7 + *__d->chunk) % 26);
            halves[k] = (unsigned short)(k * 3 + 1);
        }
    }
    __cape_loop_end(&l, 0);
}

int __cape_user_main(int argc, char **argv, char **envp) {
    (void)argc; (void)argv; (void)envp;
    for (int chunk = 0; chunk <= 3; chunk++) {
        struct fn_data d = { &chunk };
        __cape_parallel(__cape_fn_0, &d, 0, 1, __CAPE_STACK_POINTER());
        unsigned long h = 5381;
        for (int k = 0; k < N; k++) h = h * 33 + (unsigned char)text[k] + halves[k];
        printf("chunk=%d text=%.20s...%.5s hash=%lu\n", chunk, text, text + N - 5, h);
    }
    return 0;
}

int main(int argc, char **argv, char **envp) {
    return __cape_start(argc, argv, envp, __cape_user_main);
}
