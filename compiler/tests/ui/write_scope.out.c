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


#include <stdlib.h>
#include <string.h>


double g[64];

static void touch(double *x) { x[0] = 1.0; }


__CAPE_GENERATED_BEGIN
/* capecc: data of the #pragma omp parallel for at write_scope.c:14 */
struct __cape_data_1 {
    void *a;
    void *m;
    void *n;
    void *local;
};
static void __cape_fn_1(void *__cape_arg);
/* capecc: data of the #pragma omp parallel at write_scope.c:22 */
struct __cape_data_2 {
    void *a;
};
static void __cape_fn_2(void *__cape_arg);
/* capecc: data of the #pragma omp parallel at write_scope.c:28 */
struct __cape_data_3 {
    void *a;
};
static void __cape_fn_3(void *__cape_arg);
/* capecc: data of the #pragma omp parallel at write_scope.c:31 */
struct __cape_data_4 {
    void *local;
};
static void __cape_fn_4(void *__cape_arg);
/* capecc: data of the #pragma omp parallel for at write_scope.c:37 */
struct __cape_data_5 {
    void *rows;
    void *n;
};
static void __cape_fn_5(void *__cape_arg);
/* capecc: data of the #pragma omp parallel at write_scope.c:41 */
struct __cape_data_6 {
    void *a;
};
static void __cape_fn_6(void *__cape_arg);
void kernels(double *a, double (*m)[64], double **rows, int n)
{
    double local[8];

    {
        /* capecc: #pragma omp parallel for at write_scope.c:14 */
        {
            /* the shared objects the region uses, named in the runtime's reports */
            const struct __cape_object __cape_objects_1[] = {
            { (const void *)&a, sizeof a, { 0, 0, 0 }, sizeof *(a), "a", "double *a", "write_scope.c:10" },
            { (const void *)&m, sizeof (m + 0), { 0, 0, 0 }, 0, "m", "double (*m)[64]", "write_scope.c:10" },
            { (const void *)&n, sizeof n, { 0, 0, 0 }, 0, "n", "int n", "write_scope.c:10" },
            { (const void *)&local, sizeof local, { sizeof (local)[0], 0, 0 }, 0, "local", "double local[8]", "write_scope.c:12" },
            };
            __cape_region_objects("parallel for at write_scope.c:14", __cape_objects_1, 4);
        }
        struct __cape_data_1 __cape_data = {
            .a = (void *)&a,
            .m = (void *)&m,
            .n = (void *)&n,
            .local = (void *)&local,
        };
        /* what the region may write */
        const struct __cape_span __cape_scope_1[] = {
            { (const void *)&g, sizeof g },
            { (const void *)&local, sizeof local },
            { (const void *)a, 0 },
            { (const void *)m, 0 },
        };
        __cape_parallel_in_scope(__cape_fn_1, &__cape_data, 0, 1,
                                 __CAPE_STACK_POINTER(), __cape_scope_1, 4);
    }

    {
        /* capecc: #pragma omp parallel at write_scope.c:22 */
        {
            /* the shared objects the region uses, named in the runtime's reports */
            const struct __cape_object __cape_objects_2[] = {
            { (const void *)&a, sizeof a, { 0, 0, 0 }, sizeof *(a), "a", "double *a", "write_scope.c:10" },
            { (const void *)&local, sizeof local, { sizeof (local)[0], 0, 0 }, 0, "local", "double local[8]", "write_scope.c:12" },
            };
            __cape_region_objects("parallel at write_scope.c:22", __cape_objects_2, 2);
        }
        struct __cape_data_2 __cape_data = {
            .a = (void *)&a,
        };
        /* what the region may write */
        const struct __cape_span __cape_scope_2[] = {
            { (const void *)a, 0 },
        };
        __cape_parallel_in_scope(__cape_fn_2, &__cape_data, 0, 1,
                                 __CAPE_STACK_POINTER(), __cape_scope_2, 1);
    }

    {
        /* capecc: #pragma omp parallel at write_scope.c:28 */
        {
            /* the shared objects the region uses, named in the runtime's reports */
            const struct __cape_object __cape_objects_3[] = {
            { (const void *)&a, sizeof a, { 0, 0, 0 }, sizeof *(a), "a", "double *a", "write_scope.c:10" },
            { (const void *)&local, sizeof local, { sizeof (local)[0], 0, 0 }, 0, "local", "double local[8]", "write_scope.c:12" },
            };
            __cape_region_objects("parallel at write_scope.c:28", __cape_objects_3, 2);
        }
        struct __cape_data_3 __cape_data = {
            .a = (void *)&a,
        };
        /* what the region may write */
        const struct __cape_span __cape_scope_3[] = {
            { (const void *)a, 0 },
        };
        __cape_parallel_in_scope(__cape_fn_3, &__cape_data, 0, 1,
                                 __CAPE_STACK_POINTER(), __cape_scope_3, 1);
    }

    {
        /* capecc: #pragma omp parallel at write_scope.c:31 */
        {
            /* the shared objects the region uses, named in the runtime's reports */
            const struct __cape_object __cape_objects_4[] = {
            { (const void *)&local, sizeof local, { sizeof (local)[0], 0, 0 }, 0, "local", "double local[8]", "write_scope.c:12" },
            };
            __cape_region_objects("parallel at write_scope.c:31", __cape_objects_4, 1);
        }
        struct __cape_data_4 __cape_data = {
            .local = (void *)&local,
        };
        /* what the region may write */
        const struct __cape_span __cape_scope_4[] = {
            { (const void *)&local, sizeof local },
        };
        __cape_parallel_in_scope(__cape_fn_4, &__cape_data, 0, 1,
                                 __CAPE_STACK_POINTER(), __cape_scope_4, 1);
    }

    {
        /* capecc: #pragma omp parallel for at write_scope.c:37 */
        {
            /* the shared objects the region uses, named in the runtime's reports */
            const struct __cape_object __cape_objects_5[] = {
            { (const void *)&rows, sizeof rows, { 0, 0, 0 }, sizeof *(rows), "rows", "double **rows", "write_scope.c:10" },
            { (const void *)&n, sizeof n, { 0, 0, 0 }, 0, "n", "int n", "write_scope.c:10" },
            { (const void *)&local, sizeof local, { sizeof (local)[0], 0, 0 }, 0, "local", "double local[8]", "write_scope.c:12" },
            };
            __cape_region_objects("parallel for at write_scope.c:37", __cape_objects_5, 3);
        }
        struct __cape_data_5 __cape_data = {
            .rows = (void *)&rows,
            .n = (void *)&n,
        };
        __cape_parallel(__cape_fn_5, &__cape_data, 0, 1,
                        __CAPE_STACK_POINTER());
    }

    {
        /* capecc: #pragma omp parallel at write_scope.c:41 */
        {
            /* the shared objects the region uses, named in the runtime's reports */
            const struct __cape_object __cape_objects_6[] = {
            { (const void *)&a, sizeof a, { 0, 0, 0 }, sizeof *(a), "a", "double *a", "write_scope.c:10" },
            { (const void *)&local, sizeof local, { sizeof (local)[0], 0, 0 }, 0, "local", "double local[8]", "write_scope.c:12" },
            };
            __cape_region_objects("parallel at write_scope.c:41", __cape_objects_6, 2);
        }
        struct __cape_data_6 __cape_data = {
            .a = (void *)&a,
        };
        __cape_parallel(__cape_fn_6, &__cape_data, 0, 1,
                        __CAPE_STACK_POINTER());
    }
}
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpragmas"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wsign-conversion"

/* capecc: #pragma omp parallel for at write_scope.c:14 */
static void __cape_fn_1(void *__cape_arg)
{
    struct __cape_data_1 *__cape_d = (struct __cape_data_1 *)__cape_arg;
    double *(*__cape_shared_a) = __cape_d->a;
    __typeof__(*__cape_shared_a) __cape_value_a = *__cape_shared_a; /* the region only reads it */
    double (*(*__cape_shared_m))[64] = __cape_d->m;
    __typeof__(*__cape_shared_m) __cape_value_m = *__cape_shared_m; /* the region only reads it */
    int (*__cape_shared_n) = __cape_d->n;
    __typeof__(*__cape_shared_n) __cape_value_n = *__cape_shared_n; /* the region only reads it */
    double (*__cape_shared_local)[8] = __cape_d->local;
    { /* capecc: #pragma omp parallel for at write_scope.c:14 */
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
                    g[i % 64] = i;
                    __cape_value_a[i] = 2.0 * i;
                    __cape_value_m[i][i % 64] = 1.0;
                    (*__cape_shared_local)[i % 8] = i;
                }
            }
        __cape_loop_end(&__cape_l, 1);
    }

}

/* capecc: #pragma omp parallel at write_scope.c:22 */
static void __cape_fn_2(void *__cape_arg)
{
    struct __cape_data_2 *__cape_d = (struct __cape_data_2 *)__cape_arg;
    double *(*__cape_shared_a) = __cape_d->a;
    __typeof__(*__cape_shared_a) __cape_value_a = *__cape_shared_a; /* the region only reads it */
    {
        double *q = __cape_value_a + 1;
        q[0] = 3.0;
    }
}

/* capecc: #pragma omp parallel at write_scope.c:28 */
static void __cape_fn_3(void *__cape_arg)
{
    struct __cape_data_3 *__cape_d = (struct __cape_data_3 *)__cape_arg;
    double *(*__cape_shared_a) = __cape_d->a;
    __typeof__(*__cape_shared_a) __cape_value_a = *__cape_shared_a; /* the region only reads it */
    memset(__cape_value_a, 0, 8 * sizeof *__cape_value_a);
}

/* capecc: #pragma omp parallel at write_scope.c:31 */
static void __cape_fn_4(void *__cape_arg)
{
    struct __cape_data_4 *__cape_d = (struct __cape_data_4 *)__cape_arg;
    double (*__cape_shared_local)[8] = __cape_d->local;
    {
        int k = 1;
        (*__cape_shared_local)[0] = k;
    }
}

/* capecc: #pragma omp parallel for at write_scope.c:37 */
static void __cape_fn_5(void *__cape_arg)
{
    struct __cape_data_5 *__cape_d = (struct __cape_data_5 *)__cape_arg;
    double **(*__cape_shared_rows) = __cape_d->rows;
    __typeof__(*__cape_shared_rows) __cape_value_rows = *__cape_shared_rows; /* the region only reads it */
    int (*__cape_shared_n) = __cape_d->n;
    __typeof__(*__cape_shared_n) __cape_value_n = *__cape_shared_n; /* the region only reads it */
    { /* capecc: #pragma omp parallel for at write_scope.c:37 */
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
                __cape_value_rows[i][0] = 1.0;
            }
        __cape_loop_end(&__cape_l, 1);
    }

}

/* capecc: #pragma omp parallel at write_scope.c:41 */
static void __cape_fn_6(void *__cape_arg)
{
    struct __cape_data_6 *__cape_d = (struct __cape_data_6 *)__cape_arg;
    double *(*__cape_shared_a) = __cape_d->a;
    __typeof__(*__cape_shared_a) __cape_value_a = *__cape_shared_a; /* the region only reads it */
    touch(__cape_value_a);
}
#pragma GCC diagnostic pop
#pragma GCC diagnostic pop


__CAPE_GENERATED_BEGIN

/* capecc: the names of this file's shared objects, for the runtime's reports */
__attribute__((constructor)) static void __cape_file_objects(void)
{
    static const struct __cape_object __cape_file_objects_table[] = {
        { (const void *)&g, sizeof g, { sizeof (g)[0], 0, 0 }, 0, "g", "double g[64]", "write_scope.c:6" },
    };
    __cape_objects(__cape_file_objects_table, 1);
}
#pragma GCC diagnostic pop
