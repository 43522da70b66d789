/* saxpy.c - y = a*x + y on heap arrays, repeated with a new `a` each round,
 * plus a dot product per round: many small parallel regions in a row.
 * usage: ./saxpy [n] [rounds]   (defaults 1000000 and 50) */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000000L;
    int rounds = argc > 2 ? atoi(argv[2]) : 50;
    if (n < 1 || rounds < 0) {
        fprintf(stderr, "usage: %s [n > 0] [rounds >= 0]\n", argv[0]);
        return 2;
    }
    float *x = malloc((size_t)n * sizeof *x);
    float *y = malloc((size_t)n * sizeof *y);
    if (!x || !y) {
        fprintf(stderr, "saxpy: out of memory\n");
        return 1;
    }

#pragma omp parallel for
    for (long i = 0; i < n; i++) {
        x[i] = (float)(i % 17) * 0.25f;
        y[i] = (float)(i % 11) - 5.0f;
    }

    double dot_total = 0.0;
    for (int r = 0; r < rounds; r++) {
        float a = (r % 2 == 0) ? 0.5f : -0.25f;
#pragma omp parallel for firstprivate(a) schedule(static)
        for (long i = 0; i < n; i++)
            y[i] = a * x[i] + y[i];

        /* every product is a multiple of 2^-k small enough to be exact in double,
         * so the sum does not depend on the order of the partial sums */
        double dot = 0.0;
#pragma omp parallel for reduction(+ : dot)
        for (long i = 0; i < n; i++)
            dot += (double)x[i] * (double)y[i];
        dot_total += dot;
    }

    double ysum = 0.0;
    for (long i = 0; i < n; i++)
        ysum += y[i];
    printf("n = %ld, rounds = %d\nsum(y) = %.6e\ndot total = %.6e\ny[n-1] = %.6f\n", n, rounds,
           ysum, dot_total, y[n - 1]);
    free(x);
    free(y);
    return 0;
}
