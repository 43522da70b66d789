/* slots written, a barrier, then the neighbour's read.
 * expect: no race */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
int slot[16];
int got[16];
int main(void)
{
#pragma omp parallel
    {
        int t = omp_get_thread_num(), n = omp_get_num_threads();
        slot[t] = t * 10;
#pragma omp barrier
        got[t] = slot[(t + 1) % n];
    }
    printf("%d\n", got[0] * 0 + slot[0]);
    return 0;
}
