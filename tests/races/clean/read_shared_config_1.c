/* every thread reads shared configuration.
 * expect: no race */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
int scale = 3, offs[4] = {1, 2, 3, 4}, out[64];
int main(void)
{
#pragma omp parallel for
    for (int i = 0; i < 64; i++)
        out[i] = scale * i + offs[i % 4];
    printf("%d\n", out[9]);
    return 0;
}
