/* reverse over the whole range instead of half.
 * expect: race on r at line 13 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
double r[200];
int main(void)
{
    for (int i = 0; i < 200; i++) r[i] = i;
#pragma omp parallel for
    for (int i = 0; i < 200; i++) {
        double t = r[i];
        r[i] = r[200 - 1 - i];
        r[200 - 1 - i] = t;
    }
    printf("%g\n", r[0]);
    return 0;
}
