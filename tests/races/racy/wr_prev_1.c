/* write-read: iteration i reads what iteration i-1 wrote.
 * expect: race on a at line 12 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
int a[64];
int main(void)
{
    a[0] = 1;
#pragma omp parallel for
    for (int i = 1; i < 64; i++)
        a[i] = a[i - 1] * 2 % 1000;
    printf("%d\n", a[64 - 1]);
    return 0;
}
