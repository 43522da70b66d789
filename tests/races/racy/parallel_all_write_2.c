/* parallel region: every thread writes the shared result.
 * expect: race on result at line 11 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
double result;
int main(void)
{
#pragma omp parallel
    {
        result = omp_get_thread_num() + 1;
    }
    printf("%d\n", result > 0);
    return 0;
}
