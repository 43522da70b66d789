/* unsigned and 64-bit loop variables, bounds near the type's limits */
#include <stdio.h>
#include <limits.h>

unsigned char hits[256];
long long out[64];

int main(void)
{
    unsigned u;
#pragma omp parallel for
    for (u = UINT_MAX - 99; u > UINT_MAX - 200; u--)
        hits[(UINT_MAX - u) % 256] += 1;
#pragma omp parallel for
    for (unsigned v = 4000000000u; v < 4000000000u + 50u; v += 3)
        hits[v % 256] += 2;
#pragma omp parallel for
    for (unsigned long long w = 0; w < 18000000000000000000ULL; w += 300000000000000000ULL)
        out[w / 300000000000000000ULL] = (long long)(w >> 40);
#pragma omp parallel for
    for (long long s = 5000000000LL; s > -5000000000LL; s -= 200000000LL)
        hits[(s / 200000000LL + 100) % 256] += 4;
#pragma omp parallel for
    for (unsigned short k = 65535; k > 65500; k--)
        hits[k % 256] += 8;
    unsigned long h = 0;
    for (int i = 0; i < 256; i++)
        h = h * 33 + hits[i];
    for (int i = 0; i < 64; i++)
        h = h * 33 + (unsigned long)out[i];
    printf("hash=%lu out[59]=%lld hits[7]=%d\n", h, out[59], hits[7]);
    return 0;
}
