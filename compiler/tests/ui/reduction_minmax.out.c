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
/* The lowest and highest value of an arithmetic type: identities of the max/min reductions. */
#define __CAPE_LOWEST(x) __extension__ _Generic((x), \
    _Bool: 0, \
    char: ((char)-1 < 0 ? -__SCHAR_MAX__ - 1 : 0), \
    signed char: -__SCHAR_MAX__ - 1, unsigned char: 0, \
    short: -__SHRT_MAX__ - 1, unsigned short: 0, \
    int: -__INT_MAX__ - 1, unsigned int: 0U, \
    long: -__LONG_MAX__ - 1L, unsigned long: 0UL, \
    long long: -__LONG_LONG_MAX__ - 1LL, unsigned long long: 0ULL, \
    float: -__builtin_inff(), double: -__builtin_inf(), long double: -__builtin_infl())
#define __CAPE_HIGHEST(x) __extension__ _Generic((x), \
    _Bool: 1, \
    char: ((char)-1 < 0 ? __SCHAR_MAX__ : __SCHAR_MAX__ * 2 + 1), \
    signed char: __SCHAR_MAX__, unsigned char: __SCHAR_MAX__ * 2 + 1, \
    short: __SHRT_MAX__, unsigned short: __SHRT_MAX__ * 2 + 1, \
    int: __INT_MAX__, unsigned int: __INT_MAX__ * 2U + 1U, \
    long: __LONG_MAX__, unsigned long: __LONG_MAX__ * 2UL + 1UL, \
    long long: __LONG_LONG_MAX__, unsigned long long: __LONG_LONG_MAX__ * 2ULL + 1ULL, \
    float: __builtin_inff(), double: __builtin_inf(), long double: __builtin_infl())
#pragma GCC diagnostic pop
#include <stdio.h>



__CAPE_GENERATED_BEGIN

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
static void __cape_combine_2_hi(void *__cape_inout, const void *__cape_in);
static void __cape_combine_3_lo(void *__cape_inout, const void *__cape_in);
/* capecc: data of the #pragma omp parallel for at reduction_minmax.c:7 */
struct __cape_data_1 {
    void *hi;
    void *lo;
};
static void __cape_fn_1(void *__cape_arg);
static void __cape_combine_5_count(void *__cape_inout, const void *__cape_in);
/* capecc: data of the #pragma omp parallel at reduction_minmax.c:15 */
struct __cape_data_4 {
    void *count;
};
static void __cape_fn_4(void *__cape_arg);
int __cape_user_main(void)
{
    double hi = 0.0, lo = 1e9;
    int count = 0;
    {
        /* capecc: #pragma omp parallel for at reduction_minmax.c:7 */
        {
            /* the shared objects the region uses, named in the runtime's reports */
            const struct __cape_object __cape_objects_1[] = {
            { (const void *)&hi, sizeof hi, { 0, 0, 0 }, 0, "hi", "double hi", "reduction_minmax.c:5" },
            { (const void *)&lo, sizeof lo, { 0, 0, 0 }, 0, "lo", "double lo", "reduction_minmax.c:5" },
            };
            __cape_region_objects("parallel for at reduction_minmax.c:7", __cape_objects_1, 2);
        }
        struct __cape_data_1 __cape_data = {
            .hi = (void *)&hi,
            .lo = (void *)&lo,
        };
        /* what the region may write */
        const struct __cape_span __cape_scope_1[] = {
            { (const void *)&hi, sizeof hi },
            { (const void *)&lo, sizeof lo },
        };
        __cape_parallel_in_scope(__cape_fn_1, &__cape_data, 0, 1,
                                 __CAPE_STACK_POINTER(), __cape_scope_1, 2);
    }
    {
        /* capecc: #pragma omp parallel at reduction_minmax.c:15 */
        {
            /* the shared objects the region uses, named in the runtime's reports */
            const struct __cape_object __cape_objects_4[] = {
            { (const void *)&count, sizeof count, { 0, 0, 0 }, 0, "count", "int count", "reduction_minmax.c:6" },
            };
            __cape_region_objects("parallel at reduction_minmax.c:15", __cape_objects_4, 1);
        }
        struct __cape_data_4 __cape_data = {
            .count = (void *)&count,
        };
        /* what the region may write */
        const struct __cape_span __cape_scope_4[] = {
            { (const void *)&count, sizeof count },
        };
        __cape_parallel_in_scope(__cape_fn_4, &__cape_data, 0, 1,
                                 __CAPE_STACK_POINTER(), __cape_scope_4, 1);
    }
    printf("%g %g %d\n", hi, lo, count);
    return 0;
}
#pragma GCC diagnostic pop
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpragmas"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wsign-conversion"

/* capecc: reduction(max: hi) of the #pragma omp parallel for at reduction_minmax.c:7 */
static void __cape_combine_2_hi(void *__cape_inout, const void *__cape_in)
{
    double (*__cape_a) = __cape_inout;
    double (*__cape_b) = (void *)__cape_in;
    *__cape_a = *__cape_a > *__cape_b ? *__cape_a : *__cape_b;
}

/* capecc: reduction(min: lo) of the #pragma omp parallel for at reduction_minmax.c:7 */
static void __cape_combine_3_lo(void *__cape_inout, const void *__cape_in)
{
    double (*__cape_a) = __cape_inout;
    double (*__cape_b) = (void *)__cape_in;
    *__cape_a = *__cape_a < *__cape_b ? *__cape_a : *__cape_b;
}

/* capecc: #pragma omp parallel for at reduction_minmax.c:7 */
static void __cape_fn_1(void *__cape_arg)
{
    struct __cape_data_1 *__cape_d = (struct __cape_data_1 *)__cape_arg;
    double (*__cape_shared_hi) = __cape_d->hi;
    double (*__cape_shared_lo) = __cape_d->lo;
    { /* capecc: #pragma omp parallel for at reduction_minmax.c:7 */
        __typeof__((*__cape_shared_hi)) *__cape_orig_hi = &(*__cape_shared_hi);
        __typeof__((*__cape_shared_lo)) *__cape_orig_lo = &(*__cape_shared_lo);
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
        __CAPE_COPY_BEGIN __typeof__(*__cape_orig_hi) hi __attribute__((unused)) = __CAPE_LOWEST(hi); __CAPE_COPY_END
        __CAPE_COPY_BEGIN __typeof__(*__cape_orig_lo) lo __attribute__((unused)) = __CAPE_HIGHEST(lo); __CAPE_COPY_END
        __cape_loop_init(&__cape_l, __cape_n, CAPE_SCHED_STATIC, 0);
        if (__cape_loop_next(&__cape_l, &__cape_lo, &__cape_hi))
            for (__cape_k = __cape_lo, __cape_end = __cape_hi,
                 i = (__typeof__(i))((unsigned long long)__cape_lb0
                                             + __cape_lo * (unsigned long long)__cape_step0);
                 __cape_k < __cape_end;
                 __cape_k++, i += (__typeof__(i - i))__cape_step0) {
                {
                    double v = (i * 37) % 101;
                    if (v > hi)
                        hi = v;
                    if (v < lo)
                        lo = v;
                }
            }
        { /* a copy's address goes to the runtime: the private copy's never escapes, so the
             backend keeps it in a register across the loop (stores through pointers of its type
             cannot be taken for stores to it) */
            __typeof__(hi) __cape_partial_hi = hi;
            __cape_reduce((void *)__cape_orig_hi, (const void *)&__cape_partial_hi, sizeof hi, __cape_combine_2_hi);
        }
        { /* a copy's address goes to the runtime: the private copy's never escapes, so the
             backend keeps it in a register across the loop (stores through pointers of its type
             cannot be taken for stores to it) */
            __typeof__(lo) __cape_partial_lo = lo;
            __cape_reduce((void *)__cape_orig_lo, (const void *)&__cape_partial_lo, sizeof lo, __cape_combine_3_lo);
        }
        __cape_loop_end(&__cape_l, 1);
    }

}

/* capecc: reduction(+: count) of the #pragma omp parallel at reduction_minmax.c:15 */
static void __cape_combine_5_count(void *__cape_inout, const void *__cape_in)
{
    int (*__cape_a) = __cape_inout;
    int (*__cape_b) = (void *)__cape_in;
    *__cape_a = *__cape_a + *__cape_b;
}

/* capecc: #pragma omp parallel at reduction_minmax.c:15 */
static void __cape_fn_4(void *__cape_arg)
{
    struct __cape_data_4 *__cape_d = (struct __cape_data_4 *)__cape_arg;
    int (*__cape_shared_count) = __cape_d->count;
    __CAPE_COPY_BEGIN __typeof__(*__cape_shared_count) count __attribute__((unused)) = 0; __CAPE_COPY_END
    count++;
    { /* a copy's address goes to the runtime: the private copy's never escapes, so the
         backend keeps it in a register across the loop (stores through pointers of its type
         cannot be taken for stores to it) */
        __typeof__(count) __cape_partial_count = count;
        __cape_reduce((void *)__cape_d->count, (const void *)&__cape_partial_count, sizeof count, __cape_combine_5_count);
    }
}
#pragma GCC diagnostic pop
#pragma GCC diagnostic pop


__CAPE_GENERATED_BEGIN

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
