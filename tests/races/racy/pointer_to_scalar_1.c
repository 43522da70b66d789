/* a pointer to a shared scalar updated in the loop.
 * expect: race on total at line 12 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
int main(void)
{
    int total = 0;
    int *q = &total;
#pragma omp parallel for
    for (int i = 0; i < 64; i++)
        *q += i;
    printf("%d\n", total);
    return 0;
}
