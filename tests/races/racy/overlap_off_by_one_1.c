/* off by one: each iteration also writes the next element.
 * expect: race on a at line 12 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
int a[64 + 1];
int main(void)
{
#pragma omp parallel for
    for (int i = 0; i < 64; i++) {
        a[i] = i;
        a[i + 1] = i + 1;
    }
    printf("%d\n", a[64/2]);
    return 0;
}
