/* private temporary.
 * expect: no race */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
int a[64], b[64];
int main(void)
{
    int tmp;
    for (int i = 0; i < 64; i++) a[i] = i;
#pragma omp parallel for private(tmp)
    for (int i = 0; i < 64; i++) {
        tmp = a[i] * 2;
        b[i] = tmp + 1;
    }
    printf("%d\n", b[3]);
    return 0;
}
