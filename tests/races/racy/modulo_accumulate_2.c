/* accumulating into i % 10.
 * expect: race on acc at line 11 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
double acc[10];
int main(void)
{
#pragma omp parallel for
    for (int i = 0; i < 200; i++)
        acc[i % 10] += i;
    printf("%g\n", acc[3]);
    return 0;
}
