/* the lock API inside a parallel region cannot be reproduced by processes: a clear
   runtime error (not a wrong answer) */
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
        total += 1;
        omp_unset_lock(&lock);
    }
    omp_destroy_lock(&lock);
    printf("%d\n", total);
    return 0;
}
