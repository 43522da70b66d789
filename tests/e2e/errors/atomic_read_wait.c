/* waiting for another thread through `atomic read` in a loop: the job stops with a clear
   error naming the loop instead of hanging */
// expect-runtime-error: atomic_read_wait.c:15 (`1`) has waited
#include <omp.h>
#include <stdio.h>

int ready;
int value;

int main(void)
{
#pragma omp parallel
    {
        if (omp_get_thread_num() == 1) {
            while (1) {
                int seen;
#pragma omp atomic read
                seen = ready;
                if (seen)
                    break;
            }
            printf("%d\n", value);
        } else if (omp_get_thread_num() == 0) {
            value = 42;
#pragma omp atomic write
            ready = 1;
        }
    }
    return 0;
}
