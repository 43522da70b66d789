/* atomic and critical updates with `/`, `<<`, `>>` (compound and `x = x op e` forms): the
   results do not depend on the order of the updates (truncating integer division by positive
   divisors composes: (x / a) / b == x / (a * b); shifts add up; exact powers of two) */
#include <stdio.h>

int main(void)
{
    int halves = 1 << 30, q = 1000000, neg = -1024;
    long long big = 1000000000000000000LL, big2 = 1000000000000000000LL;
    unsigned shl = 1, shl2 = 3;
    unsigned long long wide = 1ULL << 63;
    double dd = 1024.0, crit = 4096.0;
    short sh = 1;
#pragma omp parallel for
    for (int i = 0; i < 9; i++) {
#pragma omp atomic
        halves /= 2;
#pragma omp atomic
        q /= (i % 3 + 1);
#pragma omp atomic
        neg >>= 1;
#pragma omp atomic
        shl <<= 2;
#pragma omp atomic
        shl2 = shl2 << 1;
#pragma omp atomic
        wide = wide >> 3;
#pragma omp atomic
        dd /= 2.0;
#pragma omp atomic update
        sh <<= 1;
        if (i < 6) {
#pragma omp atomic
            big /= 10;
#pragma omp atomic
            big2 = big2 / 1000;
        }
#pragma omp critical
        {
            crit /= 4;
        }
    }
    printf("%d %d %d %u %u %llu %g %d %lld %lld %g\n", halves, q, neg, shl, shl2, wide, dd, sh,
           big, big2, crit);
    return 0;
}
