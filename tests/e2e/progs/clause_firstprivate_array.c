/* e2e: openmp-only (the sequential program writes the originals).
 * firstprivate arrays: every thread starts from a copy of the whole array */
#include <stdio.h>

int main(void)
{
    int lut[9] = {5, 1, 4, 1, 5, 9, 2, 6, 77};
    char name[12] = "firstpriv";
    int out[40];
    char letters[41] = {0};
#pragma omp parallel for firstprivate(lut, name)
    for (int i = 0; i < 40; i++) {
        out[i] = lut[i % 8] * (i + 1);
        letters[i] = name[i % 9];
        lut[8] = i;      /* lut[8] is never read in the loop: private copy only */
        name[10] = 'Z';
    }
    long s = 0;
    for (int i = 0; i < 40; i++)
        s += (long)out[i] * (i % 5 + 1);
    printf("lut=%d,%d,%d,%d,%d,%d,%d,%d,%d name=%s name[10]=%d s=%ld letters=%s\n", lut[0],
           lut[1], lut[2], lut[3], lut[4], lut[5], lut[6], lut[7], lut[8], name, name[10], s,
           letters);
    return 0;
}
