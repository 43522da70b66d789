/* histogram with atomic updates.
 * expect: no race */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
int data[64];
int hist[8];
int main(void)
{
    for (int i = 0; i < 64; i++) data[i] = (i * 7) % 8;
#pragma omp parallel for
    for (int i = 0; i < 64; i++) {
#pragma omp atomic
        hist[data[i]] += 1;
    }
    printf("%d\n", hist[3]);
    return 0;
}
