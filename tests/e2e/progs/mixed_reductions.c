/* several reduction clauses of different types on one loop, on globals
 * and locals, starting from values that are not the identity */
#include <stdio.h>

long long gsum = 1000;
double gmax = -1.0;

int main(void)
{
    int count = 7;
    unsigned char bits = 0x80;
    float fmin = 1e9f;
    short prod = 1;
    _Bool any = 0;
#pragma omp parallel for reduction(+ : gsum, count) reduction(max : gmax) reduction(| : bits) \
    reduction(min : fmin) reduction(* : prod) reduction(|| : any)
    for (int i = 0; i < 90; i++) {
        gsum += (long long)i * 1000000007LL;
        count += i % 2;
        if (i * 0.5 > gmax)
            gmax = i * 0.5;
        bits |= (unsigned char)(1u << (i % 5));
        if ((float)(i - 40) * (float)(i - 40) < fmin)
            fmin = (float)(i - 40) * (float)(i - 40);
        if (i % 30 == 29)
            prod *= -3;
        any = any || i == 77;
    }
    printf("gsum=%lld count=%d gmax=%.1f bits=%u fmin=%.1f prod=%d any=%d\n", gsum, count, gmax,
           bits, fmin, prod, any);
    return 0;
}
