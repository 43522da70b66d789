/* e2e: openmp-only (the sequential program writes the originals).
 * private: scalars and an array, each iteration sees its own copy */
#include <stdio.h>

int main(void)
{
    int t = 42, i;
    double scratch[4] = {9, 9, 9, 9};
    long out[100];
#pragma omp parallel for private(t, scratch)
    for (i = 0; i < 100; i++) {
        t = i * 3;
        for (int k = 0; k < 4; k++)
            scratch[k] = t + k;
        out[i] = (long)(scratch[0] + scratch[3]) * (i % 7);
    }
    unsigned long s = 0;
    for (i = 0; i < 100; i++)
        s = s * 31 + out[i];
    /* the originals are untouched by the region */
    printf("t=%d scratch=%g,%g,%g,%g hash=%lu out[99]=%ld\n", t, scratch[0], scratch[1],
           scratch[2], scratch[3], s, out[99]);
    return 0;
}
