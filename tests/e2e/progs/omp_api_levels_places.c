/* e2e: per-thread-count (the sequential build has no omp_* routines)
 * The OpenMP 3.0-4.5 routines for nesting levels, affinity, cancellation, task priorities and
 * lock hints: declared by omp.h and answering as libgomp does without OMP_PROC_BIND,
 * OMP_PLACES, OMP_CANCELLATION and OMP_MAX_TASK_PRIORITY. (The lock-hint initialisers are
 * declared by gcc's omp.h but libgomp 12 does not export them, so the reference could not
 * link them: not called here.) */
#include <omp.h>
#include <stdio.h>

static long total;

int main(void)
{
    printf("max active levels %d\n", omp_get_max_active_levels());
    omp_set_max_active_levels(3);
    printf("after set 3: %d nested %d\n", omp_get_max_active_levels(), omp_get_nested());
    omp_set_max_active_levels(-1);
    printf("after set -1: %d\n", omp_get_max_active_levels());
    omp_set_max_active_levels(1);
    printf("after set 1: %d nested %d\n", omp_get_max_active_levels(), omp_get_nested());
    printf("cancellation %d proc_bind %d places %d place %d partition %d priority %d\n",
           omp_get_cancellation(), (int)omp_get_proc_bind(), omp_get_num_places(),
           omp_get_place_num(), omp_get_partition_num_places(), omp_get_max_task_priority());
    omp_proc_bind_t bind = omp_proc_bind_spread;
    omp_lock_t lock;
    omp_nest_lock_t nest;
    omp_sync_hint_t hint = omp_sync_hint_contended;
    omp_init_lock(&lock);
    omp_init_nest_lock(&nest);
#pragma omp parallel for
    for (int i = 0; i < 100; i++) {
        omp_set_lock(&lock);
        total += i;
        omp_unset_lock(&lock);
    }
    omp_destroy_nest_lock(&nest);
    omp_destroy_lock(&lock);
    printf("total %ld spread %d hint %d\n", total, (int)bind, (int)hint);
    return 0;
}
