/* primes.c - count the primes below N by trial division.
 * usage: ./primes [N]   (default 2000000)
 * Work per number grows with the number, so a cyclic schedule with small
 * chunks balances it better than one block per thread. */
#include <stdio.h>
#include <stdlib.h>

static int is_prime(long v)
{
    if (v < 2)
        return 0;
    if (v % 2 == 0)
        return v == 2;
    for (long d = 3; d * d <= v; d += 2)
        if (v % d == 0)
            return 0;
    return 1;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 2000000L;
    if (n < 0) {
        fprintf(stderr, "usage: %s [N >= 0]\n", argv[0]);
        return 2;
    }
    long count = 0, largest = 0;
    long long sum = 0;

#pragma omp parallel for schedule(static, 256) reduction(+ : count, sum) reduction(max : largest)
    for (long v = 0; v < n; v++) {
        if (is_prime(v)) {
            count++;
            sum += v;
            if (v > largest)
                largest = v;
        }
    }

    printf("primes below %ld: %ld\nlargest: %ld\nsum: %lld\n", n, count, largest, sum);
    return 0;
}
