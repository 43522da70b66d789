/* parallel region: thread t reads the slot of thread t+1.
 * expect: race on slot at line 13 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
int slot[17];
int got[16];
int main(void)
{
#pragma omp parallel
    {
        int t = omp_get_thread_num();
        slot[t] = t * 10;
        got[t] = slot[t + 1];
    }
    printf("%d\n", slot[0]);
    return 0;
}
