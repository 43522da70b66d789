/* missing lastprivate: the last value kept in a shared variable.
 * expect: race on last at line 13 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
int a[64];
int main(void)
{
    int last = 0;
#pragma omp parallel for
    for (int i = 0; i < 64; i++) {
        a[i] = i * 3;
        last = a[i];
    }
    printf("%d\n", last);
    return 0;
}
