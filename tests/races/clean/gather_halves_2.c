/* each output element from two inputs.
 * expect: no race */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
double src[200], half[200 / 2];
int main(void)
{
    for (int i = 0; i < 200; i++) src[i] = i;
#pragma omp parallel for schedule(static, 1)
    for (int i = 0; i < 200 / 2; i++)
        half[i] = src[2 * i] + src[2 * i + 1];
    printf("%g\n", half[1]);
    return 0;
}
