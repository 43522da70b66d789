/* Heap blocks allocated inside parallel regions in the ways capecc allows: private scratch
 * buffers used and freed in the region (also through a private pointer and a private clause
 * variable), blocks allocated in `single` and `critical` and stored in shared memory (those
 * come from the shared heap), and a shared array of rows allocated before the region and
 * filled in it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 64
#define M 32

static double *rows[N];
static char *names[4];

int main(void)
{
    double sums[N];
    for (int i = 0; i < N; i++)
        rows[i] = malloc(M * sizeof(double));
    double *scratch;
#pragma omp parallel for private(scratch)
    for (int i = 0; i < N; i++)
    {
        scratch = malloc(M * sizeof(double));
        double *tmp = calloc(M, sizeof(double));
        double *alias = tmp;
        for (int j = 0; j < M; j++)
        {
            scratch[j] = i * 0.5 + j;
            alias[j] = scratch[j] * 2;
            rows[i][j] = tmp[j] + 1;
        }
        double s = 0;
        for (int j = 0; j < M; j++)
            s += tmp[j];
        sums[i] = s;
        free(tmp);
        free(scratch);
    }
    double *shared_block = NULL;
#pragma omp parallel
    {
#pragma omp single
        {
            shared_block = malloc(N * sizeof(double));
            names[0] = strdup("single");
        }
#pragma omp for
        for (int i = 0; i < N; i++)
            shared_block[i] = sums[i] / 2;
#pragma omp critical
        {
            if (!names[1])
            {
                names[1] = malloc(16);
                strcpy(names[1], "critical");
            }
        }
    }
    double total = 0;
    for (int i = 0; i < N; i++)
        total += shared_block[i] + rows[i][M - 1];
    printf("total=%.2f %s %s\n", total, names[0], names[1]);
    for (int i = 0; i < N; i++)
        free(rows[i]);
    free(shared_block);
    return 0;
}
