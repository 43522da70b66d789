/* read-write: iteration i reads what iteration i+1 writes.
 * expect: race on a at line 12 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
int a[64];
int main(void)
{
    for (int i = 0; i < 64; i++) a[i] = i;
#pragma omp parallel for
    for (int i = 0; i < 64 - 1; i++)
        a[i] = a[i + 1] + 1;
    printf("%d\n", a[64/2]);
    return 0;
}
