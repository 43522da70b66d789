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
#include <stddef.h>


struct pair { double a, b; };
typedef unsigned long ulong_t;
double total;


__CAPE_GENERATED_BEGIN
/* capecc: data of the #pragma omp parallel for at data_kinds.c:15 */
struct __cape_data_1 {
    void *n;
    void *m;
    void *grid;
    void *out;
    void *calls;
};
static void __cape_fn_1(void *__cape_arg);
static void rows(int n, int m, double grid[n][m], double out[])
{
    static int calls;
    calls++;
    {
        /* capecc: #pragma omp parallel for at data_kinds.c:15 */
        {
            /* the shared objects the region uses, named in the runtime's reports */
            const struct __cape_object __cape_objects_1[] = {
            { (const void *)&n, sizeof n, { 0, 0, 0 }, 0, "n", "int n", "data_kinds.c:11" },
            { (const void *)&m, sizeof m, { 0, 0, 0 }, 0, "m", "int m", "data_kinds.c:11" },
            { (const void *)&grid, sizeof (grid + 0), { 0, 0, 0 }, 0, "grid", "double grid[n][m]", "data_kinds.c:11" },
            { (const void *)&out, sizeof (out + 0), { 0, 0, 0 }, sizeof *(out), "out", "double out[]", "data_kinds.c:11" },
            { (const void *)&calls, sizeof calls, { 0, 0, 0 }, 0, "calls", "int calls", "data_kinds.c:13" },
            };
            __cape_region_objects("parallel for at data_kinds.c:15", __cape_objects_1, 5);
        }
        struct __cape_data_1 __cape_data = {
            .n = (void *)&n,
            .m = (void *)&m,
            .grid = (void *)&grid,
            .out = (void *)&out,
            .calls = (void *)&calls,
        };
        /* what the region may write */
        const struct __cape_span __cape_scope_1[] = {
            { (const void *)out, 0 },
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

/* capecc: #pragma omp parallel for at data_kinds.c:15 */
static void __cape_fn_1(void *__cape_arg)
{
    struct __cape_data_1 *__cape_d = (struct __cape_data_1 *)__cape_arg;
    int (*__cape_shared_n) = __cape_d->n;
    __typeof__(*__cape_shared_n) __cape_value_n = *__cape_shared_n; /* the region only reads it */
    int (*__cape_shared_m) = __cape_d->m;
    __typeof__(*__cape_shared_m) __cape_value_m = *__cape_shared_m; /* the region only reads it */
    double (*(*__cape_shared_grid))[(*__cape_shared_m)] = __cape_d->grid;
    double (*(*__cape_shared_out)) = __cape_d->out;
    int (*__cape_shared_calls) = __cape_d->calls;
    { /* capecc: #pragma omp parallel for at data_kinds.c:15 */
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
                    double acc = 0.0;
                    for (int j = 0; j < __cape_value_m; j++)
                        acc += (*__cape_shared_grid)[i][j];
                    (*__cape_shared_out)[i] = acc + (*__cape_shared_calls);
                }
            }
        __cape_loop_end(&__cape_l, 1);
    }

}
#pragma GCC diagnostic pop
#pragma GCC diagnostic pop



__CAPE_GENERATED_BEGIN

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
/* capecc: data of the #pragma omp parallel for at data_kinds.c:39 */
struct __cape_data_2 {
    void *out;
    void *pr;
    void *tmp;
    void *z;
    void *n;
};
static void __cape_fn_2(void *__cape_arg);
static void __cape_combine_4_total(void *__cape_inout, const void *__cape_in);
/* capecc: data of the #pragma omp parallel for at data_kinds.c:45 */
struct __cape_data_3 {
    void *n;
    void *a;
    void *out;
    void *u;
};
static void __cape_fn_3(void *__cape_arg);
int __cape_user_main(void)
{
    int n = 6;
    double (*a)[n] = (__cape_alloc_site("malloc at data_kinds.c:27"), __cape_malloc)(sizeof(double[n][n]));
    double out[6];
    struct pair pr = { 1.0, 2.0 };
    int tmp[3];
    size_t z;
    ulong_t u;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            a[i][j] = i * j;
    rows(n, n, a, out);
    {
        int n = 3;
        {
            /* capecc: #pragma omp parallel for at data_kinds.c:39 */
            {
                /* the shared objects the region uses, named in the runtime's reports */
                const struct __cape_object __cape_objects_2[] = {
                { (const void *)&out, sizeof out, { sizeof (out)[0], 0, 0 }, 0, "out", "double out[6]", "data_kinds.c:28" },
                { (const void *)&pr, sizeof pr, { 0, 0, 0 }, 0, "pr", "struct pair pr", "data_kinds.c:29" },
                { (const void *)&tmp, sizeof tmp, { sizeof (tmp)[0], 0, 0 }, 0, "tmp", "int tmp[3]", "data_kinds.c:30" },
                { (const void *)&z, sizeof z, { 0, 0, 0 }, 0, "z", "size_t z", "data_kinds.c:31" },
                { (const void *)&n, sizeof n, { 0, 0, 0 }, 0, "n", "int n", "data_kinds.c:38" },
                };
                __cape_region_objects("parallel for at data_kinds.c:39", __cape_objects_2, 5);
            }
            struct __cape_data_2 __cape_data = {
                .out = (void *)&out,
                .pr = (void *)&pr,
                .tmp = (void *)&tmp,
                .z = (void *)&z,
                .n = (void *)&n,
            };
            /* what the region may write */
            const struct __cape_span __cape_scope_2[] = {
                { (const void *)&out, sizeof out },
            };
            __cape_parallel_in_scope(__cape_fn_2, &__cape_data, 0, 1,
                                     __CAPE_STACK_POINTER(), __cape_scope_2, 1);
        }
    }
    {
        /* capecc: #pragma omp parallel for at data_kinds.c:45 */
        {
            /* the shared objects the region uses, named in the runtime's reports */
            const struct __cape_object __cape_objects_3[] = {
            { (const void *)&n, sizeof n, { 0, 0, 0 }, 0, "n", "int n", "data_kinds.c:26" },
            { (const void *)&a, sizeof a, { 0, 0, 0 }, 0, "a", "double (*a)[n]", "data_kinds.c:27" },
            { (const void *)&out, sizeof out, { sizeof (out)[0], 0, 0 }, 0, "out", "double out[6]", "data_kinds.c:28" },
            { (const void *)&u, sizeof u, { 0, 0, 0 }, 0, "u", "ulong_t u", "data_kinds.c:32" },
            { (const void *)&tmp, sizeof tmp, { sizeof (tmp)[0], 0, 0 }, 0, "tmp", "int tmp[3]", "data_kinds.c:30" },
            };
            __cape_region_objects("parallel for at data_kinds.c:45", __cape_objects_3, 5);
        }
        struct __cape_data_3 __cape_data = {
            .n = (void *)&n,
            .a = (void *)&a,
            .out = (void *)&out,
            .u = (void *)&u,
        };
        /* what the region may write */
        const struct __cape_span __cape_scope_3[] = {
            { (const void *)&total, sizeof total },
            { (const void *)&u, sizeof u },
        };
        __cape_parallel_in_scope(__cape_fn_3, &__cape_data, 0, 1,
                                 __CAPE_STACK_POINTER(), __cape_scope_3, 2);
    }
    printf("%f %lu\n", total, (unsigned long)u);
    __cape_free(a);
    return 0;
}
#pragma GCC diagnostic pop
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpragmas"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wsign-conversion"

/* capecc: #pragma omp parallel for at data_kinds.c:39 */
static void __cape_fn_2(void *__cape_arg)
{
    struct __cape_data_2 *__cape_d = (struct __cape_data_2 *)__cape_arg;
    double (*__cape_shared_out)[6] = __cape_d->out;
    struct pair  (*__cape_shared_pr) = __cape_d->pr;
    int (*__cape_shared_tmp)[3] = __cape_d->tmp;
    size_t (*__cape_shared_z) = __cape_d->z;
    int (*__cape_shared_n) = __cape_d->n;
    __typeof__(*__cape_shared_n) __cape_value_n = *__cape_shared_n; /* the region only reads it */
    __CAPE_COPY_BEGIN __typeof__(*__cape_shared_tmp) tmp __attribute__((unused)); __CAPE_COPY_END
    { /* capecc: #pragma omp parallel for at data_kinds.c:39 */
        __typeof__((*__cape_shared_pr)) *__cape_orig_pr = &(*__cape_shared_pr);
        __CAPE_COPY_BEGIN __typeof__((*__cape_shared_z)) z __attribute__((unused)); __CAPE_COPY_END
        __typeof__(z) __cape_lb0 = (0);
        __typeof__(__cape_lb0 + (((size_t)__cape_value_n))) __cape_ub0 = ((size_t)__cape_value_n);
        __typeof__(__cape_ub0) __cape_lbc0 = __cape_lb0;
        long long __cape_step0 = 1;
        unsigned long long __cape_n0 = 0;
        if (__cape_step0 > 0 && __cape_lbc0 < __cape_ub0)
            __cape_n0 = ((unsigned long long)__cape_ub0 - (unsigned long long)__cape_lbc0 - 1)
                       / (unsigned long long)__cape_step0 + 1;
        unsigned long long __cape_n = __cape_n0, __cape_lo, __cape_hi, __cape_end, __cape_k;
        __cape_loop __cape_l;
        __CAPE_COPY_BEGIN __typeof__(*__cape_orig_pr) pr __attribute__((unused)); __CAPE_COPY_END
        __CAPE_CLAUSE_COPY(&pr, __cape_orig_pr, sizeof pr);
        __cape_loop_init(&__cape_l, __cape_n, CAPE_SCHED_STATIC, 0);
        if (__cape_loop_next(&__cape_l, &__cape_lo, &__cape_hi))
            for (__cape_k = __cape_lo, __cape_end = __cape_hi,
                 z = (__typeof__(z))((unsigned long long)__cape_lb0
                                             + __cape_lo * (unsigned long long)__cape_step0);
                 __cape_k < __cape_end;
                 __cape_k++, z += (__typeof__(z - z))__cape_step0) {
                {
                    tmp[0] = (int)z;
                    (*__cape_shared_out)[z] += pr.a * tmp[0];
                }
            }
        __cape_loop_end(&__cape_l, 1);
    }

}

/* capecc: reduction(+: total) of the #pragma omp parallel for at data_kinds.c:45 */
static void __cape_combine_4_total(void *__cape_inout, const void *__cape_in)
{
    __typeof__(total) *__cape_a = __cape_inout;
    __typeof__(total) *__cape_b = (void *)__cape_in;
    *__cape_a = *__cape_a + *__cape_b;
}

/* capecc: #pragma omp parallel for at data_kinds.c:45 */
static void __cape_fn_3(void *__cape_arg)
{
    struct __cape_data_3 *__cape_d = (struct __cape_data_3 *)__cape_arg;
    int (*__cape_shared_n) = __cape_d->n;
    double (*(*__cape_shared_a))[(*__cape_shared_n)] = __cape_d->a;
    __typeof__(*__cape_shared_a) __cape_value_a = *__cape_shared_a; /* the region only reads it */
    double (*__cape_shared_out)[6] = __cape_d->out;
    ulong_t (*__cape_shared_u) = __cape_d->u;
    { /* capecc: #pragma omp parallel for at data_kinds.c:45 */
        __typeof__(total) *__cape_orig_total = &total;
        __typeof__((*__cape_shared_u)) *__cape_orig_u = &(*__cape_shared_u);
        __CAPE_COPY_BEGIN __typeof__(*__cape_orig_u) u __attribute__((unused)); __CAPE_COPY_END
        __typeof__(u) __cape_lb0 = (10);
        __typeof__(__cape_lb0 + ((0))) __cape_ub0 = (0);
        __typeof__(__cape_ub0) __cape_lbc0 = __cape_lb0;
        long long __cape_step0 = -(long long)(2);
        unsigned long long __cape_n0 = 0;
        if (__cape_step0 < 0 && __cape_lbc0 > __cape_ub0)
            __cape_n0 = ((unsigned long long)__cape_lbc0 - (unsigned long long)__cape_ub0 - 1)
                       / (unsigned long long)-__cape_step0 + 1;
        unsigned long long __cape_n = __cape_n0, __cape_lo, __cape_hi, __cape_end, __cape_k;
        __cape_loop __cape_l;
        __CAPE_COPY_BEGIN __typeof__(*__cape_orig_total) total __attribute__((unused)) = 0; __CAPE_COPY_END
        __cape_loop_init(&__cape_l, __cape_n, CAPE_SCHED_STATIC, 0);
        if (__cape_loop_next(&__cape_l, &__cape_lo, &__cape_hi))
            for (__cape_k = __cape_lo, __cape_end = __cape_hi,
                 u = (__typeof__(u))((unsigned long long)__cape_lb0
                                             + __cape_lo * (unsigned long long)__cape_step0);
                 __cape_k < __cape_end;
                 __cape_k++, u += (__typeof__(u - u))__cape_step0) {
                total += __cape_value_a[u % 6][0] + (*__cape_shared_out)[u % 6];
            }
        if (__cape_loop_is_last(&__cape_l)) {
            u = (__typeof__(u))((unsigned long long)__cape_lb0 + __cape_n0 * (unsigned long long)__cape_step0);
            __CAPE_CLAUSE_COPY(__cape_orig_u, &u, sizeof u);
        }
        { /* a copy's address goes to the runtime: the private copy's never escapes, so the
             backend keeps it in a register across the loop (stores through pointers of its type
             cannot be taken for stores to it) */
            __typeof__(total) __cape_partial_total = total;
            __cape_reduce((void *)__cape_orig_total, (const void *)&__cape_partial_total, sizeof total, __cape_combine_4_total);
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
        { (const void *)&total, sizeof total, { 0, 0, 0 }, 0, "total", "double total", "data_kinds.c:9" },
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
