/* 250 regions: a Jacobi-style sweep between two global arrays, heap growth between regions
 * (arena spans grow past their first megabyte), realloc of a heap array, num_threads and
 * if(0) clauses, and a nested region that runs as a team of one. */
#include <stdio.h>
#include <string.h>
#include "capert.h"
#include "omp.h"

#define N 2048
double u[N], v[N];
long hist[8];

struct sweep_data { double **from; double **to; };

static void sweep(void *__data) {
    struct sweep_data *__d = __data;
    __cape_loop l;
    unsigned long long lo, hi;
    __cape_loop_init(&l, N - 2, CAPE_SCHED_STATIC, 0);
    while (__cape_loop_next(&l, &lo, &hi))
        for (unsigned long long k = lo; k < hi; k++) {
            int i = (int)k + 1;
            (*__d->to)[i] = ((*__d->from)[i - 1] + (*__d->from)[i + 1]) * 0.5;
        }
    __cape_loop_end(&l, 0);
}

struct heap_data { long **arr; long *n; int *team_seen; };

static void inner(void *__data) {
    struct heap_data *__d = __data;
    /* nested: a team of one */
    __d->team_seen[1] = omp_get_num_threads() * 100 + omp_get_level();
}

static void fill(void *__data) {
    struct heap_data *__d = __data;
    __cape_loop l;
    unsigned long long lo, hi;
    if (omp_get_thread_num() == 0) __d->team_seen[0] = omp_get_num_threads();
    __cape_loop_init(&l, (unsigned long long)*__d->n, CAPE_SCHED_STATIC, 5);
    while (__cape_loop_next(&l, &lo, &hi))
        for (unsigned long long k = lo; k < hi; k++) {
            (*__d->arr)[k] = (long)(k * k % 1000);
            /* private scratch from malloc inside a region: served by libc, freed here */
            char *tmp = __cape_malloc(100);
            memset(tmp, 1, 100);
            __cape_free(tmp);
        }
    __cape_loop_end(&l, 0);
    if (omp_get_thread_num() == 0)
        __cape_parallel(inner, __d, 0, 1, __CAPE_STACK_POINTER());
}

int __cape_user_main(int argc, char **argv, char **envp) {
    (void)argc; (void)argv; (void)envp;
    u[0] = 100.0; v[0] = 100.0;
    double *from = u, *to = v;
    for (int it = 0; it < 200; it++) {
        struct sweep_data d = { &from, &to };
        __cape_parallel(sweep, &d, 0, 1, __CAPE_STACK_POINTER());
        double *t = from; from = to; to = t;
    }
    double s = 0;
    for (int i = 0; i < N; i++) s += u[i] * (i + 1) + v[i];
    printf("jacobi checksum %.9e\n", s);

    long *arr = NULL;
    long n = 0;
    int team_seen[2] = {0, 0};
    for (int r = 0; r < 50; r++) {
        n += 20000;   /* grows to 8 MB: several arena extensions */
        arr = __cape_realloc(arr, (size_t)n * sizeof(long));
        char *pad = __cape_malloc(3000 + r);  /* interleaved sequential allocations */
        pad[0] = (char)r;
        struct heap_data d = { &arr, &n, team_seen };
        int nt = (r % 3 == 0) ? 2 : 0;
        __cape_parallel(fill, &d, nt, r % 7 != 6, __CAPE_STACK_POINTER());
        long sum = 0;
        for (long k = 0; k < n; k++) sum += arr[k] * ((k % 5) + 1);
        hist[r % 8] += sum % 1000003;
        if (r % 10 == 9) printf("r=%d n=%ld sum=%ld\n", r, n, sum);
    }
    long h = 0;
    for (int k = 0; k < 8; k++) h = h * 31 + hist[k];
    printf("hist %ld nested %d\n", h, team_seen[1]);
    __cape_free(arr);
    return 0;
}

int main(int argc, char **argv, char **envp) {
    return __cape_start(argc, argv, envp, __cape_user_main);
}
