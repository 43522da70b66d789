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
#include <stdio.h>
#include <stdlib.h>

#define N 100


double global_sum;
int g[100];


__CAPE_GENERATED_BEGIN
/* capecc: data of the #pragma omp parallel for at basic.c:12 */
struct __cape_data_1 {
    void *a;
    void *n;
    void *f;
    void *i;
};
static void __cape_fn_1(void *__cape_arg);
static void scale(double *a, int n, double f)
{
    int i;
    {
        /* capecc: #pragma omp parallel for at basic.c:12 */
        {
            /* the shared objects the region uses, named in the runtime's reports */
            const struct __cape_object __cape_objects_1[] = {
            { (const void *)&a, sizeof a, { 0, 0, 0 }, sizeof *(a), "a", "double *a", "basic.c:9" },
            { (const void *)&n, sizeof n, { 0, 0, 0 }, 0, "n", "int n", "basic.c:9" },
            { (const void *)&f, sizeof f, { 0, 0, 0 }, 0, "f", "double f", "basic.c:9" },
            { (const void *)&i, sizeof i, { 0, 0, 0 }, 0, "i", "int i", "basic.c:11" },
            };
            __cape_region_objects("parallel for at basic.c:12", __cape_objects_1, 4);
        }
        struct __cape_data_1 __cape_data = {
            .a = (void *)&a,
            .n = (void *)&n,
            .f = (void *)&f,
            .i = (void *)&i,
        };
        /* what the region may write */
        const struct __cape_span __cape_scope_1[] = {
            { (const void *)a, 0 },
        };
        __cape_parallel_in_scope(__cape_fn_1, &__cape_data, 0, 1,
                                 __CAPE_STACK_POINTER(), __cape_scope_1, 1);
    }
}
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpragmas"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wsign-conversion"

/* capecc: #pragma omp parallel for at basic.c:12 */
static void __cape_fn_1(void *__cape_arg)
{
    struct __cape_data_1 *__cape_d = (struct __cape_data_1 *)__cape_arg;
    double *(*__cape_shared_a) = __cape_d->a;
    __typeof__(*__cape_shared_a) __cape_value_a = *__cape_shared_a; /* the region only reads it */
    int (*__cape_shared_n) = __cape_d->n;
    __typeof__(*__cape_shared_n) __cape_value_n = *__cape_shared_n; /* the region only reads it */
    double (*__cape_shared_f) = __cape_d->f;
    __typeof__(*__cape_shared_f) __cape_value_f = *__cape_shared_f; /* the region only reads it */
    int (*__cape_shared_i) = __cape_d->i;
    { /* capecc: #pragma omp parallel for at basic.c:12 */
        __CAPE_COPY_BEGIN __typeof__((*__cape_shared_i)) i __attribute__((unused)); __CAPE_COPY_END
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
                __cape_value_a[i] *= __cape_value_f;
            }
        __cape_loop_end(&__cape_l, 1);
    }

}
#pragma GCC diagnostic pop
#pragma GCC diagnostic pop



__CAPE_GENERATED_BEGIN

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
static void __cape_combine_3_s(void *__cape_inout, const void *__cape_in);
/* capecc: data of the #pragma omp parallel for at basic.c:25 */
struct __cape_data_2 {
    void *a;
    void *s;
    void *k;
};
static void __cape_fn_2(void *__cape_arg);
int __cape_user_main(int argc, char **argv)
{
    double *a = (__cape_alloc_site("malloc at basic.c:19"), __cape_malloc)(100 * sizeof(double));
    double s = 0.0;
    int k = 3;
    for (int i = 0; i < 100; i++)
        a[i] = i;
    scale(a, 100, 2.0);
    {
        /* capecc: #pragma omp parallel for at basic.c:25 */
        {
            /* the shared objects the region uses, named in the runtime's reports */
            const struct __cape_object __cape_objects_2[] = {
            { (const void *)&a, sizeof a, { 0, 0, 0 }, sizeof *(a), "a", "double *a", "basic.c:19" },
            { (const void *)&s, sizeof s, { 0, 0, 0 }, 0, "s", "double s", "basic.c:20" },
            { (const void *)&k, sizeof k, { 0, 0, 0 }, 0, "k", "int k", "basic.c:21" },
            };
            __cape_region_objects("parallel for at basic.c:25", __cape_objects_2, 3);
        }
        struct __cape_data_2 __cape_data = {
            .a = (void *)&a,
            .s = (void *)&s,
            .k = (void *)&k,
        };
        /* what the region may write */
        const struct __cape_span __cape_scope_2[] = {
            { (const void *)&g, sizeof g },
            { (const void *)&s, sizeof s },
        };
        __cape_parallel_in_scope(__cape_fn_2, &__cape_data, 0, 1,
                                 __CAPE_STACK_POINTER(), __cape_scope_2, 2);
    }
    printf("%f %d\n", s, g[100 - 1]);
    __cape_free(a);
    return 0;
}
#pragma GCC diagnostic pop
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpragmas"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wsign-conversion"

/* capecc: reduction(+: s) of the #pragma omp parallel for at basic.c:25 */
static void __cape_combine_3_s(void *__cape_inout, const void *__cape_in)
{
    double (*__cape_a) = __cape_inout;
    double (*__cape_b) = (void *)__cape_in;
    *__cape_a = *__cape_a + *__cape_b;
}

/* capecc: #pragma omp parallel for at basic.c:25 */
static void __cape_fn_2(void *__cape_arg)
{
    struct __cape_data_2 *__cape_d = (struct __cape_data_2 *)__cape_arg;
    double *(*__cape_shared_a) = __cape_d->a;
    __typeof__(*__cape_shared_a) __cape_value_a = *__cape_shared_a; /* the region only reads it */
    double (*__cape_shared_s) = __cape_d->s;
    int (*__cape_shared_k) = __cape_d->k;
    { /* capecc: #pragma omp parallel for at basic.c:25 */
        __typeof__((*__cape_shared_s)) *__cape_orig_s = &(*__cape_shared_s);
        __typeof__((*__cape_shared_k)) *__cape_orig_k = &(*__cape_shared_k);
        int i;
        __typeof__(i) __cape_lb0 = (0);
        __typeof__(__cape_lb0 + ((100))) __cape_ub0 = (100);
        __typeof__(__cape_ub0) __cape_lbc0 = __cape_lb0;
        long long __cape_step0 = 1;
        unsigned long long __cape_n0 = 0;
        if (__cape_step0 > 0 && __cape_lbc0 < __cape_ub0)
            __cape_n0 = ((unsigned long long)__cape_ub0 - (unsigned long long)__cape_lbc0 - 1)
                       / (unsigned long long)__cape_step0 + 1;
        unsigned long long __cape_n = __cape_n0, __cape_lo, __cape_hi, __cape_end, __cape_k;
        __cape_loop __cape_l;
        __CAPE_COPY_BEGIN __typeof__(*__cape_orig_s) s __attribute__((unused)) = 0; __CAPE_COPY_END
        __CAPE_COPY_BEGIN __typeof__(*__cape_orig_k) k __attribute__((unused)); __CAPE_COPY_END
        __CAPE_CLAUSE_COPY(&k, __cape_orig_k, sizeof k);
        __cape_loop_init(&__cape_l, __cape_n, CAPE_SCHED_STATIC, (long long)(4));
        while (__cape_loop_next(&__cape_l, &__cape_lo, &__cape_hi))
            for (__cape_k = __cape_lo, __cape_end = __cape_hi,
                 i = (__typeof__(i))((unsigned long long)__cape_lb0
                                             + __cape_lo * (unsigned long long)__cape_step0);
                 __cape_k < __cape_end;
                 __cape_k++, i += (__typeof__(i - i))__cape_step0) {
                {
                    if (i % 7 == 0)
                        continue;
                    s += __cape_value_a[i] * k;
                    g[i] = i;
                }
            }
        { /* a copy's address goes to the runtime: the private copy's never escapes, so the
             backend keeps it in a register across the loop (stores through pointers of its type
             cannot be taken for stores to it) */
            __typeof__(s) __cape_partial_s = s;
            __cape_reduce((void *)__cape_orig_s, (const void *)&__cape_partial_s, sizeof s, __cape_combine_3_s);
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
        { (const void *)&global_sum, sizeof global_sum, { 0, 0, 0 }, 0, "global_sum", "double global_sum", "basic.c:6" },
        { (const void *)&g, sizeof g, { sizeof (g)[0], 0, 0 }, 0, "g", "int g[100]", "basic.c:7" },
    };
    __cape_objects(__cape_file_objects_table, 2);
}

/* capecc: the program starts in the runtime, which runs the user's main on every rank */
static int __cape_main_adapter(int argc, char **argv, char **envp)
{
    (void)argc;
    (void)argv;
    (void)envp;
    return __cape_user_main(argc, argv);
}

int main(int argc, char **argv, char **envp)
{
    return __cape_start(argc, argv, envp, __cape_main_adapter);
}
#pragma GCC diagnostic pop
