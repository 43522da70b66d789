/* histogram without atomic.
 * expect: race on hist at line 13 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
int data[200];
double hist[8];
int main(void)
{
    for (int i = 0; i < 200; i++) data[i] = (i * 7) % 8;
#pragma omp parallel for
    for (int i = 0; i < 200; i++)
        hist[data[i]] += 1;
    printf("%g\n", hist[3]);
    return 0;
}
