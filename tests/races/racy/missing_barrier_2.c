/* missing barrier between writing and reading other threads' slots.
 * expect: race on part at line 13 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
double part[16];
double total[16];
int main(void)
{
#pragma omp parallel
    {
        int t = omp_get_thread_num(), n = omp_get_num_threads();
        part[t] = t + 1;
        total[t] = part[(t + 1) % n];
    }
    printf("%g\n", part[0]);
    return 0;
}
