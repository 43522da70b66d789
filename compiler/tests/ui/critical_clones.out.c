/* Translated by capecc: OpenMP regions call the capert runtime (capert.h). */

#define __CAPE_GENERATED_BEGIN _Pragma("GCC diagnostic push") \
    _Pragma("GCC diagnostic ignored \"-Wpragmas\"") \
    _Pragma("GCC diagnostic ignored \"-Wcast-qual\"") \
    _Pragma("GCC diagnostic ignored \"-Wmissing-declarations\"") \
    _Pragma("GCC diagnostic ignored \"-Wdeclaration-after-statement\"") \
    _Pragma("GCC diagnostic ignored \"-Wcast-align\"") \
    _Pragma("GCC diagnostic ignored \"-Wswitch-default\"") \
    _Pragma("GCC diagnostic ignored \"-Wdouble-promotion\"") \
    _Pragma("GCC diagnostic ignored \"-Wunused-macros\"") \
    _Pragma("GCC diagnostic ignored \"-Wredundant-decls\"") \
    _Pragma("GCC diagnostic ignored \"-Wnested-externs\"")
__CAPE_GENERATED_BEGIN
#include <capert.h>
int omp_get_thread_num(void);
/* The copies of data-sharing clauses (firstprivate in, lastprivate out); a check build
   (`--check=races`) makes them with a copy its race detector does not see: OpenMP orders them
   itself. */
#ifdef __CAPE_CHECK_BUILD
void *__cape_unchecked_copy(void *__cape_to, const void *__cape_from, unsigned long __cape_n);
#define __CAPE_CLAUSE_COPY __cape_unchecked_copy
#else
#define __CAPE_CLAUSE_COPY __builtin_memcpy
#endif
/* Around the declaration of a private copy, which has the name of the variable it stands for
   (-Wshadow) and may be only written (-Wunused-but-set-variable, silenced by its `unused`
   attribute): warnings the program built by gcc -fopenmp does not have. */
#define __CAPE_COPY_BEGIN _Pragma("GCC diagnostic push") \
    _Pragma("GCC diagnostic ignored \"-Wshadow\"")
#define __CAPE_COPY_END _Pragma("GCC diagnostic pop")
/* 1 while this thread's team is several threads of this rank that no other rank takes part in
   (nothing is merged): `atomic` updates and general `critical` sections are then made here,
   as libgomp makes them, instead of in the runtime. A check build keeps the runtime's path. */
extern int __cape_team_direct;
#ifdef __CAPE_CHECK_BUILD
#define __CAPE_TEAM_DIRECT() 0
#else
#define __CAPE_TEAM_DIRECT() __atomic_load_n(&__cape_team_direct, __ATOMIC_RELAXED)
#endif
/* libgomp's mutex: 0 free, 1 taken, 2 taken with sleepers; the runtime waits and wakes */
static __inline__ __attribute__((unused, always_inline)) void __cape_mutex_lock(unsigned int *__cape_w)
{
    unsigned int __cape_free = 0;
    if (!__atomic_compare_exchange_n(__cape_w, &__cape_free, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
        __cape_mutex_wait(__cape_w);
}
static __inline__ __attribute__((unused, always_inline)) void __cape_mutex_unlock(unsigned int *__cape_w)
{
    if (__atomic_exchange_n(__cape_w, 0, __ATOMIC_RELEASE) == 2)
        __cape_mutex_wake(__cape_w);
}
/* a store inside a general critical section: reported to the runtime, which carries it to the
   other ranks (nothing to carry in a team this rank runs alone) */
static __inline__ __attribute__((unused, always_inline)) void *__cape_store_report(void *__cape_at, __SIZE_TYPE__ __cape_size)
{
    return __CAPE_TEAM_DIRECT() ? __cape_at : __cape_critical_store(__cape_at, __cape_size);
}
#pragma GCC diagnostic pop
#include <stdio.h>
#include <string.h>
#include <omp.h>
struct node { int v; struct node *next; };
struct node nodes[8], *head;
char label[32];
int depth;
omp_lock_t lock;

__CAPE_GENERATED_BEGIN
static void __cape_crit_clone_push(struct node *n);
static void push(struct node *n) { n->next = head; head = n; }
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpragmas"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wsign-conversion"
/* capecc: `push` as called under a cross-rank lock: its stores are reported */
static void __cape_crit_clone_push(struct node *n)
{ (*(__typeof__(&(n->next)))__cape_store_report((void *)&(n->next), sizeof(n->next))) = head; (*(__typeof__(&(head)))__cape_store_report((void *)&(head), sizeof(head)))= n; }
#pragma GCC diagnostic pop
#pragma GCC diagnostic pop


__CAPE_GENERATED_BEGIN
static int __cape_crit_clone_walk(int k);
static int walk(int k) { depth++; return k ? walk(k - 1) : 0; }
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpragmas"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wsign-conversion"
/* capecc: `walk` as called under a cross-rank lock: its stores are reported */
static int __cape_crit_clone_walk(int k)
{ (*(__typeof__(&(depth)))__cape_store_report((void *)&(depth), sizeof(depth)))++; return k ? __cape_crit_clone_walk(k - 1) : 0; }
#pragma GCC diagnostic pop
#pragma GCC diagnostic pop


__CAPE_GENERATED_BEGIN
static void __cape_crit_clone_acquire(void);
static void acquire(void) { omp_set_lock(&lock); }
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpragmas"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wsign-conversion"
/* capecc: `acquire` as called under a cross-rank lock: its stores are reported */
static void __cape_crit_clone_acquire(void)
{ __cape_lock_set((void *)(&lock), 0); }
#pragma GCC diagnostic pop
#pragma GCC diagnostic pop


__CAPE_GENERATED_BEGIN
static void __cape_crit_clone_release(void);
static void release(void) { omp_unset_lock(&lock); }
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpragmas"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wsign-conversion"
/* capecc: `release` as called under a cross-rank lock: its stores are reported */
static void __cape_crit_clone_release(void)
{ __cape_lock_unset((void *)(&lock), 0); }
#pragma GCC diagnostic pop
#pragma GCC diagnostic pop


__CAPE_GENERATED_BEGIN

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
static void __cape_crit_clone_push(struct node *n);
static int __cape_crit_clone_walk(int k);
static void __cape_crit_clone_acquire(void);
static void __cape_crit_clone_release(void);
/* capecc: data of the #pragma omp parallel for at critical_clones.c:16 */
struct __cape_data_1 {
    char __cape_none;
};
static void __cape_fn_1(void *__cape_arg);
int __cape_user_main(void)
{
    omp_init_lock(&lock);
    {
        /* capecc: #pragma omp parallel for at critical_clones.c:16 */
        __cape_region_objects("parallel for at critical_clones.c:16", (const struct __cape_object *)0, 0);
        struct __cape_data_1 __cape_data = {
            .__cape_none = 0,
        };
        __cape_parallel(__cape_fn_1, &__cape_data, 0, 1,
                        __CAPE_STACK_POINTER());
    }
    printf("%d %s\n", depth, label);
    return 0;
}
#pragma GCC diagnostic pop
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpragmas"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wsign-conversion"

/* capecc: #pragma omp parallel for at critical_clones.c:16 */
static void __cape_fn_1(void *__cape_arg)
{
    struct __cape_data_1 *__cape_d = (struct __cape_data_1 *)__cape_arg;
    (void)__cape_d;
    { /* capecc: #pragma omp parallel for at critical_clones.c:16 */
        int i;
        __typeof__(i) __cape_lb0 = (0);
        __typeof__(__cape_lb0 + ((8))) __cape_ub0 = (8);
        __typeof__(__cape_ub0) __cape_lbc0 = __cape_lb0;
        long long __cape_step0 = 1;
        unsigned long long __cape_n0 = 0;
        if (__cape_step0 > 0 && __cape_lbc0 < __cape_ub0)
            __cape_n0 = ((unsigned long long)__cape_ub0 - (unsigned long long)__cape_lbc0 - 1)
                       / (unsigned long long)__cape_step0 + 1;
        unsigned long long __cape_n = __cape_n0, __cape_lo, __cape_hi, __cape_end, __cape_k;
        __cape_loop __cape_l;
        __cape_loop_init(&__cape_l, __cape_n, CAPE_SCHED_STATIC, 0);
        if (__cape_loop_next(&__cape_l, &__cape_lo, &__cape_hi))
            for (__cape_k = __cape_lo, __cape_end = __cape_hi,
                 i = (__typeof__(i))((unsigned long long)__cape_lb0
                                             + __cape_lo * (unsigned long long)__cape_step0);
                 __cape_k < __cape_end;
                 __cape_k++, i += (__typeof__(i - i))__cape_step0) {
                {
                    { /* capecc: #pragma omp critical at critical_clones.c:18: any code, under a lock shared by the ranks
                         (in a team this rank runs alone, the lock word of the name, as libgomp's) */
                        extern unsigned int __cape_critical_lock_;
                        const int __cape_section_direct = __CAPE_TEAM_DIRECT();
                        if (__cape_section_direct)
                            __cape_mutex_lock(&__cape_critical_lock_);
                        else
                            __cape_critical_begin("");
                    {
                                __cape_crit_clone_push(&nodes[i]);
                                __cape_crit_clone_walk(i);
                                ({ __auto_type __cape_a2_0 = (label); __auto_type __cape_a2_1 = ("node"); __auto_type __cape_r2 = strcpy(__cape_a2_0, __cape_a2_1); if (1) __cape_critical_store((void *)(__cape_a2_0), (size_t)(__builtin_strlen((const char *)__cape_a2_0) + 1)); __cape_r2; });
                            }
                        if (__cape_section_direct)
                            __cape_mutex_unlock(&__cape_critical_lock_);
                        else
                            __cape_critical_end("");
                    }
                    /* capecc: a lock set and unset in different statements at critical_clones.c:24: stores reported */
    __cape_crit_clone_acquire();
                    (*(__typeof__(&(nodes[i].v)))__cape_store_report((void *)&(nodes[i].v), sizeof(nodes[i].v))) = i;
                    __cape_crit_clone_release();
                }
            }
        __cape_loop_end(&__cape_l, 1);
    }

}
#pragma GCC diagnostic pop
#pragma GCC diagnostic pop


__CAPE_GENERATED_BEGIN
/* capecc: this file has critical sections under locks shared by the ranks */
static void __attribute__((constructor)) __cape_critical_used_here(void) { __cape_critical_used(); }
/* capecc: the lock word of `critical` sections named "" in teams of one rank, one for
   the program (weak: every file that has such a section defines it) */
unsigned int __cape_critical_lock_ __attribute__((weak));

/* capecc: the names of this file's shared objects, for the runtime's reports */
__attribute__((constructor)) static void __cape_file_objects(void)
{
    static const struct __cape_object __cape_file_objects_table[] = {
        { (const void *)&nodes, sizeof nodes, { sizeof (nodes)[0], 0, 0 }, 0, "nodes", "struct node nodes[8]", "critical_clones.c:5" },
        { (const void *)&head, sizeof head, { 0, 0, 0 }, 0, "head", "struct node *head", "critical_clones.c:5" },
        { (const void *)&label, sizeof label, { sizeof (label)[0], 0, 0 }, 0, "label", "char label[32]", "critical_clones.c:6" },
        { (const void *)&depth, sizeof depth, { 0, 0, 0 }, 0, "depth", "int depth", "critical_clones.c:7" },
        { (const void *)&lock, sizeof lock, { 0, 0, 0 }, 0, "lock", "omp_lock_t lock", "critical_clones.c:8" },
    };
    __cape_objects(__cape_file_objects_table, 5);
}

/* capecc: the program starts in the runtime, which runs the user's main on every rank */
static int __cape_main_adapter(int argc, char **argv, char **envp)
{
    (void)argc;
    (void)argv;
    (void)envp;
    return __cape_user_main();
}

int main(int argc, char **argv, char **envp)
{
    return __cape_start(argc, argv, envp, __cape_main_adapter);
}
#pragma GCC diagnostic pop
