/* 250 parallel regions in a row, each depending on the previous one's
 * results written by other threads */
#include <stdio.h>

#define N 64
unsigned a[N], b[N];

int main(void)
{
    for (int i = 0; i < N; i++)
        a[i] = (unsigned)i;
    for (int round = 0; round < 125; round++) {
#pragma omp parallel for
        for (int i = 0; i < N; i++)
            b[i] = a[(i + 1) % N] * 3u + a[(i + N - 1) % N] + (unsigned)round;
#pragma omp parallel for schedule(static, 3)
        for (int i = 0; i < N; i++)
            a[i] = b[i] ^ (b[(i * 5) % N] >> 3);
    }
    unsigned long h = 0;
    for (int i = 0; i < N; i++)
        h = h * 1000003u + a[i];
    printf("hash=%lu a[0]=%u a[63]=%u\n", h, a[0], a[63]);
    return 0;
}
