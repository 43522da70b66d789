/* a lock pair made only of an update and a lock pair around general code on the same lock
   exclude each other, as every holder of an OpenMP lock does: the counter ends at the number
   of acquisitions (updates merged at the join, apart from the lock, lost some) */
#ifdef _OPENMP
#include <omp.h>
#else
typedef int omp_lock_t;
static void omp_init_lock(omp_lock_t *l) { *l = 0; }
static void omp_set_lock(omp_lock_t *l) { ++*l; }
static void omp_unset_lock(omp_lock_t *l) { --*l; }
static void omp_destroy_lock(omp_lock_t *l) { *l = 0; }
#endif
#include <stdio.h>

long count = 0;
long seen[8];

int main(void)
{
    omp_lock_t lock;
    omp_init_lock(&lock);
#pragma omp parallel for schedule(static)
    for (int i = 0; i < 3000; i++) {
        if (i % 3 == 0) {
            omp_set_lock(&lock);
            count += 1;
            omp_unset_lock(&lock);
        } else {
            omp_set_lock(&lock);
            long c = count;
            seen[c % 8]++;
            count = c + 1;
            omp_unset_lock(&lock);
        }
    }
    omp_destroy_lock(&lock);
    long s = 0;
    for (int k = 0; k < 8; k++)
        s += seen[k];
    printf("count %ld general %ld\n", count, s);
    return 0;
}
