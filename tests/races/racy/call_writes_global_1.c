/* a function called in the loop updates a global.
 * expect: race on calls at line 10 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
int calls;
int out[64];
static int work(int i)
{
    calls = calls + 1;
    return i * 2;
}
int main(void)
{
#pragma omp parallel for
    for (int i = 0; i < 64; i++)
        out[i] = work(i);
    printf("%d\n", calls);
    return 0;
}
