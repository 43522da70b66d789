/* a lock inside a parallel region around anything but mergeable updates (here a test of the
   protected value) cannot be reproduced by processes: a clear runtime error, not a wrong answer */
// expect-runtime-error: omp_set_lock
#include <omp.h>
#include <stdio.h>

int total;

int main(void)
{
    omp_lock_t lock;
    omp_init_lock(&lock);
#pragma omp parallel
    {
        omp_set_lock(&lock);
        if (total < 3)
            total += 1;
        omp_unset_lock(&lock);
    }
    omp_destroy_lock(&lock);
    printf("%d\n", total);
    return 0;
}
