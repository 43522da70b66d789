/* a pointer to a shared scalar updated in the loop.
 * expect: race on total at line 12 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
int main(void)
{
    double total = 0;
    double *q = &total;
#pragma omp parallel for
    for (int i = 0; i < 200; i++)
        *q += i;
    printf("%g\n", total);
    return 0;
}
