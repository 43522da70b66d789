/* atomic update on scalars of several types and forms: +=, -=, *=, |=, &=, ^=,
   x = x op e, ++x, x--, on int, unsigned, long long, short, char, float, double
   (`/=`, `<<=`, `>>=` are in omp_atomic_div_shift) */
#include <stdio.h>

int main(void)
{
    int i_sum = 0, i_dec = 1000;
    unsigned u_or = 0, u_and = 0xffffffffu, u_xor = 0;
    long long ll = 0;
    short sh = 0;
    char ch = 0;
    float f = 0;
    double d = 0, prod = 1;
    unsigned shl = 1;
#pragma omp parallel for
    for (int i = 0; i < 1000; i++) {
#pragma omp atomic
        i_sum += i;
#pragma omp atomic
        i_dec--;
#pragma omp atomic
        u_or |= 1u << (i % 32);
#pragma omp atomic
        u_and &= ~(1u << (i % 31));
#pragma omp atomic
        u_xor ^= (unsigned)i * 40503u;
#pragma omp atomic
        ll = ll + (long long)i * 100000;
#pragma omp atomic
        ++sh;
#pragma omp atomic
        ch += (i % 2);
#pragma omp atomic
        f += 0.5f; /* exact in float */
#pragma omp atomic
        d -= i * 0.25;
        if (i % 100 == 0) {
#pragma omp atomic
            prod *= 2.0;
#pragma omp atomic
            shl = shl * 2;
        }
    }
    printf("%d %d %x %x %x %lld %d %d %.1f %.2f %.1f %u\n", i_sum, i_dec, u_or, u_and, u_xor, ll,
           sh, ch, f, d, prod, shl);
    return 0;
}
