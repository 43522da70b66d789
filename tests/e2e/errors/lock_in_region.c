/* a lock set inside a parallel region through a function pointer: the compiler cannot tell
   that the call sets a lock, so the stores made while it is held are not followed: a clear
   runtime error, not a wrong answer (a set and unset by name in different blocks, or in
   helper functions, work: progs/lock_helpers.c) */
// expect-runtime-error: omp_set_lock
#include <omp.h>
#include <stdio.h>

int total;
void (*set_lock)(omp_lock_t *) = omp_set_lock;

int main(void)
{
    omp_lock_t lock;
    omp_init_lock(&lock);
#pragma omp parallel
    {
        set_lock(&lock);
        total += 1;
        omp_unset_lock(&lock);
    }
    omp_destroy_lock(&lock);
    printf("%d\n", total);
    return 0;
}
