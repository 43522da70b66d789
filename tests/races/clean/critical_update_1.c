/* a shared counter updated in a critical section.
 * expect: no race */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
int total;
int main(void)
{
#pragma omp parallel for
    for (int i = 0; i < 64; i++) {
#pragma omp critical
        total += i;
    }
    printf("%d\n", total);
    return 0;
}
