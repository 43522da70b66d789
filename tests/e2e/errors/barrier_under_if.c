/* a barrier as the unbraced body of an `if` is not a statement (gcc: "may only be used in
   compound statements"); with a condition that differs between threads it would hang */
#include <stdio.h>
#include <omp.h>

int hits;

int main(void)
{
#pragma omp parallel
    {
        if (omp_get_thread_num() == 0)
            // expect-error: 14
#pragma omp barrier
        hits++;
    }
    printf("%d\n", hits);
    return 0;
}
