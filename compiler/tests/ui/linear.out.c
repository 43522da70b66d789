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
int a[10];

__CAPE_GENERATED_BEGIN

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
/* capecc: data of the #pragma omp parallel for at linear.c:6 */
struct __cape_data_1 {
    void *j;
    void *n;
    void *p;
};
static void __cape_fn_1(void *__cape_arg);
/* capecc: data of the #pragma omp parallel at linear.c:12 */
struct __cape_data_2 {
    void *j;
    void *n;
};
static void __cape_fn_2(void *__cape_arg);
int __cape_user_main(void)
{
    int j = 0, n = 10;
    int *p = a;
    {
        /* capecc: #pragma omp parallel for at linear.c:6 */
        {
            /* the shared objects the region uses, named in the runtime's reports */
            const struct __cape_object __cape_objects_1[] = {
            { (const void *)&j, sizeof j, { 0, 0, 0 }, 0, "j", "int j", "linear.c:4" },
            { (const void *)&n, sizeof n, { 0, 0, 0 }, 0, "n", "int n", "linear.c:4" },
            { (const void *)&p, sizeof p, { 0, 0, 0 }, sizeof *(p), "p", "int *p", "linear.c:5" },
            };
            __cape_region_objects("parallel for at linear.c:6", __cape_objects_1, 3);
        }
        struct __cape_data_1 __cape_data = {
            .j = (void *)&j,
            .n = (void *)&n,
            .p = (void *)&p,
        };
        /* what the region may write */
        const struct __cape_span __cape_scope_1[] = {
            { (const void *)&a, sizeof a },
            { (const void *)&j, sizeof j },
            { (const void *)&p, sizeof p },
        };
        __cape_parallel_in_scope(__cape_fn_1, &__cape_data, 0, 1,
                                 __CAPE_STACK_POINTER(), __cape_scope_1, 3);
    }
    {
        /* capecc: #pragma omp parallel at linear.c:12 */
        {
            /* the shared objects the region uses, named in the runtime's reports */
            const struct __cape_object __cape_objects_2[] = {
            { (const void *)&j, sizeof j, { 0, 0, 0 }, 0, "j", "int j", "linear.c:4" },
            { (const void *)&n, sizeof n, { 0, 0, 0 }, 0, "n", "int n", "linear.c:4" },
            };
            __cape_region_objects("parallel at linear.c:12", __cape_objects_2, 2);
        }
        struct __cape_data_2 __cape_data = {
            .j = (void *)&j,
            .n = (void *)&n,
        };
        /* what the region may write */
        const struct __cape_span __cape_scope_2[] = {
            { (const void *)&a, sizeof a },
            { (const void *)&j, sizeof j },
        };
        __cape_parallel_in_scope(__cape_fn_2, &__cape_data, 0, 1,
                                 __CAPE_STACK_POINTER(), __cape_scope_2, 2);
    }
    return j;
}
#pragma GCC diagnostic pop
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpragmas"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wsign-conversion"

/* capecc: #pragma omp parallel for at linear.c:6 */
static void __cape_fn_1(void *__cape_arg)
{
    struct __cape_data_1 *__cape_d = (struct __cape_data_1 *)__cape_arg;
    int (*__cape_shared_j) = __cape_d->j;
    int (*__cape_shared_n) = __cape_d->n;
    __typeof__(*__cape_shared_n) __cape_value_n = *__cape_shared_n; /* the region only reads it */
    int *(*__cape_shared_p) = __cape_d->p;
    { /* capecc: #pragma omp parallel for at linear.c:6 */
        __typeof__((*__cape_shared_j)) *__cape_orig_j = &(*__cape_shared_j);
        __typeof__((*__cape_shared_j)) __cape_lin0_j = *__cape_orig_j, j;
        long long __cape_linstep_j = (long long)(2);
        __cape_rank_barrier(); /* every copy-in before any copy-out of a thread of this rank */
        __typeof__((*__cape_shared_p)) *__cape_orig_p = &(*__cape_shared_p);
        __typeof__((*__cape_shared_p)) __cape_lin0_p = *__cape_orig_p, p;
        long long __cape_linstep_p = (long long)(1);
        __cape_rank_barrier(); /* every copy-in before any copy-out of a thread of this rank */
        int i;
        __typeof__(i) __cape_lb0 = (0);
        __typeof__(__cape_lb0 + ((__cape_value_n))) __cape_ub0 = (__cape_value_n);
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
                j = (__typeof__(j))(__cape_lin0_j + (long long)__cape_k * __cape_linstep_j);
                p = (__typeof__(p))(__cape_lin0_p + (long long)__cape_k * __cape_linstep_p);
                {
                    a[i] = j;
                    j += 2;
                    p++;
                }
            }
        if (__cape_loop_is_last(&__cape_l)) {
            __CAPE_CLAUSE_COPY(__cape_orig_j, &j, sizeof j);
            __CAPE_CLAUSE_COPY(__cape_orig_p, &p, sizeof p);
        }
        __cape_loop_end(&__cape_l, 1);
    }

}

/* capecc: #pragma omp parallel at linear.c:12 */
static void __cape_fn_2(void *__cape_arg)
{
    struct __cape_data_2 *__cape_d = (struct __cape_data_2 *)__cape_arg;
    int (*__cape_shared_j) = __cape_d->j;
    int (*__cape_shared_n) = __cape_d->n;
    {
        { /* capecc: #pragma omp for at linear.c:14 */
            __typeof__((*__cape_shared_j)) *__cape_orig_j = &(*__cape_shared_j);
            __typeof__((*__cape_shared_j)) __cape_lin0_j = *__cape_orig_j, j;
            long long __cape_linstep_j = (long long)((*__cape_shared_n));
            __cape_rank_barrier(); /* every copy-in before any copy-out of a thread of this rank */
            int i;
            __typeof__(i) __cape_lb0 = (0);
            __typeof__(__cape_lb0 + ((10))) __cape_ub0 = (10);
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
                    j = (__typeof__(j))(__cape_lin0_j + (long long)__cape_k * __cape_linstep_j);
                    {
                        a[i] += j;
                        j += (*__cape_shared_n);
                    }
                }
            if (__cape_loop_is_last(&__cape_l)) {
                __CAPE_CLAUSE_COPY(__cape_orig_j, &j, sizeof j);
            }
            __cape_loop_end(&__cape_l, 0);
        }
    }
}
#pragma GCC diagnostic pop
#pragma GCC diagnostic pop


__CAPE_GENERATED_BEGIN

/* capecc: the names of this file's shared objects, for the runtime's reports */
__attribute__((constructor)) static void __cape_file_objects(void)
{
    static const struct __cape_object __cape_file_objects_table[] = {
        { (const void *)&a, sizeof a, { sizeof (a)[0], 0, 0 }, 0, "a", "int a[10]", "linear.c:1" },
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
