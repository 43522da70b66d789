/* single nowait: the others read the value without a barrier.
 * expect: race on flag at line 13 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
int flag;
int seen[16];
int main(void)
{
#pragma omp parallel
    {
#pragma omp single nowait
        flag = 7;
        seen[omp_get_thread_num()] = flag;
    }
    printf("%d\n", flag);
    return 0;
}
