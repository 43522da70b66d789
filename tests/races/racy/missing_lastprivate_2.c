/* missing lastprivate: the last value kept in a shared variable.
 * expect: race on last at line 13 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
double a[200];
int main(void)
{
    double last = 0;
#pragma omp parallel for
    for (int i = 0; i < 200; i++) {
        a[i] = i * 3;
        last = a[i];
    }
    printf("%g\n", last);
    return 0;
}
