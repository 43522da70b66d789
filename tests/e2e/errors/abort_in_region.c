/* abort() inside a parallel region ends the job with SIGABRT, not a segmentation fault */
// expect-runtime-error: exited on signal 6 (Aborted)
#include <stdio.h>
#include <stdlib.h>

int values[64];

int main(void)
{
#pragma omp parallel for
    for (int i = 0; i < 64; i++) {
        values[i] = i;
        if (i == 63)
            abort();
    }
    printf("%d\n", values[5]);
    return 0;
}
