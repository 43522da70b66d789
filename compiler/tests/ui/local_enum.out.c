/* Translated by capecc: OpenMP regions call the capert runtime (capert.h). */
#include <capert.h>
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
int omp_get_thread_num(void);
/* capecc: data of the #pragma omp parallel for at local_enum.c:6 */
struct __cape_data_1 {
    void *k;
    void *a;
};
static void __cape_fn_1(void *__cape_arg);
int __cape_user_main(void)
{
    enum { N = 8 };
    /* register */ int k = 3;
    int a[N];
    {
        /* capecc: #pragma omp parallel for at local_enum.c:6 */
        struct __cape_data_1 __cape_data = {
            .k = (void *)&k,
            .a = (void *)&a,
        };
        __cape_parallel(__cape_fn_1, &__cape_data, 0, 1,
                        __CAPE_STACK_POINTER());
    }
    return a[N - 1];
}

/* capecc: #pragma omp parallel for at local_enum.c:6 */
static void __cape_fn_1(void *__cape_arg)
{
    struct __cape_data_1 *__cape_d = (struct __cape_data_1 *)__cape_arg;
    (void)__cape_d;
    enum { N = 8 };
    int (*__cape_shared_k) = __cape_d->k;
    (void)__cape_shared_k; /* unused when every use was lowered away (a lock pair) */
    int (*__cape_shared_a)[N] = __cape_d->a;
    (void)__cape_shared_a; /* unused when every use was lowered away (a lock pair) */
    { /* capecc: #pragma omp parallel for at local_enum.c:6 */
    int i;
    __typeof__(i) __cape_lb0 = (0);
    __typeof__(__cape_lb0 + ((N))) __cape_ub0 = (N);
    __typeof__(__cape_ub0) __cape_lbc0 = __cape_lb0;
    long long __cape_step0 = 1;
    unsigned long long __cape_n0 = 0;
    if (__cape_step0 > 0 && __cape_lbc0 < __cape_ub0)
        __cape_n0 = ((unsigned long long)__cape_ub0 - (unsigned long long)__cape_lbc0 - 1)
                   / (unsigned long long)__cape_step0 + 1;
    unsigned long long __cape_n = __cape_n0, __cape_lo, __cape_hi, __cape_k;
    __cape_loop __cape_l;
    __cape_loop_init(&__cape_l, __cape_n, CAPE_SCHED_STATIC, 0);
    while (__cape_loop_next(&__cape_l, &__cape_lo, &__cape_hi))
        for (__cape_k = __cape_lo; __cape_k < __cape_hi; __cape_k++) {
            i = (__typeof__(i))((unsigned long long)__cape_lb0
                                            + __cape_k * (unsigned long long)__cape_step0);
            (*__cape_shared_a)[i] = i * (*__cape_shared_k);
        }
    __cape_loop_end(&__cape_l, 1);
}

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
