/* jacobi.c - Jacobi iteration for the Laplace equation on an N x N grid.
 * usage: ./jacobi [N] [max_iters]   (defaults 2000 and 100)
 * Heap arrays; every sweep is a parallel loop over rows with a max
 * reduction of the change, and stops early once the change is below 1e-7. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 2000;
    int max_iters = argc > 2 ? atoi(argv[2]) : 100;
    if (n < 3 || max_iters < 0) {
        fprintf(stderr, "usage: %s [N >= 3] [max_iters >= 0]\n", argv[0]);
        return 2;
    }
    const double tolerance = 1e-7;
    double *u = calloc((size_t)n * n, sizeof *u);
    double *unew = calloc((size_t)n * n, sizeof *unew);
    if (!u || !unew) {
        fprintf(stderr, "jacobi: out of memory\n");
        return 1;
    }

    /* boundary: hot top edge, warm left edge, cold elsewhere; fixed in both arrays */
    for (int j = 0; j < n; j++) {
        u[j] = unew[j] = 100.0;
    }
    for (int i = 1; i < n; i++) {
        u[(size_t)i * n] = unew[(size_t)i * n] = 50.0;
    }

    int iter = 0;
    double diff = 0.0;
    while (iter < max_iters) {
        diff = 0.0;
#pragma omp parallel for reduction(max : diff) schedule(static)
        for (int i = 1; i < n - 1; i++) {
            for (int j = 1; j < n - 1; j++) {
                size_t p = (size_t)i * n + j;
                double v = 0.25 * (u[p - n] + u[p + n] + u[p - 1] + u[p + 1]);
                double d = fabs(v - u[p]);
                if (d > diff)
                    diff = d;
                unew[p] = v;
            }
        }
        double *t = u;
        u = unew;
        unew = t;
        iter++;
        if (diff < tolerance)
            break;
    }

    double checksum = 0.0;
    for (size_t p = 0; p < (size_t)n * n; p++)
        checksum += u[p];
    printf("n = %d\niterations = %d\nlast change = %.6e\nchecksum = %.8e\nu[5][n/2] = %.10f\n", n, iter,
           diff, checksum, u[(size_t)5 * n + n / 2]);
    free(u);
    free(unew);
    return 0;
}
