/* sections writing different variables.
 * expect: no race */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
int v1, v2, in1 = 3;
int main(void)
{
#pragma omp parallel sections
    {
#pragma omp section
        v1 = in1 * 2;
#pragma omp section
        v2 = in1 + 2;
    }
    printf("%d %d\n", v1, v2);
    return 0;
}
