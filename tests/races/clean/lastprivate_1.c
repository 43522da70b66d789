/* lastprivate.
 * expect: no race */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
int a[64];
int main(void)
{
    int last = 0;
#pragma omp parallel for lastprivate(last)
    for (int i = 0; i < 64; i++) {
        a[i] = i * 3;
        last = a[i];
    }
    printf("%d\n", last);
    return 0;
}
