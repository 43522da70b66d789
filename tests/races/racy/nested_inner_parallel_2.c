/* nested loops: the inner parallel loop reads the next element.
 * expect: race on c at line 13 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
double c[200 + 1];
int main(void)
{
    for (int i = 0; i <= 200; i++) c[i] = i;
    for (int t = 0; t < 3; t++) {
#pragma omp parallel for
        for (int j = 0; j < 200; j++)
            c[j] += c[j + 1];
    }
    printf("%g\n", c[0]);
    return 0;
}
