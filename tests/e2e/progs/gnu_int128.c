/* GNU `__int128` in user code: shared arrays written by a parallel loop, a reduction */
#include <stdio.h>

#define N 300
unsigned __int128 prod[N];
__int128 neg[N];

static void print_u128(unsigned __int128 v)
{
    printf("%016llx%016llx\n", (unsigned long long)(v >> 64), (unsigned long long)v);
}

int main(void)
{
    __uint128_t total = 0;
#pragma omp parallel for reduction(+: total)
    for (int i = 0; i < N; i++) {
        prod[i] = (unsigned __int128)0xfedcba9876543210ULL * (unsigned long long)(i + 1) << 3;
        neg[i] = -(__int128)prod[i] / 7;
        total += prod[i];
    }
    __int128_t nsum = 0;
    for (int i = 0; i < N; i++)
        nsum += neg[i];
    print_u128(total);
    print_u128((unsigned __int128)nsum);
    print_u128(prod[N - 1]);
    return 0;
}
