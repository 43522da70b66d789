/* The write scope passed with each region: the shared objects it can write, or the fallback
 * `__cape_parallel` when the analysis cannot follow a write. */
#include <stdlib.h>
#include <string.h>

double g[64];

static void touch(double *x) { x[0] = 1.0; }

void kernels(double *a, double (*m)[64], double **rows, int n)
{
    double local[8];
    /* a global, a heap block through a pointer, rows of a pointer to arrays, a shared local */
#pragma omp parallel for
    for (int i = 0; i < n; i++) {
        g[i % 64] = i;
        a[i] = 2.0 * i;
        m[i][i % 64] = 1.0;
        local[i % 8] = i;
    }
    /* a private pointer derived from `a` */
#pragma omp parallel
    {
        double *q = a + 1;
        q[0] = 3.0;
    }
    /* memset writes its destination */
#pragma omp parallel
    memset(a, 0, 8 * sizeof *a);
    /* private memory and a shared local */
#pragma omp parallel
    {
        int k = 1;
        local[0] = k;
    }
    /* fallback: a row pointer loaded from memory */
#pragma omp parallel for
    for (int i = 0; i < n; i++)
        rows[i][0] = 1.0;
    /* fallback: a call to a user function */
#pragma omp parallel
    touch(a);
}
