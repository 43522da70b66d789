/* Globals, params (array params), VLA pointer-to-array locals, static locals, shadowing,
 * several regions in one function, struct variables, private arrays, unsigned/size_t loops. */
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>

struct pair { double a, b; };
typedef unsigned long ulong_t;
double total;

static void rows(int n, int m, double grid[n][m], double out[])
{
    static int calls;
    calls++;
#pragma omp parallel for
    for (int i = 0; i < n; i++) {
        double acc = 0.0;
        for (int j = 0; j < m; j++)
            acc += grid[i][j];
        out[i] = acc + calls;
    }
}

int main(void)
{
    int n = 6;
    double (*a)[n] = malloc(sizeof(double[n][n]));
    double out[6];
    struct pair pr = { 1.0, 2.0 };
    int tmp[3];
    size_t z;
    ulong_t u;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            a[i][j] = i * j;
    rows(n, n, a, out);
    {
        int n = 3; /* shadows the outer n */
#pragma omp parallel for firstprivate(pr) private(tmp)
        for (z = 0; z < (size_t)n; z++) {
            tmp[0] = (int)z;
            out[z] += pr.a * tmp[0];
        }
    }
#pragma omp parallel for reduction(+:total) lastprivate(u)
    for (u = 10; u > 0; u -= 2)
        total += a[u % 6][0] + out[u % 6];
    printf("%f %lu\n", total, (unsigned long)u);
    free(a);
    return 0;
}
