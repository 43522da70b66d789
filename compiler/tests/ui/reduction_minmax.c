#include <stdio.h>

int main(void)
{
    double hi = 0.0, lo = 1e9;
    int count = 0;
#pragma omp parallel for reduction(max : hi) reduction(min : lo)
    for (int i = 0; i < 100; i++) {
        double v = (i * 37) % 101;
        if (v > hi)
            hi = v;
        if (v < lo)
            lo = v;
    }
#pragma omp parallel reduction(+ : count)
    count++;
    printf("%g %g %d\n", hi, lo, count);
    return 0;
}
