/* a lock inside a parallel region whose set and unset are not a pair in one block (here the
   set is the body of an `if`) cannot be followed by the compiler: a clear runtime error, not
   a wrong answer */
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
        if (omp_get_thread_num() >= 0)
            omp_set_lock(&lock);
        total += 1;
        omp_unset_lock(&lock);
    }
    omp_destroy_lock(&lock);
    printf("%d\n", total);
    return 0;
}
