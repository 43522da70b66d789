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

int total;
static int next_id(void)
{
    static int id;
    return ++(*(__typeof__(&(id)))__cape_store_report((void *)&(id), sizeof(id)));
}

__CAPE_GENERATED_BEGIN

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
/* capecc: data of the #pragma omp parallel at critical_static_local.c:10 */
struct __cape_data_1 {
    char __cape_none;
};
static void __cape_fn_1(void *__cape_arg);
int __cape_user_main(void)
{
    {
        /* capecc: #pragma omp parallel at critical_static_local.c:10 */
        __cape_region_objects("parallel at critical_static_local.c:10", (const struct __cape_object *)0, 0);
        struct __cape_data_1 __cape_data = {
            .__cape_none = 0,
        };
        __cape_parallel(__cape_fn_1, &__cape_data, 0, 1,
                        __CAPE_STACK_POINTER());
    }
    printf("%d\n", total);
    return 0;
}
#pragma GCC diagnostic pop
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpragmas"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wsign-conversion"

/* capecc: #pragma omp parallel at critical_static_local.c:10 */
static void __cape_fn_1(void *__cape_arg)
{
    struct __cape_data_1 *__cape_d = (struct __cape_data_1 *)__cape_arg;
    (void)__cape_d;
    {
        { /* capecc: #pragma omp critical at critical_static_local.c:12: any code, under a lock shared by the ranks
             (in a team this rank runs alone, the lock word of the name, as libgomp's) */
            extern unsigned int __cape_critical_lock_;
            const int __cape_section_direct = __CAPE_TEAM_DIRECT();
            if (__cape_section_direct)
                __cape_mutex_lock(&__cape_critical_lock_);
            else
                __cape_critical_begin("");
        {
                    int v = next_id();
                    (*(__typeof__(&(total)))__cape_store_report((void *)&(total), sizeof(total)))+= v;
                }
            if (__cape_section_direct)
                __cape_mutex_unlock(&__cape_critical_lock_);
            else
                __cape_critical_end("");
        }
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
        { (const void *)&total, sizeof total, { 0, 0, 0 }, 0, "total", "int total", "critical_static_local.c:2" },
    };
    __cape_objects(__cape_file_objects_table, 1);
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
