#include <stdio.h>
#include <stdlib.h>

#define N 100

double global_sum;
int g[N];

static void scale(double *a, int n, double f)
{
    int i;
#pragma omp parallel for
    for (i = 0; i < n; i++)
        a[i] *= f;
}

int main(int argc, char **argv)
{
    double *a = malloc(N * sizeof(double));
    double s = 0.0;
    int k = 3;
    for (int i = 0; i < N; i++)
        a[i] = i;
    scale(a, N, 2.0);
#pragma omp parallel for reduction(+:s) firstprivate(k) schedule(static, 4)
    for (int i = 0; i < N; i++) {
        if (i % 7 == 0)
            continue;
        s += a[i] * k;
        g[i] = i;
    }
    printf("%f %d\n", s, g[N - 1]);
    free(a);
    return 0;
}
