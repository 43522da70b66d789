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

#define N 48


static double A[48][48], B[48][48], C[48][48];
static int col[48];


__CAPE_GENERATED_BEGIN
/* capecc: data of the #pragma omp parallel for at invariant_loads.c:15 */
struct __cape_data_1 {
    void *p;
    void *q;
    void *k;
};
static void __cape_fn_1(void *__cape_arg);
static void through_pointers(double (*p)[48], double (*q)[48], int k)
{
    {
        /* capecc: #pragma omp parallel for at invariant_loads.c:15 */
        {
            /* the shared objects the region uses, named in the runtime's reports */
            const struct __cape_object __cape_objects_1[] = {
            { (const void *)&p, sizeof (p + 0), { 0, 0, 0 }, 0, "p", "double (*p)[48]", "invariant_loads.c:13" },
            { (const void *)&q, sizeof (q + 0), { 0, 0, 0 }, 0, "q", "double (*q)[48]", "invariant_loads.c:13" },
            { (const void *)&k, sizeof k, { 0, 0, 0 }, 0, "k", "int k", "invariant_loads.c:13" },
            };
            __cape_region_objects("parallel for at invariant_loads.c:15", __cape_objects_1, 3);
        }
        struct __cape_data_1 __cape_data = {
            .p = (void *)&p,
            .q = (void *)&q,
            .k = (void *)&k,
        };
        /* what the region may write */
        const struct __cape_span __cape_scope_1[] = {
            { (const void *)p, 0 },
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

/* capecc: #pragma omp parallel for at invariant_loads.c:15 */
static void __cape_fn_1(void *__cape_arg)
{
    struct __cape_data_1 *__cape_d = (struct __cape_data_1 *)__cape_arg;
    double (*(*__cape_shared_p))[48] = __cape_d->p;
    __typeof__(*__cape_shared_p) __cape_value_p = *__cape_shared_p; /* the region only reads it */
    double (*(*__cape_shared_q))[48] = __cape_d->q;
    __typeof__(*__cape_shared_q) __cape_value_q = *__cape_shared_q; /* the region only reads it */
    int (*__cape_shared_k) = __cape_d->k;
    __typeof__(*__cape_shared_k) __cape_value_k = *__cape_shared_k; /* the region only reads it */
    { /* capecc: #pragma omp parallel for at invariant_loads.c:15 */
        int i;
        __typeof__(i) __cape_lb0 = (0);
        __typeof__(__cape_lb0 + ((48))) __cape_ub0 = (48);
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
                for (int j = 0; j < 48; j++)
                    __cape_value_p[i][j] += 0.5 * __cape_value_q[i][__cape_value_k];
            }
        __cape_loop_end(&__cape_l, 1);
    }

}
#pragma GCC diagnostic pop
#pragma GCC diagnostic pop


static double checksum(double (*m)[48])
{
    double s = 0;
    for (int i = 0; i < 48; i++)
        for (int j = 0; j < 48; j++)
            s += m[i][j] * (1 + (i * 48 + j) % 7);
    return s;
}


__CAPE_GENERATED_BEGIN

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
/* capecc: data of the #pragma omp parallel for at invariant_loads.c:41 */
struct __cape_data_2 {
    void *k;
};
static void __cape_fn_2(void *__cape_arg);
/* capecc: data of the #pragma omp parallel for at invariant_loads.c:45 */
struct __cape_data_3 {
    void *k;
};
static void __cape_fn_3(void *__cape_arg);
/* capecc: data of the #pragma omp parallel for at invariant_loads.c:49 */
struct __cape_data_4 {
    void *k;
};
static void __cape_fn_4(void *__cape_arg);
/* capecc: data of the #pragma omp parallel for at invariant_loads.c:54 */
struct __cape_data_5 {
    char __cape_none;
};
static void __cape_fn_5(void *__cape_arg);
/* capecc: data of the #pragma omp parallel for at invariant_loads.c:59 */
struct __cape_data_6 {
    void *k;
};
static void __cape_fn_6(void *__cape_arg);
/* capecc: data of the #pragma omp parallel for at invariant_loads.c:66 */
struct __cape_data_7 {
    void *far;
};
static void __cape_fn_7(void *__cape_arg);
int __cape_user_main(void)
{
    for (int i = 0; i < 48; i++) {
        col[i] = (i * 5) % 48;
        for (int j = 0; j < 48; j++) {
            A[i][j] = 1.0 + (i * 3 + j) % 11;
            B[i][j] = 2.0 - (i + j * 7) % 5;
            C[i][j] = 0.25 * ((i * j) % 9);
        }
    }
    for (int k = 0; k < 48 / 2; k++) {
        {
            /* capecc: #pragma omp parallel for at invariant_loads.c:41 */
            {
                /* the shared objects the region uses, named in the runtime's reports */
                const struct __cape_object __cape_objects_2[] = {
                { (const void *)&k, sizeof k, { 0, 0, 0 }, 0, "k", "int k", "invariant_loads.c:40" },
                };
                __cape_region_objects("parallel for at invariant_loads.c:41", __cape_objects_2, 1);
            }
            struct __cape_data_2 __cape_data = {
                .k = (void *)&k,
            };
            /* what the region may write */
            const struct __cape_span __cape_scope_2[] = {
                { (const void *)&A, sizeof A },
            };
            __cape_parallel_in_scope(__cape_fn_2, &__cape_data, 0, 1,
                                     __CAPE_STACK_POINTER(), __cape_scope_2, 1);
        }
        {
            /* capecc: #pragma omp parallel for at invariant_loads.c:45 */
            {
                /* the shared objects the region uses, named in the runtime's reports */
                const struct __cape_object __cape_objects_3[] = {
                { (const void *)&k, sizeof k, { 0, 0, 0 }, 0, "k", "int k", "invariant_loads.c:40" },
                };
                __cape_region_objects("parallel for at invariant_loads.c:45", __cape_objects_3, 1);
            }
            struct __cape_data_3 __cape_data = {
                .k = (void *)&k,
            };
            /* what the region may write */
            const struct __cape_span __cape_scope_3[] = {
                { (const void *)&B, sizeof B },
            };
            __cape_parallel_in_scope(__cape_fn_3, &__cape_data, 0, 1,
                                     __CAPE_STACK_POINTER(), __cape_scope_3, 1);
        }
        {
            /* capecc: #pragma omp parallel for at invariant_loads.c:49 */
            {
                /* the shared objects the region uses, named in the runtime's reports */
                const struct __cape_object __cape_objects_4[] = {
                { (const void *)&k, sizeof k, { 0, 0, 0 }, 0, "k", "int k", "invariant_loads.c:40" },
                };
                __cape_region_objects("parallel for at invariant_loads.c:49", __cape_objects_4, 1);
            }
            struct __cape_data_4 __cape_data = {
                .k = (void *)&k,
            };
            /* what the region may write */
            const struct __cape_span __cape_scope_4[] = {
                { (const void *)&C, sizeof C },
            };
            __cape_parallel_in_scope(__cape_fn_4, &__cape_data, 0, 1,
                                     __CAPE_STACK_POINTER(), __cape_scope_4, 1);
        }
    }
    {
        /* capecc: #pragma omp parallel for at invariant_loads.c:54 */
        __cape_region_objects("parallel for at invariant_loads.c:54", (const struct __cape_object *)0, 0);
        struct __cape_data_5 __cape_data = {
            .__cape_none = 0,
        };
        /* what the region may write */
        const struct __cape_span __cape_scope_5[] = {
            { (const void *)&C, sizeof C },
        };
        __cape_parallel_in_scope(__cape_fn_5, &__cape_data, 0, 1,
                                 __CAPE_STACK_POINTER(), __cape_scope_5, 1);
    }
    int k = 7;
    {
        /* capecc: #pragma omp parallel for at invariant_loads.c:59 */
        {
            /* the shared objects the region uses, named in the runtime's reports */
            const struct __cape_object __cape_objects_6[] = {
            { (const void *)&k, sizeof k, { 0, 0, 0 }, 0, "k", "int k", "invariant_loads.c:58" },
            };
            __cape_region_objects("parallel for at invariant_loads.c:59", __cape_objects_6, 1);
        }
        struct __cape_data_6 __cape_data = {
            .k = (void *)&k,
        };
        /* what the region may write */
        const struct __cape_span __cape_scope_6[] = {
            { (const void *)&B, sizeof B },
        };
        __cape_parallel_in_scope(__cape_fn_6, &__cape_data, 0, 1,
                                 __CAPE_STACK_POINTER(), __cape_scope_6, 1);
    }
    through_pointers(A, A, 3);

    int far = 1 << 28;
    {
        /* capecc: #pragma omp parallel for at invariant_loads.c:66 */
        {
            /* the shared objects the region uses, named in the runtime's reports */
            const struct __cape_object __cape_objects_7[] = {
            { (const void *)&far, sizeof far, { 0, 0, 0 }, 0, "far", "int far", "invariant_loads.c:65" },
            };
            __cape_region_objects("parallel for at invariant_loads.c:66", __cape_objects_7, 1);
        }
        struct __cape_data_7 __cape_data = {
            .far = (void *)&far,
        };
        /* what the region may write */
        const struct __cape_span __cape_scope_7[] = {
            { (const void *)&A, sizeof A },
        };
        __cape_parallel_in_scope(__cape_fn_7, &__cape_data, 0, 1,
                                 __CAPE_STACK_POINTER(), __cape_scope_7, 1);
    }
    printf("A %.10e\nB %.10e\nC %.10e\n", checksum(A), checksum(B), checksum(C));
    return 0;
}
#pragma GCC diagnostic pop
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpragmas"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wsign-conversion"

/* capecc: #pragma omp parallel for at invariant_loads.c:41 */
static void __cape_fn_2(void *__cape_arg)
{
    struct __cape_data_2 *__cape_d = (struct __cape_data_2 *)__cape_arg;
    int (*__cape_shared_k) = __cape_d->k;
    __typeof__(*__cape_shared_k) __cape_value_k = *__cape_shared_k; /* the region only reads it */
    { /* capecc: #pragma omp parallel for at invariant_loads.c:41 */
        int i;
        __typeof__(i) __cape_lb0 = (__cape_value_k + 1);
        __typeof__(__cape_lb0 + ((48))) __cape_ub0 = (48);
        __typeof__(__cape_ub0) __cape_lbc0 = __cape_lb0;
        long long __cape_step0 = 1;
        unsigned long long __cape_n0 = 0;
        if (__cape_step0 > 0 && __cape_lbc0 < __cape_ub0)
            __cape_n0 = ((unsigned long long)__cape_ub0 - (unsigned long long)__cape_lbc0 - 1)
                       / (unsigned long long)__cape_step0 + 1;
        unsigned long long __cape_n = __cape_n0, __cape_lo, __cape_hi, __cape_end, __cape_k;
        __cape_loop __cape_l;
        __cape_loop_init(&__cape_l, __cape_n, CAPE_SCHED_STATIC, (long long)(2));
        while (__cape_loop_next(&__cape_l, &__cape_lo, &__cape_hi))
            for (__cape_k = __cape_lo, __cape_end = __cape_hi,
                 i = (__typeof__(i))((unsigned long long)__cape_lb0
                                             + __cape_lo * (unsigned long long)__cape_step0);
                 __cape_k < __cape_end;
                 __cape_k++, i += (__typeof__(i - i))__cape_step0) {
                { if ((int)(__cape_value_k + 1) < (48)) { __typeof__(A[i][__cape_value_k]) __cape_inv0 = A[i][__cape_value_k]; for (int j = __cape_value_k + 1; j < 48; j++)
                    A[i][j] -= 0.01 * __cape_inv0 * A[__cape_value_k][j]; } }
            }
        __cape_loop_end(&__cape_l, 1);
    }

}

/* capecc: #pragma omp parallel for at invariant_loads.c:45 */
static void __cape_fn_3(void *__cape_arg)
{
    struct __cape_data_3 *__cape_d = (struct __cape_data_3 *)__cape_arg;
    int (*__cape_shared_k) = __cape_d->k;
    __typeof__(*__cape_shared_k) __cape_value_k = *__cape_shared_k; /* the region only reads it */
    { /* capecc: #pragma omp parallel for at invariant_loads.c:45 */
        int i;
        __typeof__(i) __cape_lb0 = (0);
        __typeof__(__cape_lb0 + ((48))) __cape_ub0 = (48);
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
                for (int j = __cape_value_k; j < 48; j++)
                    B[i][j] -= 0.5 * B[i][__cape_value_k];
            }
        __cape_loop_end(&__cape_l, 1);
    }

}

/* capecc: #pragma omp parallel for at invariant_loads.c:49 */
static void __cape_fn_4(void *__cape_arg)
{
    struct __cape_data_4 *__cape_d = (struct __cape_data_4 *)__cape_arg;
    int (*__cape_shared_k) = __cape_d->k;
    __typeof__(*__cape_shared_k) __cape_value_k = *__cape_shared_k; /* the region only reads it */
    { /* capecc: #pragma omp parallel for at invariant_loads.c:49 */
        int i;
        __typeof__(i) __cape_lb0 = (0);
        __typeof__(__cape_lb0 + ((48))) __cape_ub0 = (48);
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
                { if ((int)(__cape_value_k + 1) <= (i)) { __typeof__(C[i][__cape_value_k]) __cape_inv0 = C[i][__cape_value_k]; __typeof__(A[i][__cape_value_k]) __cape_inv1 = A[i][__cape_value_k]; for (int j = __cape_value_k + 1; j <= i; j++)
                    C[i][j] += __cape_inv0 * __cape_inv1 * 0.001; } }
            }
        __cape_loop_end(&__cape_l, 1);
    }

}

/* capecc: #pragma omp parallel for at invariant_loads.c:54 */
static void __cape_fn_5(void *__cape_arg)
{
    struct __cape_data_5 *__cape_d = (struct __cape_data_5 *)__cape_arg;
    (void)__cape_d;
    { /* capecc: #pragma omp parallel for at invariant_loads.c:54 */
        int i;
        __typeof__(i) __cape_lb0 = (0);
        __typeof__(__cape_lb0 + ((48))) __cape_ub0 = (48);
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
                { if ((int)(0) < (48)) { __typeof__(col[i]) __cape_inv0 = col[i]; for (int j = 0; j < 48; j++)
                    C[i][j] = C[i][__cape_inv0] + 1; } }
            }
        __cape_loop_end(&__cape_l, 1);
    }

}

/* capecc: #pragma omp parallel for at invariant_loads.c:59 */
static void __cape_fn_6(void *__cape_arg)
{
    struct __cape_data_6 *__cape_d = (struct __cape_data_6 *)__cape_arg;
    int (*__cape_shared_k) = __cape_d->k;
    __typeof__(*__cape_shared_k) __cape_value_k = *__cape_shared_k; /* the region only reads it */
    { /* capecc: #pragma omp parallel for at invariant_loads.c:59 */
        int i;
        __typeof__(i) __cape_lb0 = (0);
        __typeof__(__cape_lb0 + ((48))) __cape_ub0 = (48);
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
                for (int j = __cape_value_k - 1; j < 48; j++)
                    B[i][j] = B[i][__cape_value_k] * 0.5 + j;
            }
        __cape_loop_end(&__cape_l, 1);
    }

}

/* capecc: #pragma omp parallel for at invariant_loads.c:66 */
static void __cape_fn_7(void *__cape_arg)
{
    struct __cape_data_7 *__cape_d = (struct __cape_data_7 *)__cape_arg;
    int (*__cape_shared_far) = __cape_d->far;
    __typeof__(*__cape_shared_far) __cape_value_far = *__cape_shared_far; /* the region only reads it */
    { /* capecc: #pragma omp parallel for at invariant_loads.c:66 */
        int i;
        __typeof__(i) __cape_lb0 = (0);
        __typeof__(__cape_lb0 + ((48))) __cape_ub0 = (48);
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
                { if ((int)(__cape_value_far + 1) < (48)) { __typeof__(A[i][__cape_value_far]) __cape_inv0 = A[i][__cape_value_far]; for (int j = __cape_value_far + 1; j < 48; j++)
                    A[i][j] -= __cape_inv0; } }
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
        { (const void *)&A, sizeof A, { sizeof (A)[0], sizeof (A)[0][0], 0 }, 0, "A", "double A[48][48]", "invariant_loads.c:10" },
        { (const void *)&B, sizeof B, { sizeof (B)[0], sizeof (B)[0][0], 0 }, 0, "B", "double B[48][48]", "invariant_loads.c:10" },
        { (const void *)&C, sizeof C, { sizeof (C)[0], sizeof (C)[0][0], 0 }, 0, "C", "double C[48][48]", "invariant_loads.c:10" },
        { (const void *)&col, sizeof col, { sizeof (col)[0], 0, 0 }, 0, "col", "int col[48]", "invariant_loads.c:11" },
    };
    __cape_objects(__cape_file_objects_table, 4);
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
