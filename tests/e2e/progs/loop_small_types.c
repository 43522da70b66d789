/* char, signed char and short loop variables */
#include <stdio.h>

int counts[256];

int main(void)
{
    char c;
#pragma omp parallel for
    for (c = 'a'; c <= 'z'; c++)
        counts[(unsigned char)c] += 1;
    /* gcc 12 -fopenmp runs no iteration of `s = 100; s > -100; s -= 9` (the trip count
     * overflows signed char); the sequential program runs 23: keep the range below 128 */
#pragma omp parallel for
    for (signed char s = 60; s > -60; s -= 9)
        counts[(unsigned char)s] += 2;
#pragma omp parallel for
    for (short k = -300; k < 300; k += 25)
        counts[(k + 300) % 256] += 4;
    unsigned long h = 0;
    for (int i = 0; i < 256; i++)
        h = h * 7 + (unsigned)counts[i];
    printf("hash=%lu counts['m']=%d\n", h, counts['m']);
    return 0;
}
