/* sections: two sections write the same variable.
 * expect: race on shared_v at line 12 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
double shared_v;
int main(void)
{
#pragma omp parallel sections
    {
#pragma omp section
        shared_v = 1;
#pragma omp section
        shared_v = 2;
    }
    printf("%g\n", shared_v > 0 ? 1 : 0);
    return 0;
}
