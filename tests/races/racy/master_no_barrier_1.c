/* master without a barrier: the others read its result.
 * expect: race on setting at line 13 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
int setting;
int copy[16];
int main(void)
{
#pragma omp parallel
    {
#pragma omp master
        setting = 42;
        copy[omp_get_thread_num()] = setting;
    }
    printf("%d\n", setting);
    return 0;
}
