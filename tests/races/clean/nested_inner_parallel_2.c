/* nested loops: the inner parallel loop writes a second array.
 * expect: no race */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
double c[200 + 1], d[200];
int main(void)
{
    for (int i = 0; i <= 200; i++) c[i] = i;
    for (int t = 0; t < 3; t++) {
#pragma omp parallel for
        for (int j = 0; j < 200; j++)
            d[j] = c[j] + c[j + 1];
        for (int j = 0; j < 200; j++) c[j] = d[j] / 2;
    }
    printf("%g\n", c[0]);
    return 0;
}
