/* a waiting loop reached through a function pointer: the compiler cannot see that the
   region waits, so it runs as processes; the wait would never end, and the job stops with
   a clear error naming the loop instead of hanging */
// expect-runtime-error: flush_wait_through_pointer.c:15 (`flag[me - 1] == 0`) has waited
#include <omp.h>
#include <stdio.h>

#define T 64
int flag[T];
double work[T];

static void step(int me)
{
    if (me > 0) {
        while (flag[me - 1] == 0) {
#pragma omp flush(flag)
        }
    }
    work[me] = me * 2.0;
    flag[me] = 1;
#pragma omp flush(flag)
}

void (*volatile step_fn)(int) = step;

int main(void)
{
#pragma omp parallel
    step_fn(omp_get_thread_num());
    printf("%.1f\n", work[1]);
    return 0;
}
