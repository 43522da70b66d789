/* abort() in sequential code ends the job with SIGABRT, as the OpenMP program does, not with a
   segmentation fault of the backtrace Open MPI's handler prints (the program runs on capert's
   own stack) */
// expect-runtime-error: exited on signal 6 (Aborted)
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    printf("before abort\n");
    fflush(stdout);
    abort();
}
