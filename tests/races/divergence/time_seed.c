/* Sequential code reads the clock (time() plus its sub-second part): every rank computes its
 * own value, and the region that uses it would mix them.
 * expect: divergence in start before the region at line 17 */
#include <stdio.h>
#include <time.h>

double data[100];
long start;

int main(void)
{
    struct timespec ts;
    for (int i = 0; i < 100; i++)
        data[i] = i;
    clock_gettime(CLOCK_REALTIME, &ts);
    start = (long)time(NULL) * 1000000000L + ts.tv_nsec;
#pragma omp parallel for
    for (int i = 0; i < 100; i++)
        data[i] += 1.0;
#pragma omp parallel for
    for (int i = 0; i < 100; i++)
        data[i] += (double)(start % 7);
    printf("%g\n", data[5] > 0 ? 1.0 : 0.0);
    return 0;
}
