// expect-error: 17
/* A parallel loop allocates one row per iteration and stores its address in a shared array:
 * the block comes from the C library heap of the rank that ran the iteration, so another rank
 * reading the rows after the loop crashed (SIGSEGV, no message). capecc refuses the store. */
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    int n = 8;
    double **rows = malloc(n * sizeof(double *));
    if (!rows)
        return 1;
#pragma omp parallel for
    for (int i = 0; i < n; i++)
    {
        rows[i] = malloc(100 * sizeof(double));
        for (int j = 0; j < 100; j++)
            rows[i][j] = i + j;
    }
    double s = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < 100; j++)
            s += rows[i][j];
    printf("s=%.1f\n", s);
    return 0;
}
