/* K&R (old-style) function definitions holding regions: parameters declared in the declaration
   list (an array parameter among them), one left to C90's implicit int, and main itself */
#include <stdio.h>

double data[64];

double weighted_sum(n, scale, v)
    int n;
    double scale, v[];
{
    double s = 0;
#pragma omp parallel for reduction(+:s)
    for (int i = 0; i < n; i++)
        s += v[i] * scale;
    return s;
}

void fill(count, step)
    register int count;
{
#pragma omp parallel for
    for (int i = 0; i < count; i++)
        data[i] = i * step;
}

int main(argc, argv)
    int argc;
    char **argv;
{
    int total = 0;
    fill(64, 3);
#pragma omp parallel for reduction(+:total)
    for (int i = 0; i < 64; i++)
        total += (int)data[i] + argc;
    printf("%g %d %s\n", weighted_sum(64, 0.5, data), total, argv[1]);
    return 0;
}
