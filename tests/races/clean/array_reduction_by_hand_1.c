/* per-thread partial sums combined after the region.
 * expect: no race */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
int part[16];
int main(void)
{
    int total = 0;
#pragma omp parallel
    {
        int t = omp_get_thread_num(), n = omp_get_num_threads();
        int mine = 0;
        for (int i = t; i < 64; i += n) mine += i;
        part[t] = mine;
    }
    for (int t = 0; t < 16; t++) total += part[t];
    printf("%d\n", total);
    return 0;
}
