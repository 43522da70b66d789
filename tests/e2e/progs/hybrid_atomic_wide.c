/* atomic updates whose operand is wider than the updated variable (int += double, float +=
   double, long long += long double, double += long double, short -= double) and of a long
   double, from every thread at once, with an operand that changes from one iteration to the
   next: the wider operand travels beside the update, and two threads of one rank must not mix
   theirs up. Every sum is exact and its result independent of the order of the updates. */
#include <stdio.h>

#define N 40000

int i_sum;
float f_sum;
long long ll_sum;
double d_sum;
long double ld_sum;
short s_sum;
unsigned long long u_bits;

int main(void)
{
    for (int round = 0; round < 3; round++) {
#pragma omp parallel for schedule(static)
        for (int k = 0; k < N; k++) {
            int t = (k + round) % 3;
#pragma omp atomic
            i_sum += t + 0.5; /* (int)(i + t + 0.5) == i + t while i >= 0 */
#pragma omp atomic
            f_sum += t * 0.25;
#pragma omp atomic
            ll_sum += t + 0.5L;
#pragma omp atomic
            d_sum += (long double)t * 0.5L;
#pragma omp atomic
            ld_sum += t * 0.125L;
            if (k % 64 == 0) {
#pragma omp atomic
                s_sum -= t * 1.0;
            }
#pragma omp atomic
            u_bits ^= (unsigned long long)t << (k % 61);
        }
    }
    printf("%d %.2f %lld %.2f %.3Lf %d %llu\n", i_sum, f_sum, ll_sum, d_sum, ld_sum, s_sum, u_bits);
    return 0;
}
