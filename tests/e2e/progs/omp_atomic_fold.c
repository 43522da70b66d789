/* Many atomic updates of a few variables per thread: consecutive updates of one variable by
 * an associative, commutative operation (integer + * & | ^ max min with an operand of the
 * variable's type) may be merged as one; updates of other operations, other types or other
 * variables in between must keep their own effect. Loops shorter than the team too. */
#include <stdio.h>

static long sum, sum_short_loop;
static unsigned int prod = 1;
static int hi = -1000000, lo = 1000000;
static unsigned char bits;
static long flip;
static short narrow;
static int net;
static double real_sum;
static long table[4];

int main(void)
{
#pragma omp parallel for schedule(static)
    for (int i = 0; i < 3000; i++) {
#pragma omp atomic
        sum += i;
#pragma omp atomic
        sum += 2;
#pragma omp atomic
        prod *= (unsigned int)(i % 3 + 1);
        /* max and min: update-only critical sections, merged as updates */
#pragma omp critical(extremes)
        {
            if (i * 7 % 1013 > hi)
                hi = i * 7 % 1013;
            if (i * 5 % 997 - 400 < lo)
                lo = i * 5 % 997 - 400;
        }
#pragma omp atomic
        bits |= (unsigned char)(1u << (i % 7));
#pragma omp atomic
        flip ^= (long)i * 2654435761L;
#pragma omp atomic
        narrow += (short)3;
        /* + and - alternate on one variable: - is not combined, + between them is */
#pragma omp atomic
        net += 5;
#pragma omp atomic
        net -= 2;
#pragma omp atomic
        net += 1;
        /* a real operand of an integer variable is not combined */
#pragma omp atomic
        sum += 1.0;
#pragma omp atomic
        real_sum += 0.5;
#pragma omp atomic
        table[i % 4] += i;
#pragma omp atomic
        table[(i + 1) % 4] += 1;
    }
#pragma omp parallel for
    for (int i = 0; i < 3; i++) {
#pragma omp atomic
        sum_short_loop += 10;
#pragma omp atomic
        sum_short_loop += i;
    }
    printf("sum %ld short %ld prod %u hi %d lo %d bits %u flip %ld narrow %d net %d real %.1f\n",
           sum, sum_short_loop, prod, hi, lo, bits, flip, narrow, net, real_sum);
    printf("table %ld %ld %ld %ld\n", table[0], table[1], table[2], table[3]);
    return 0;
}
