/* omp.h -- the OpenMP runtime API as provided by capert, the CAPE runtime.
 *
 * Programs built with capecc run as MPI processes: a "thread" of an OpenMP
 * team is an MPI rank.  omp_get_thread_num() is the rank's number within the
 * team inside a parallel region and 0 outside; omp_get_num_threads() is the
 * team size inside a region and 1 outside.
 *
 * This header must stay plain C11 (the capecc parser reads it): no attributes
 * between `struct` and its tag.
 */
#ifndef CAPE_OMP_H
#define CAPE_OMP_H

#ifdef __cplusplus
extern "C" {
#endif

/* Simple lock.  Opaque: use only through the omp_*_lock functions. */
typedef struct omp_lock_t {
    unsigned long long __cape_opaque[2];
} omp_lock_t;

/* Nestable lock.  Opaque: use only through the omp_*_nest_lock functions. */
typedef struct omp_nest_lock_t {
    unsigned long long __cape_opaque[4];
} omp_nest_lock_t;

/* Loop schedule kinds, numbered as in the OpenMP specification; the modifier bit is
   libgomp's 0x80000000 (spelled as the `int` of those bits, which ISO C allows). */
typedef enum omp_sched_t {
    omp_sched_static = 1,
    omp_sched_dynamic = 2,
    omp_sched_guided = 3,
    omp_sched_auto = 4,
    omp_sched_monotonic = -0x7fffffff - 1
} omp_sched_t;

/* Thread affinity (threads are not bound: omp_get_proc_bind() is omp_proc_bind_false). */
typedef enum omp_proc_bind_t {
    omp_proc_bind_false = 0,
    omp_proc_bind_true = 1,
    omp_proc_bind_primary = 2,
    omp_proc_bind_master = 2,
    omp_proc_bind_close = 3,
    omp_proc_bind_spread = 4
} omp_proc_bind_t;

/* Lock hints (accepted; every lock is the same). */
typedef enum omp_sync_hint_t {
    omp_sync_hint_none = 0,
    omp_lock_hint_none = 0,
    omp_sync_hint_uncontended = 1,
    omp_lock_hint_uncontended = 1,
    omp_sync_hint_contended = 2,
    omp_lock_hint_contended = 2,
    omp_sync_hint_nonspeculative = 4,
    omp_lock_hint_nonspeculative = 4,
    omp_sync_hint_speculative = 8,
    omp_lock_hint_speculative = 8
} omp_sync_hint_t;
typedef omp_sync_hint_t omp_lock_hint_t;

/* Teams and threads */
extern void omp_set_num_threads(int num_threads);
extern int omp_get_num_threads(void);
extern int omp_get_max_threads(void);
extern int omp_get_thread_num(void);
extern int omp_get_num_procs(void);
extern int omp_in_parallel(void);
extern void omp_set_dynamic(int dynamic_threads);
extern int omp_get_dynamic(void);
extern void omp_set_nested(int nested);
extern int omp_get_nested(void);
extern void omp_set_schedule(omp_sched_t kind, int chunk_size);
extern void omp_get_schedule(omp_sched_t *kind, int *chunk_size);
extern int omp_get_thread_limit(void);
extern int omp_get_level(void);
extern int omp_get_active_level(void);
extern int omp_get_ancestor_thread_num(int level);
extern int omp_get_team_size(int level);
extern int omp_in_final(void);
extern void omp_set_max_active_levels(int max_levels);
extern int omp_get_max_active_levels(void);
extern int omp_get_supported_active_levels(void);
extern int omp_get_cancellation(void);
extern omp_proc_bind_t omp_get_proc_bind(void);
extern int omp_get_num_places(void);
extern int omp_get_place_num_procs(int place_num);
extern void omp_get_place_proc_ids(int place_num, int *ids);
extern int omp_get_place_num(void);
extern int omp_get_partition_num_places(void);
extern void omp_get_partition_place_nums(int *place_nums);
extern int omp_get_max_task_priority(void);

/* Locks */
extern void omp_init_lock(omp_lock_t *lock);
extern void omp_destroy_lock(omp_lock_t *lock);
extern void omp_set_lock(omp_lock_t *lock);
extern void omp_unset_lock(omp_lock_t *lock);
extern int omp_test_lock(omp_lock_t *lock);
extern void omp_init_nest_lock(omp_nest_lock_t *lock);
extern void omp_destroy_nest_lock(omp_nest_lock_t *lock);
extern void omp_set_nest_lock(omp_nest_lock_t *lock);
extern void omp_unset_nest_lock(omp_nest_lock_t *lock);
extern int omp_test_nest_lock(omp_nest_lock_t *lock);
extern void omp_init_lock_with_hint(omp_lock_t *lock, omp_sync_hint_t hint);
extern void omp_init_nest_lock_with_hint(omp_nest_lock_t *lock, omp_sync_hint_t hint);

/* Devices: the host is the only one (target regions run on the encountering
 * thread), and a teams construct makes a league of one team. */
extern int omp_get_num_devices(void);
extern int omp_get_default_device(void);
extern void omp_set_default_device(int device_num);
extern int omp_get_initial_device(void);
extern int omp_get_device_num(void);
extern int omp_is_initial_device(void);
extern int omp_get_num_teams(void);
extern int omp_get_team_num(void);

/* Timing */
extern double omp_get_wtime(void);
extern double omp_get_wtick(void);

#ifdef __cplusplus
}
#endif

#endif /* CAPE_OMP_H */
