/* write scopes: writes the compiler's analysis cannot follow (a pointer loaded from a global
 * struct or array, pointing into another heap block; writes in a called function; rows of a
 * pointer array) must make the region fall back to scanning everything, and still be merged;
 * a large block nobody writes sits beside them */
#include <stdio.h>
#include <stdlib.h>

#define N 20000

struct holder {
    double *target;
    int n;
} holder;
double *slots[2];

static void fill(double *x, int i)
{
    x[i] = 3.0 * i + 1.0;
}

static double sum(const double *x, long n)
{
    double s = 0;
    for (long i = 0; i < n; i++)
        s += x[i] * (double)(i % 89 + 1);
    return s;
}

int main(void)
{
    size_t big_n = 1 << 21;
    double *big = malloc(big_n * sizeof *big);
    for (size_t i = 0; i < big_n; i++)
        big[i] = (double)(i % 7);
    double *first = calloc(N, sizeof *first);
    double *second = calloc(N, sizeof *second);
    double *third = calloc(N, sizeof *third);
    double **rows = malloc(4 * sizeof *rows);
    for (int r = 0; r < 4; r++)
        rows[r] = calloc(N / 4, sizeof **rows);
    holder.target = second;
    holder.n = N;
    slots[1] = third;

    /* the region names only `first`; the pointer loaded from `holder` reaches `second` */
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        first[i] = i;
        holder.target[i] = 2.0 * i;
    }
    /* through a global array of pointers */
#pragma omp parallel for
    for (int i = 0; i < N; i++)
        slots[1][i] = -i;
    /* in a called function */
#pragma omp parallel for
    for (int i = 0; i < N; i++)
        fill(first, i);
    /* rows loaded from a pointer array */
#pragma omp parallel for
    for (int i = 0; i < N; i++)
        rows[i % 4][i / 4] = i * 0.5;
    /* a private pointer copied from a loaded one */
#pragma omp parallel
    {
        double *q = holder.target;
#pragma omp for
        for (int i = 0; i < N; i++)
            q[i] += 1.0;
    }

    double r = 0;
    for (int k = 0; k < 4; k++)
        r += sum(rows[k], N / 4);
    printf("first %.3f second %.3f third %.3f rows %.3f big %.3f\n", sum(first, N),
           sum(second, N), sum(third, N), r, sum(big, (long)big_n));
    return 0;
}
