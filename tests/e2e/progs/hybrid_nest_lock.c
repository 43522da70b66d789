/* Nest locks (omp_*_nest_lock) in teams of several threads per rank, of several ranks, and in
 * sequential code: a lock set again by its holder (the depth omp_test_nest_lock returns is
 * printed), an array of nest locks guarding the bins of a histogram with another nest lock
 * taken inside, and locks set and unset in a helper function. Every result is independent of
 * the order in which threads take the locks. */
#include <stdio.h>
#ifdef _OPENMP
#include <omp.h>
#else
typedef int omp_nest_lock_t;
static void omp_init_nest_lock(omp_nest_lock_t *l) { *l = 0; }
static void omp_destroy_nest_lock(omp_nest_lock_t *l) { *l = 0; }
static void omp_set_nest_lock(omp_nest_lock_t *l) { ++*l; }
static void omp_unset_nest_lock(omp_nest_lock_t *l) { --*l; }
static int omp_test_nest_lock(omp_nest_lock_t *l) { return ++*l; }
#endif

#define BINS 16

omp_nest_lock_t bin_lock[BINS], total_lock, outer;
long bins[BINS], squares[BINS];
long total, deepest, helper_sum;
int depth_seen;

static void add_twice(long v)
{
    omp_set_nest_lock(&outer);
    omp_set_nest_lock(&outer);
    helper_sum = helper_sum + v;
    omp_unset_nest_lock(&outer);
    omp_unset_nest_lock(&outer);
}

int main(void)
{
    omp_init_nest_lock(&outer);
    omp_init_nest_lock(&total_lock);
    for (int b = 0; b < BINS; b++)
        omp_init_nest_lock(&bin_lock[b]);

    /* sequential: the depths */
    int again, fresh;
    omp_set_nest_lock(&outer);
    again = omp_test_nest_lock(&outer);
    omp_unset_nest_lock(&outer);
    omp_unset_nest_lock(&outer);
    fresh = omp_test_nest_lock(&outer);
    omp_unset_nest_lock(&outer);
    printf("sequential: %d %d\n", again, fresh);

#pragma omp parallel for num_threads(4) schedule(static, 5)
    for (int i = 0; i < 600; i++) {
        int b = (i * 7) % BINS, d;
        omp_set_nest_lock(&bin_lock[b]);
        bins[b] = bins[b] + i;
        omp_set_nest_lock(&bin_lock[b]);
        squares[b] = squares[b] + (long)i * i;
        d = omp_test_nest_lock(&bin_lock[b]);
        omp_set_nest_lock(&total_lock);
        total = total + i;
        if (d > deepest)
            deepest = d;
        omp_unset_nest_lock(&total_lock);
        omp_unset_nest_lock(&bin_lock[b]);
        omp_unset_nest_lock(&bin_lock[b]);
        omp_unset_nest_lock(&bin_lock[b]);
    }
    for (int b = 0; b < BINS; b++)
        printf("bin %2d: %ld %ld\n", b, bins[b], squares[b]);
    printf("total %ld deepest %ld\n", total, deepest);

    /* the default team */
#pragma omp parallel
    {
#pragma omp for
        for (int i = 0; i < 1000; i++)
            add_twice(i % 17);
        omp_set_nest_lock(&outer);
        if (omp_test_nest_lock(&outer) == 2 && depth_seen < 2)
            depth_seen = 2;
        omp_unset_nest_lock(&outer);
        omp_unset_nest_lock(&outer);
    }
    printf("helper %ld depth %d\n", helper_sum, depth_seen);

    /* free again after the regions */
    printf("after: %d\n", omp_test_nest_lock(&outer));
    omp_unset_nest_lock(&outer);
    for (int b = 0; b < BINS; b++)
        omp_destroy_nest_lock(&bin_lock[b]);
    omp_destroy_nest_lock(&total_lock);
    omp_destroy_nest_lock(&outer);
    return 0;
}
