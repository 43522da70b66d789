/* matmul.c - dense matrix product C = A * B on global arrays.
 * usage: ./matmul [N]   (default 1500, at most NMAX)
 * The rows of C are shared out among the threads; every element is an exact
 * integer, so the checksum does not depend on how the work was split. */
#include <stdio.h>
#include <stdlib.h>

#define NMAX 2000

static double A[NMAX][NMAX];
static double B[NMAX][NMAX];
static double C[NMAX][NMAX];

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1500;
    if (n < 1 || n > NMAX) {
        fprintf(stderr, "usage: %s [N in 1..%d]\n", argv[0], NMAX);
        return 2;
    }

    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            A[i][j] = (double)((i + 2 * j) % 7 - 3);
            B[i][j] = (double)((3 * i + j) % 5 - 2);
        }

    int i, j, k;
#pragma omp parallel for private(j, k) shared(A, B, C) schedule(static)
    for (i = 0; i < n; i++) {
        for (j = 0; j < n; j++)
            C[i][j] = 0.0;
        /* i-k-j order: the inner loop walks rows of B and C contiguously */
        for (k = 0; k < n; k++) {
            double a = A[i][k];
            for (j = 0; j < n; j++)
                C[i][j] += a * B[k][j];
        }
    }

    double checksum = 0.0, trace = 0.0;
    for (i = 0; i < n; i++) {
        trace += C[i][i];
        for (j = 0; j < n; j++)
            checksum += C[i][j] * (double)((7 * i + 13 * j) % 101 + 1);
    }
    printf("n = %d\nchecksum = %.1f\ntrace = %.1f\nC[%d][%d] = %.1f\n", n, checksum, trace,
           n / 2, n / 3, C[n / 2][n / 3]);
    return 0;
}
