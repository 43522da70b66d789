/* off by one: each iteration also writes the next element.
 * expect: race on a at line 12 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
double a[200 + 1];
int main(void)
{
#pragma omp parallel for
    for (int i = 0; i < 200; i++) {
        a[i] = i;
        a[i + 1] = i + 1;
    }
    printf("%g\n", a[200/2]);
    return 0;
}
