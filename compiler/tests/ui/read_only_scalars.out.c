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


static void bump(int *p) { *p += 1; }


__CAPE_GENERATED_BEGIN
/* capecc: data of the #pragma omp parallel for at read_only_scalars.c:12 */
struct __cape_data_1 {
    void *x;
    void *n;
    void *scale;
    void *limit;
    void *written;
    void *escaped;
    void *counter;
    void *flag;
    void *alias;
    void *local;
};
static void __cape_fn_1(void *__cape_arg);
static void __cape_combine_3_reduced(void *__cape_inout, const void *__cape_in);
/* capecc: data of the #pragma omp parallel at read_only_scalars.c:19 */
struct __cape_data_2 {
    void *x;
    void *n;
    void *reduced;
    void *last;
};
static void __cape_fn_2(void *__cape_arg);
void kernel(double *x, int n, double scale, int limit)
{
    int written = 0, escaped = 1, reduced = 0, last = 0;
    static int counter;
    volatile int flag = 1;
    int *alias = &escaped;
    double local[4] = {0};
    {
        /* capecc: #pragma omp parallel for at read_only_scalars.c:12 */
        {
            /* the shared objects the region uses, named in the runtime's reports */
            const struct __cape_object __cape_objects_1[] = {
            { (const void *)&x, sizeof x, { 0, 0, 0 }, sizeof *(x), "x", "double *x", "read_only_scalars.c:5" },
            { (const void *)&n, sizeof n, { 0, 0, 0 }, 0, "n", "int n", "read_only_scalars.c:5" },
            { (const void *)&scale, sizeof scale, { 0, 0, 0 }, 0, "scale", "double scale", "read_only_scalars.c:5" },
            { (const void *)&limit, sizeof limit, { 0, 0, 0 }, 0, "limit", "int limit", "read_only_scalars.c:5" },
            { (const void *)&written, sizeof written, { 0, 0, 0 }, 0, "written", "int written", "read_only_scalars.c:7" },
            { (const void *)&escaped, sizeof escaped, { 0, 0, 0 }, 0, "escaped", "int escaped", "read_only_scalars.c:7" },
            { (const void *)&counter, sizeof counter, { 0, 0, 0 }, 0, "counter", "int counter", "read_only_scalars.c:8" },
            { (const void *)&flag, sizeof flag, { 0, 0, 0 }, 0, "flag", "volatile int flag", "read_only_scalars.c:9" },
            { (const void *)&alias, sizeof alias, { 0, 0, 0 }, sizeof *(alias), "alias", "int *alias", "read_only_scalars.c:10" },
            { (const void *)&local, sizeof local, { sizeof (local)[0], 0, 0 }, 0, "local", "double local[4]", "read_only_scalars.c:11" },
            };
            __cape_region_objects("parallel for at read_only_scalars.c:12", __cape_objects_1, 10);
        }
        struct __cape_data_1 __cape_data = {
            .x = (void *)&x,
            .n = (void *)&n,
            .scale = (void *)&scale,
            .limit = (void *)&limit,
            .written = (void *)&written,
            .escaped = (void *)&escaped,
            .counter = (void *)&counter,
            .flag = (void *)&flag,
            .alias = (void *)&alias,
            .local = (void *)&local,
        };
        __cape_parallel(__cape_fn_1, &__cape_data, 0, 1,
                        __CAPE_STACK_POINTER());
    }
    {
        /* capecc: #pragma omp parallel at read_only_scalars.c:19 */
        {
            /* the shared objects the region uses, named in the runtime's reports */
            const struct __cape_object __cape_objects_2[] = {
            { (const void *)&x, sizeof x, { 0, 0, 0 }, sizeof *(x), "x", "double *x", "read_only_scalars.c:5" },
            { (const void *)&n, sizeof n, { 0, 0, 0 }, 0, "n", "int n", "read_only_scalars.c:5" },
            { (const void *)&reduced, sizeof reduced, { 0, 0, 0 }, 0, "reduced", "int reduced", "read_only_scalars.c:7" },
            { (const void *)&last, sizeof last, { 0, 0, 0 }, 0, "last", "int last", "read_only_scalars.c:7" },
            { (const void *)&escaped, sizeof escaped, { 0, 0, 0 }, 0, "escaped", "int escaped", "read_only_scalars.c:7" },
            { (const void *)&local, sizeof local, { sizeof (local)[0], 0, 0 }, 0, "local", "double local[4]", "read_only_scalars.c:11" },
            };
            __cape_region_objects("parallel at read_only_scalars.c:19", __cape_objects_2, 6);
        }
        struct __cape_data_2 __cape_data = {
            .x = (void *)&x,
            .n = (void *)&n,
            .reduced = (void *)&reduced,
            .last = (void *)&last,
        };
        /* what the region may write */
        const struct __cape_span __cape_scope_2[] = {
            { (const void *)&reduced, sizeof reduced },
            { (const void *)&last, sizeof last },
            { (const void *)x, 0 },
        };
        __cape_parallel_in_scope(__cape_fn_2, &__cape_data, 0, 1,
                                 __CAPE_STACK_POINTER(), __cape_scope_2, 3);
    }
}
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpragmas"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wsign-conversion"

/* capecc: #pragma omp parallel for at read_only_scalars.c:12 */
static void __cape_fn_1(void *__cape_arg)
{
    struct __cape_data_1 *__cape_d = (struct __cape_data_1 *)__cape_arg;
    double *(*__cape_shared_x) = __cape_d->x;
    __typeof__(*__cape_shared_x) __cape_value_x = *__cape_shared_x; /* the region only reads it */
    int (*__cape_shared_n) = __cape_d->n;
    __typeof__(*__cape_shared_n) __cape_value_n = *__cape_shared_n; /* the region only reads it */
    double (*__cape_shared_scale) = __cape_d->scale;
    __typeof__(*__cape_shared_scale) __cape_value_scale = *__cape_shared_scale; /* the region only reads it */
    int (*__cape_shared_limit) = __cape_d->limit;
    __typeof__(*__cape_shared_limit) __cape_value_limit = *__cape_shared_limit; /* the region only reads it */
    int (*__cape_shared_written) = __cape_d->written;
    int (*__cape_shared_escaped) = __cape_d->escaped;
    int (*__cape_shared_counter) = __cape_d->counter;
    volatile int (*__cape_shared_flag) = __cape_d->flag;
    int *(*__cape_shared_alias) = __cape_d->alias;
    __typeof__(*__cape_shared_alias) __cape_value_alias = *__cape_shared_alias; /* the region only reads it */
    double (*__cape_shared_local)[4] = __cape_d->local;
    { /* capecc: #pragma omp parallel for at read_only_scalars.c:12 */
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
                {
                    __cape_value_x[i] = __cape_value_x[i] * __cape_value_scale + (*__cape_shared_escaped) + (*__cape_shared_counter) + (*__cape_shared_flag) + (*__cape_shared_local)[i % 4];
                    if (i == __cape_value_limit)
                        (*__cape_shared_written) = i;
                    bump(__cape_value_alias);
                }
            }
        __cape_loop_end(&__cape_l, 1);
    }

}

/* capecc: reduction(+: reduced) of the #pragma omp for at read_only_scalars.c:21 */
static void __cape_combine_3_reduced(void *__cape_inout, const void *__cape_in)
{
    int (*__cape_a) = __cape_inout;
    int (*__cape_b) = (void *)__cape_in;
    *__cape_a = *__cape_a + *__cape_b;
}

/* capecc: #pragma omp parallel at read_only_scalars.c:19 */
static void __cape_fn_2(void *__cape_arg)
{
    struct __cape_data_2 *__cape_d = (struct __cape_data_2 *)__cape_arg;
    double *(*__cape_shared_x) = __cape_d->x;
    __typeof__(*__cape_shared_x) __cape_value_x = *__cape_shared_x; /* the region only reads it */
    int (*__cape_shared_n) = __cape_d->n;
    __typeof__(*__cape_shared_n) __cape_value_n = *__cape_shared_n; /* the region only reads it */
    int (*__cape_shared_reduced) = __cape_d->reduced;
    int (*__cape_shared_last) = __cape_d->last;
    {
        { /* capecc: #pragma omp for at read_only_scalars.c:21 */
            __typeof__((*__cape_shared_reduced)) *__cape_orig_reduced = &(*__cape_shared_reduced);
            __typeof__((*__cape_shared_last)) *__cape_orig_last = &(*__cape_shared_last);
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
            __CAPE_COPY_BEGIN __typeof__(*__cape_orig_reduced) reduced __attribute__((unused)) = 0; __CAPE_COPY_END
            __CAPE_COPY_BEGIN __typeof__(*__cape_orig_last) last __attribute__((unused)); __CAPE_COPY_END
            __cape_loop_init(&__cape_l, __cape_n, CAPE_SCHED_STATIC, 0);
            if (__cape_loop_next(&__cape_l, &__cape_lo, &__cape_hi))
                for (__cape_k = __cape_lo, __cape_end = __cape_hi,
                     i = (__typeof__(i))((unsigned long long)__cape_lb0
                                                 + __cape_lo * (unsigned long long)__cape_step0);
                     __cape_k < __cape_end;
                     __cape_k++, i += (__typeof__(i - i))__cape_step0) {
                    {
                        reduced += i;
                        last = i;
                    }
                }
            if (__cape_loop_is_last(&__cape_l)) {
                __CAPE_CLAUSE_COPY(__cape_orig_last, &last, sizeof last);
            }
            { /* a copy's address goes to the runtime: the private copy's never escapes, so the
                 backend keeps it in a register across the loop (stores through pointers of its type
                 cannot be taken for stores to it) */
                __typeof__(reduced) __cape_partial_reduced = reduced;
                __cape_reduce((void *)__cape_orig_reduced, (const void *)&__cape_partial_reduced, sizeof reduced, __cape_combine_3_reduced);
            }
            __cape_loop_end(&__cape_l, 0);
        }
        __cape_value_x[0] += (*__cape_shared_reduced) + (*__cape_shared_last) + __cape_value_n;
    }
}
#pragma GCC diagnostic pop
#pragma GCC diagnostic pop


__CAPE_GENERATED_BEGIN
#pragma GCC diagnostic pop
