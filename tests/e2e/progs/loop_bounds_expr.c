/* loop bounds and steps from variables, expressions, calls, struct fields */
#include <stdio.h>

struct range {
    int lo, hi, step;
};

static int calls;
static int limit(int x)
{
    calls++;
    return x * 2 + 1;
}

double v[500];

int main(int argc, char **argv)
{
    (void)argv;
    struct range r = {7, 400, 3};
    int n = 100 + argc;  /* 101 with no arguments */
    int k = 4;
#pragma omp parallel for
    for (int i = r.lo; i < r.hi; i += r.step)
        v[i] = i * 0.5;
#pragma omp parallel for
    for (int i = n / 2 - k; i < limit(n) - 2 * k; i += k - 2)
        v[i] += 1.0;
    int hi = n * 4;
#pragma omp parallel for
    for (int i = hi; i >= r.lo + k * k; i -= r.step + 1)
        v[i] -= 0.25;
    long long base = -3;
#pragma omp parallel for
    for (long long j = base * 10; j < base + 40; j++)
        v[j + 30] *= 2.0;
    double s = 0;
    for (int i = 0; i < 500; i++)
        s += v[i] * (i % 9 + 1);
    printf("s=%.3f calls=%d v[8]=%.2f v[400]=%.2f\n", s, calls > 0, v[8], v[400]);
    return 0;
}
