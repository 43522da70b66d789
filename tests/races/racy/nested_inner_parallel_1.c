/* nested loops: the inner parallel loop reads the next element.
 * expect: race on c at line 13 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
int c[64 + 1];
int main(void)
{
    for (int i = 0; i <= 64; i++) c[i] = i;
    for (int t = 0; t < 3; t++) {
#pragma omp parallel for
        for (int j = 0; j < 64; j++)
            c[j] += c[j + 1];
    }
    printf("%d\n", c[0]);
    return 0;
}
