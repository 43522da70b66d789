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
#pragma GCC diagnostic pop
#include <omp.h>
#include <stdio.h>


int flag[64];
double v[64];


__CAPE_GENERATED_BEGIN
static void wait_for(int k)
{
    while (flag[k] == 0) {
    __cape_wait_check("flush_cooperative.c:9", "flag[k] == 0", 2, (const void *const[]){(const void *)&flag, (const void *)&k}, (const __SIZE_TYPE__[]){sizeof flag, sizeof k}); /* capecc: a wait? */
    }
}
#pragma GCC diagnostic pop



__CAPE_GENERATED_BEGIN

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
/* capecc: data of the #pragma omp parallel at flush_cooperative.c:16 */
struct __cape_data_1 {
    char __cape_none;
};
static void __cape_fn_1(void *__cape_arg);
/* capecc: data of the #pragma omp parallel for at flush_cooperative.c:25 */
struct __cape_data_2 {
    char __cape_none;
};
static void __cape_fn_2(void *__cape_arg);
int __cape_user_main(void)
{
    {
        /* capecc: #pragma omp parallel at flush_cooperative.c:16 */
        __cape_region_objects("parallel at flush_cooperative.c:16", (const struct __cape_object *)0, 0);
        struct __cape_data_1 __cape_data = {
            .__cape_none = 0,
        };
        /* its threads wait for each other through shared flags: user-level threads on every rank */
        __cape_parallel_cooperative(__cape_fn_1, &__cape_data, 0, 1,
                                    __CAPE_STACK_POINTER());
    }
    {
        /* capecc: #pragma omp parallel for at flush_cooperative.c:25 */
        __cape_region_objects("parallel for at flush_cooperative.c:25", (const struct __cape_object *)0, 0);
        struct __cape_data_2 __cape_data = {
            .__cape_none = 0,
        };
        /* what the region may write */
        const struct __cape_span __cape_scope_2[] = {
            { (const void *)&v, sizeof v },
        };
        __cape_parallel_in_scope(__cape_fn_2, &__cape_data, 0, 1,
                                 __CAPE_STACK_POINTER(), __cape_scope_2, 1);
    }
    printf("%f\n", v[1]);
    return 0;
}
#pragma GCC diagnostic pop
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpragmas"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wsign-conversion"

/* capecc: #pragma omp parallel at flush_cooperative.c:16 */
static void __cape_fn_1(void *__cape_arg)
{
    struct __cape_data_1 *__cape_d = (struct __cape_data_1 *)__cape_arg;
    (void)__cape_d;
    {
        int me = omp_get_thread_num();
        if (me > 0)
            wait_for(me - 1);
        v[me] = me;
        flag[me] = 1;
    /* capecc: #pragma omp flush: merges happen at barriers */
    }
}

/* capecc: #pragma omp parallel for at flush_cooperative.c:25 */
static void __cape_fn_2(void *__cape_arg)
{
    struct __cape_data_2 *__cape_d = (struct __cape_data_2 *)__cape_arg;
    (void)__cape_d;
    { /* capecc: #pragma omp parallel for at flush_cooperative.c:25 */
        int i;
        __typeof__(i) __cape_lb0 = (0);
        __typeof__(__cape_lb0 + ((64))) __cape_ub0 = (64);
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
                v[i] += 1;
            }
        __cape_loop_end(&__cape_l, 1);
    }

}
#pragma GCC diagnostic pop
#pragma GCC diagnostic pop


__CAPE_GENERATED_BEGIN

/* capecc: the names of this file's shared objects, for the runtime's reports */
__attribute__((constructor)) static void __cape_file_objects(void)
{
    static const struct __cape_object __cape_file_objects_table[] = {
        { (const void *)&flag, sizeof flag, { sizeof (flag)[0], 0, 0 }, 0, "flag", "int flag[64]", "flush_cooperative.c:4" },
        { (const void *)&v, sizeof v, { sizeof (v)[0], 0, 0 }, 0, "v", "double v[64]", "flush_cooperative.c:5" },
    };
    __cape_objects(__cape_file_objects_table, 2);
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
