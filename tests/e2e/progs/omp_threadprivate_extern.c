/* threadprivate on `extern` declarations (from a header) followed by the definitions: every
   declaration is the one thread-local object, and copyin copies the master's value */
#include <stdio.h>
#include "omp_threadprivate_extern.h"

int tp_count = 1;
double tp_scale[4] = {0.5, 1.0, 1.5, 2.0};

#define N 240
int got[N];
double scaled[N];

static int bump(int by)
{
    extern int tp_count; /* a block-scope redeclaration names the same object */
    tp_count += by;
    return tp_count;
}

int main(void)
{
    tp_count = 7;
    tp_scale[2] = 3.0;
#pragma omp parallel copyin(tp_count, tp_scale)
    {
#pragma omp for schedule(static)
        for (int i = 0; i < N; i++) {
            got[i] = tp_count * 1000 + i; /* every thread starts from the master's 7 */
            scaled[i] = tp_scale[i % 4] * i;
        }
        tp_count = 0; /* each thread's own copy */
    }
    long done = 0;
#pragma omp parallel
    {
#pragma omp for schedule(static)
        for (int i = 0; i < N; i++)
            bump(1);
        /* the copies kept their counts: together they saw every iteration once */
#pragma omp atomic
        done += tp_count;
    }
    long sum = 0;
    double ssum = 0;
    for (int i = 0; i < N; i++) {
        sum += got[i];
        ssum += scaled[i];
    }
    printf("sum %ld scaled %.1f done %ld\n", sum, ssum, done);
    return 0;
}
