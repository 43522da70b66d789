/* master without a barrier: the others read its result.
 * expect: race on setting at line 13 */
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
        copy[omp_get_thread_num()] = setting;
    }
    printf("%g\n", setting);
    return 0;
}
