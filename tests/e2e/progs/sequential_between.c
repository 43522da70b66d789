/* sequential code between regions reads what every thread wrote and
 * changes shared data itself; the next region must see those changes */
#include <stdio.h>

int main(void)
{
    int n = 120;
    long v[120], w[120];
    long total = 0;
    for (int step = 0; step < 6; step++) {
#pragma omp parallel for
        for (int i = 0; i < n; i++)
            w[i] = (step == 0 ? i : v[i] + v[(i + 7) % n] % 13);
        /* sequential: a prefix sum over the whole array, then one fix-up */
        v[0] = w[0];
        for (int i = 1; i < n; i++)
            v[i] = (w[i] + v[i - 1]) % 100003;
        v[step] = -step;
        total += v[n - 1];
        n -= 7;
    }
    printf("total=%ld v[0]=%ld v[50]=%ld\n", total, v[0], v[50]);
    return 0;
}
