/* omp_set_lock / omp_unset_lock (and the nestable pair) around mergeable updates inside a
   parallel region behave like a critical section: sums, a histogram, a max, a float product
   of powers of two; the same pair in sequential code; locks initialised and destroyed */
#include <stdio.h>
#ifdef _OPENMP
#include <omp.h>
#else
typedef int omp_lock_t, omp_nest_lock_t;
static void omp_init_lock(omp_lock_t *l) { *l = 0; }
static void omp_set_lock(omp_lock_t *l) { *l = 1; }
static void omp_unset_lock(omp_lock_t *l) { *l = 0; }
static void omp_destroy_lock(omp_lock_t *l) { *l = 0; }
#define omp_init_nest_lock omp_init_lock
#define omp_set_nest_lock omp_set_lock
#define omp_unset_nest_lock omp_unset_lock
#define omp_destroy_nest_lock omp_destroy_lock
#endif

#define N 1000
int hist[10];

int main(void)
{
    omp_lock_t lock, hlock;
    omp_nest_lock_t nest;
    long sum = 0;
    int count = 0, best = -1;
    double prod = 1.0;
    omp_init_lock(&lock);
    omp_init_lock(&hlock);
    omp_init_nest_lock(&nest);
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        int v = (i * 37) % 101;
        omp_set_lock(&lock);
        sum += v;
        count++;
        if (v > best)
            best = v;
        omp_unset_lock(&lock);
        omp_set_lock(&hlock);
        hist[v % 10] += 1;
        omp_unset_lock(&hlock);
        if (i % 250 == 0) {
            omp_set_nest_lock(&nest);
            prod *= 2.0;
            omp_unset_nest_lock(&nest);
        }
    }
    omp_set_lock(&lock);
    sum += 1;
    omp_unset_lock(&lock);
    omp_destroy_lock(&lock);
    omp_destroy_lock(&hlock);
    omp_destroy_nest_lock(&nest);
    long h = 0;
    for (int i = 0; i < 10; i++)
        h = h * 1009 + hist[i];
    printf("sum=%ld count=%d best=%d prod=%g h=%ld\n", sum, count, best, prod, h);
    return 0;
}
