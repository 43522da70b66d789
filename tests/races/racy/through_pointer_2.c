/* through a pointer: p aliases a shifted by one.
 * expect: race on a at line 13 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
double a[200 + 1];
int main(void)
{
    double *p = a + 1;
    for (int i = 0; i <= 200; i++) a[i] = i;
#pragma omp parallel for
    for (int i = 0; i < 200; i++)
        p[i] = a[i] + 1;
    printf("%g\n", a[200]);
    return 0;
}
