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


static const char *lookup(const char *name)
{
    return __cape_getenv(name);
}


__CAPE_GENERATED_BEGIN

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
static void __cape_combine_2_sum(void *__cape_inout, const void *__cape_in);
/* capecc: data of the #pragma omp parallel for at getenv.c:16 */
struct __cape_data_1 {
    void *size;
    void *sum;
};
static void __cape_fn_1(void *__cape_arg);
int __cape_user_main(void)
{
    const char *n = __cape_getenv("N");
    int size = n ? atoi(n) : 8;
    int sum = 0;
    {
        /* capecc: #pragma omp parallel for at getenv.c:16 */
        {
            /* the shared objects the region uses, named in the runtime's reports */
            const struct __cape_object __cape_objects_1[] = {
            { (const void *)&size, sizeof size, { 0, 0, 0 }, 0, "size", "int size", "getenv.c:14" },
            { (const void *)&sum, sizeof sum, { 0, 0, 0 }, 0, "sum", "int sum", "getenv.c:15" },
            };
            __cape_region_objects("parallel for at getenv.c:16", __cape_objects_1, 2);
        }
        struct __cape_data_1 __cape_data = {
            .size = (void *)&size,
            .sum = (void *)&sum,
        };
        /* what the region may write */
        const struct __cape_span __cape_scope_1[] = {
            { (const void *)&sum, sizeof sum },
        };
        __cape_parallel_in_scope(__cape_fn_1, &__cape_data, 0, 1,
                                 __CAPE_STACK_POINTER(), __cape_scope_1, 1);
    }
    printf("%d %s\n", sum, lookup("HOME") ? "home" : "no home");
    return 0;
}
#pragma GCC diagnostic pop
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpragmas"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wsign-conversion"

/* capecc: reduction(+: sum) of the #pragma omp parallel for at getenv.c:16 */
static void __cape_combine_2_sum(void *__cape_inout, const void *__cape_in)
{
    int (*__cape_a) = __cape_inout;
    int (*__cape_b) = (void *)__cape_in;
    *__cape_a = *__cape_a + *__cape_b;
}

/* capecc: #pragma omp parallel for at getenv.c:16 */
static void __cape_fn_1(void *__cape_arg)
{
    struct __cape_data_1 *__cape_d = (struct __cape_data_1 *)__cape_arg;
    int (*__cape_shared_size) = __cape_d->size;
    __typeof__(*__cape_shared_size) __cape_value_size = *__cape_shared_size; /* the region only reads it */
    int (*__cape_shared_sum) = __cape_d->sum;
    { /* capecc: #pragma omp parallel for at getenv.c:16 */
        __typeof__((*__cape_shared_sum)) *__cape_orig_sum = &(*__cape_shared_sum);
        int i;
        __typeof__(i) __cape_lb0 = (0);
        __typeof__(__cape_lb0 + ((__cape_value_size))) __cape_ub0 = (__cape_value_size);
        __typeof__(__cape_ub0) __cape_lbc0 = __cape_lb0;
        long long __cape_step0 = 1;
        unsigned long long __cape_n0 = 0;
        if (__cape_step0 > 0 && __cape_lbc0 < __cape_ub0)
            __cape_n0 = ((unsigned long long)__cape_ub0 - (unsigned long long)__cape_lbc0 - 1)
                       / (unsigned long long)__cape_step0 + 1;
        unsigned long long __cape_n = __cape_n0, __cape_lo, __cape_hi, __cape_end, __cape_k;
        __cape_loop __cape_l;
        __CAPE_COPY_BEGIN __typeof__(*__cape_orig_sum) sum __attribute__((unused)) = 0; __CAPE_COPY_END
        __cape_loop_init(&__cape_l, __cape_n, CAPE_SCHED_STATIC, 0);
        if (__cape_loop_next(&__cape_l, &__cape_lo, &__cape_hi))
            for (__cape_k = __cape_lo, __cape_end = __cape_hi,
                 i = (__typeof__(i))((unsigned long long)__cape_lb0
                                             + __cape_lo * (unsigned long long)__cape_step0);
                 __cape_k < __cape_end;
                 __cape_k++, i += (__typeof__(i - i))__cape_step0) {
                sum += i;
            }
        { /* a copy's address goes to the runtime: the private copy's never escapes, so the
             backend keeps it in a register across the loop (stores through pointers of its type
             cannot be taken for stores to it) */
            __typeof__(sum) __cape_partial_sum = sum;
            __cape_reduce((void *)__cape_orig_sum, (const void *)&__cape_partial_sum, sizeof sum, __cape_combine_2_sum);
        }
        __cape_loop_end(&__cape_l, 1);
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
