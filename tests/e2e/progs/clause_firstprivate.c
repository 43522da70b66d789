/* e2e: openmp-only (the sequential program writes the originals).
 * firstprivate: scalars and a struct start from the value before the region;
 * writes to the copies never reach the originals */
#include <stdio.h>

struct params {
    int scale;
    double offset;
    char tag;
};

int main(void)
{
    int base = 1000, junk = 7;
    struct params p = {3, 0.5, 'q'};
    double out[64];
#pragma omp parallel for firstprivate(base, p, junk)
    for (int i = 0; i < 64; i++) {
        base += 2;
        out[i] = (base - 2) + p.scale * i + p.offset + p.tag;
        base -= 2;
        junk = i;
        (void)junk;
    }
    double s = 0;
    for (int i = 0; i < 64; i++)
        s += out[i] * (i + 1);
    printf("base=%d junk=%d scale=%d s=%.3f out[0]=%.3f out[63]=%.3f\n", base, junk, p.scale, s,
           out[0], out[63]);
    return 0;
}
