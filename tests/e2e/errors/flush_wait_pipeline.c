/* point-to-point synchronisation through a shared flag and `flush` (the NAS LU benchmark's
   pipelined sweeps): under capecc the threads never see each other's flags, so the wait
   cannot end; the job must stop with a clear error naming the loop, never hang */
// expect-runtime-error: flush_wait_pipeline.c:23 (`flag[me - 1] == 0`) has waited
#include <omp.h>
#include <stdio.h>

#define T 64
int flag[T];
double work[T];

int main(void)
{
    for (int i = 0; i < T; i++)
        flag[i] = 0;

#pragma omp parallel
    {
        int me = omp_get_thread_num();
        if (me > 0) {
#pragma omp flush(flag)
            /* wait for the thread before */
            while (flag[me - 1] == 0) {
#pragma omp flush(flag)
            }
        }
        work[me] = me * 2.0;
#pragma omp flush(work)
        flag[me] = 1;
#pragma omp flush(flag)
    }
    printf("%.1f\n", work[1]);
    return 0;
}
