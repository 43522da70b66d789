/* single (with its barrier) then everyone reads.
 * expect: no race */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
double flag;
double seen[16];
int main(void)
{
#pragma omp parallel
    {
#pragma omp single
        flag = 7;
        seen[omp_get_thread_num()] = flag;
    }
    printf("%g %g\n", flag, seen[0]);
    return 0;
}
