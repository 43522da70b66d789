/* every thread waits on a flag that no thread sets: capecc's user-level threads all spin on
   unchanged values, so the job stops with a clear error naming the loop, never hangs */
// expect-runtime-error: flush_wait_forever.c:16 (`go == 0`) has waited
#include <omp.h>
#include <stdio.h>

int go;
int done;

int main(void)
{
#pragma omp parallel
    {
        if (omp_get_thread_num() > 0) {
            /* waits for thread 0, which waits at the barrier below instead */
            while (go == 0) {
#pragma omp flush(go)
            }
        }
#pragma omp barrier
        go = 1;
    }
    printf("%d\n", done);
    return 0;
}
