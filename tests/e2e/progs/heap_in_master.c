/* heap blocks allocated inside `master` and `masked` and stored in shared pointers, used
 * after a barrier; freed and reallocated in later regions; `single nowait` too; a `single`
 * of a team smaller than the process count */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <omp.h>

#define N 3000
#define BIG (1 << 19)

int *a;
double *b;
char *label;
long *tail;

int main(void)
{
#pragma omp parallel
    {
#pragma omp master
        {
            a = malloc(N * sizeof *a);
            label = strdup("master");
        }
#pragma omp barrier
#pragma omp for
        for (int i = 0; i < N; i++)
            a[i] = i * 2 + 1;
#pragma omp masked filter(omp_get_num_threads() - 1)
        {
            b = calloc(N, sizeof *b);
            label = realloc(label, 64);
            strcat(label, "+masked");
        }
#pragma omp barrier
#pragma omp for
        for (int i = 0; i < N; i++)
            b[i] = a[i] * 0.25;
    }
    long sa = 0;
    double sb = 0;
    for (int i = 0; i < N; i++) {
        sa += a[i];
        sb += b[i];
    }
    printf("sa=%ld sb=%.2f label=%s\n", sa, sb, label);

#pragma omp parallel
    {
#pragma omp master
        {
            free(a);
            a = malloc(2 * N * sizeof *a);
        }
#pragma omp single nowait
        {
            tail = malloc(N * sizeof *tail);
            memset(tail, 0, N * sizeof *tail);
        }
#pragma omp barrier
#pragma omp for
        for (int i = 0; i < 2 * N; i++)
            a[i] = i;
#pragma omp for
        for (int i = 0; i < N; i++)
            tail[i] = (long)a[i] * b[i % N] > 100 ? 1 : 2;
    }
    long t = 0;
    for (int i = 0; i < 2 * N; i++)
        t += a[i];
    for (int i = 0; i < N; i++)
        t += tail[i];
    printf("t=%ld\n", t);

    /* a team smaller than the process count: the threads outside it get the new heap too */
    free(tail);
#pragma omp parallel num_threads(2)
    {
#pragma omp single
        tail = malloc(BIG * sizeof *tail);
#pragma omp for
        for (int i = 0; i < BIG; i++)
            tail[i] = i % 11;
    }
    long u = 0;
    for (int i = 0; i < BIG; i++)
        u += tail[i];
    int *seq = malloc(N * sizeof *seq);
#pragma omp parallel for
    for (int i = 0; i < N; i++)
        seq[i] = i * 5;
    for (int i = 0; i < N; i++)
        u += seq[i];
    printf("u=%ld\n", u);
    free(seq);
    free(a);
    free(b);
    free(tail);
    free(label);
    return 0;
}
