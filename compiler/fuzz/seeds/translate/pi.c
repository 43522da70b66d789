/* pi.c - approximate pi by the midpoint rule on 4/(1+x^2) over [0,1].
 * usage: ./pi [steps]   (default 200000000)
 * A reduction(+) loop: each thread sums its share, the partial sums are added. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    long long steps = argc > 1 ? atoll(argv[1]) : 200000000LL;
    if (steps <= 0) {
        fprintf(stderr, "usage: %s [steps > 0]\n", argv[0]);
        return 2;
    }
    double step = 1.0 / (double)steps;
    double sum = 0.0;

#pragma omp parallel for reduction(+ : sum) schedule(static)
    for (long long i = 0; i < steps; i++) {
        double x = ((double)i + 0.5) * step;
        sum += 4.0 / (1.0 + x * x);
    }

    /* 10 decimals: the partial sums are added in a thread-count dependent order,
     * which moves only the last few of the 16 significant digits */
    printf("steps = %lld\npi    = %.10f\n", steps, sum * step);
    return 0;
}
