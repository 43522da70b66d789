/* `critical` sections whose body is any code (run under a lock the ranks share): a counter
   incremented by a read-modify-write sequence, a maximum with its index, two named sections,
   a section inside a loop with many iterations per thread, a section in a called function,
   and the NAS EP form (a loop of updates, merged as updates). Output that depends on the
   order in which threads take the lock is printed in an order-independent form. */
#include <stdio.h>

#define N 600

long counter;
double best = -1.0;
int best_at = -1;
long evens, odds;
long log_sum, log_xor;
double q[10];
double sx, sy;

static void record(int i, long value)
{
#pragma omp critical(logbook)
    {
        long t = log_sum;
        t += value;
        log_sum = t;
        log_xor ^= value * 2654435761L;
    }
    (void)i;
}

static double score(int i)
{
    return (double)((i * 7919) % 1009) + (i % 3) * 0.25;
}

int main(void)
{
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        double s = score(i);
#pragma omp critical
        {
            long c = counter;
            c = c + 1;
            counter = c;
            if (s > best || (s == best && i < best_at)) {
                best = s;
                best_at = i;
            }
        }
        if (i % 2 == 0) {
#pragma omp critical(parity)
            {
                long e = evens;
                evens = e + i;
            }
        } else {
#pragma omp critical(parity)
            odds = odds + (counter > 0 ? i : 0) * 0 + i;
        }
        record(i, (long)i * i % 97);
    }

#pragma omp parallel
    {
        double qq[10] = {0};
        double sxx = 0, syy = 0;
#pragma omp for
        for (int i = 0; i < N; i++) {
            qq[i % 10] += 1.0;
            sxx += i * 0.5;
            syy -= i * 0.25;
        }
#pragma omp critical
        {
            for (int k = 0; k < 10; k++)
                q[k] += qq[k];
            sx += sxx;
            sy += syy;
        }
    }

    printf("counter %ld\n", counter);
    printf("best %.2f at %d\n", best, best_at);
    printf("evens %ld odds %ld\n", evens, odds);
    printf("log %ld %ld\n", log_sum, log_xor);
    for (int k = 0; k < 10; k++)
        printf("q[%d] = %.1f\n", k, q[k]);
    printf("sx %.2f sy %.2f\n", sx, sy);
    return 0;
}
