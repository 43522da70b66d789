/* master, a barrier, then everyone reads.
 * expect: no race */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
double setting;
double copy[16];
int main(void)
{
#pragma omp parallel
    {
#pragma omp master
        setting = 42;
#pragma omp barrier
        copy[omp_get_thread_num()] = setting;
    }
    printf("%g %g\n", setting, copy[0]);
    return 0;
}
