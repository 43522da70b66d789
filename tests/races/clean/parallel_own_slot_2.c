/* parallel region: each thread its own slot.
 * expect: no race */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
double slot[16];
int main(void)
{
#pragma omp parallel
    {
        int t = omp_get_thread_num();
        slot[t] = t * 10;
    }
    printf("%g\n", slot[0]);
    return 0;
}
