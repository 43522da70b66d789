/* sections: one section reads what the other writes.
 * expect: race on cfg at line 14 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
double cfg = 3, out1, out2;
int main(void)
{
#pragma omp parallel sections
    {
#pragma omp section
        out1 = cfg * 2;
#pragma omp section
        cfg = 10;
    }
    (void)out2;
    printf("%d\n", (int)cfg);
    return 0;
}
