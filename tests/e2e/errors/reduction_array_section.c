/* a reduction on an array section is refused at compile time */
#include <stdio.h>

int hist[8];

int main(void)
{
    // expect-error: 9
#pragma omp parallel for reduction(+ : hist[0:8])
    for (int i = 0; i < 1000; i++)
        hist[i % 8] += 1;
    for (int b = 0; b < 8; b++)
        printf("%d\n", hist[b]);
    return 0;
}
