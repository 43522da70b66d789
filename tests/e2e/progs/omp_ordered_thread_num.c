/* e2e: per-thread-count
 * the thread number inside an ordered static loop is the thread the schedule gives the iteration */
#include <omp.h>
#include <stdio.h>

int main(void)
{
    int i;
#pragma omp parallel for ordered schedule(static)
    for (i = 0; i < 11; i++) {
#pragma omp ordered
        printf("i=%d thread %d of %d\n", i, omp_get_thread_num(), omp_get_num_threads());
    }
#pragma omp parallel for ordered schedule(static, 2)
    for (i = 0; i < 11; i++) {
        int t = omp_get_thread_num();
#pragma omp ordered
        printf("chunked i=%d thread %d\n", i, t);
    }
    return 0;
}
