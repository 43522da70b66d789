/* through a pointer: p aliases a shifted by one.
 * expect: race on a at line 13 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
int a[64 + 1];
int main(void)
{
    int *p = a + 1;
    for (int i = 0; i <= 64; i++) a[i] = i;
#pragma omp parallel for
    for (int i = 0; i < 64; i++)
        p[i] = a[i] + 1;
    printf("%d\n", a[64]);
    return 0;
}
