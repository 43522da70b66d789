/* Translated by capecc: OpenMP regions call the capert runtime (capert.h). */
#include <capert.h>
/* The lowest and highest value of an arithmetic type: identities of the max/min reductions. */
#define __CAPE_LOWEST(x) _Generic((x), \
    _Bool: 0, \
    char: ((char)-1 < 0 ? -__SCHAR_MAX__ - 1 : 0), \
    signed char: -__SCHAR_MAX__ - 1, unsigned char: 0, \
    short: -__SHRT_MAX__ - 1, unsigned short: 0, \
    int: -__INT_MAX__ - 1, unsigned int: 0U, \
    long: -__LONG_MAX__ - 1L, unsigned long: 0UL, \
    long long: -__LONG_LONG_MAX__ - 1LL, unsigned long long: 0ULL, \
    float: -__builtin_inff(), double: -__builtin_inf(), long double: -__builtin_infl())
#define __CAPE_HIGHEST(x) _Generic((x), \
    _Bool: 1, \
    char: ((char)-1 < 0 ? __SCHAR_MAX__ : __SCHAR_MAX__ * 2 + 1), \
    signed char: __SCHAR_MAX__, unsigned char: __SCHAR_MAX__ * 2 + 1, \
    short: __SHRT_MAX__, unsigned short: __SHRT_MAX__ * 2 + 1, \
    int: __INT_MAX__, unsigned int: __INT_MAX__ * 2U + 1U, \
    long: __LONG_MAX__, unsigned long: __LONG_MAX__ * 2UL + 1UL, \
    long long: __LONG_LONG_MAX__, unsigned long long: __LONG_LONG_MAX__ * 2ULL + 1ULL, \
    float: __builtin_inff(), double: __builtin_inf(), long double: __builtin_infl())
int omp_get_thread_num(void);
/* capecc: combine functions of `atomic`/`critical` updates, chosen by the updated type */
#define __CAPE_DEFINE_COMBINER(name, T, expr) \
    static __attribute__((unused)) void __cape_combine_##name(void *__cape_inout, const void *__cape_in) \
    { T *__cape_a = __cape_inout; const T *__cape_b = __cape_in; *__cape_a = (expr); }
#define __CAPE_DEFINE_INTEGER_COMBINERS(op, expr) \
    __CAPE_DEFINE_COMBINER(op##_b, _Bool, expr) __CAPE_DEFINE_COMBINER(op##_c, char, expr) \
    __CAPE_DEFINE_COMBINER(op##_sc, signed char, expr) __CAPE_DEFINE_COMBINER(op##_uc, unsigned char, expr) \
    __CAPE_DEFINE_COMBINER(op##_s, short, expr) __CAPE_DEFINE_COMBINER(op##_us, unsigned short, expr) \
    __CAPE_DEFINE_COMBINER(op##_i, int, expr) __CAPE_DEFINE_COMBINER(op##_ui, unsigned int, expr) \
    __CAPE_DEFINE_COMBINER(op##_l, long, expr) __CAPE_DEFINE_COMBINER(op##_ul, unsigned long, expr) \
    __CAPE_DEFINE_COMBINER(op##_ll, long long, expr) __CAPE_DEFINE_COMBINER(op##_ull, unsigned long long, expr)
#define __CAPE_DEFINE_REAL_COMBINERS(op, expr) \
    __CAPE_DEFINE_INTEGER_COMBINERS(op, expr) __CAPE_DEFINE_COMBINER(op##_f, float, expr) \
    __CAPE_DEFINE_COMBINER(op##_d, double, expr) __CAPE_DEFINE_COMBINER(op##_ld, long double, expr)
__CAPE_DEFINE_REAL_COMBINERS(ADD, *__cape_a + *__cape_b)
__CAPE_DEFINE_REAL_COMBINERS(SUB, *__cape_a - *__cape_b)
__CAPE_DEFINE_REAL_COMBINERS(MUL, *__cape_a * *__cape_b)
__CAPE_DEFINE_REAL_COMBINERS(MAX, *__cape_b > *__cape_a ? *__cape_b : *__cape_a)
__CAPE_DEFINE_REAL_COMBINERS(MIN, *__cape_b < *__cape_a ? *__cape_b : *__cape_a)
__CAPE_DEFINE_INTEGER_COMBINERS(AND, *__cape_a & *__cape_b)
__CAPE_DEFINE_INTEGER_COMBINERS(OR, *__cape_a | *__cape_b)
__CAPE_DEFINE_INTEGER_COMBINERS(XOR, *__cape_a ^ *__cape_b)
#define __CAPE_INTEGER_COMBINER(op, x) \
    _Bool: __cape_combine_##op##_b, char: __cape_combine_##op##_c, \
    signed char: __cape_combine_##op##_sc, unsigned char: __cape_combine_##op##_uc, \
    short: __cape_combine_##op##_s, unsigned short: __cape_combine_##op##_us, \
    int: __cape_combine_##op##_i, unsigned int: __cape_combine_##op##_ui, \
    long: __cape_combine_##op##_l, unsigned long: __cape_combine_##op##_ul, \
    long long: __cape_combine_##op##_ll, unsigned long long: __cape_combine_##op##_ull
#define __CAPE_REAL_COMBINER(op, x) _Generic((x), __CAPE_INTEGER_COMBINER(op, x), \
    float: __cape_combine_##op##_f, double: __cape_combine_##op##_d, long double: __cape_combine_##op##_ld)
#define __CAPE_COMBINER_ADD(x) __CAPE_REAL_COMBINER(ADD, x)
#define __CAPE_COMBINER_SUB(x) __CAPE_REAL_COMBINER(SUB, x)
#define __CAPE_COMBINER_MUL(x) __CAPE_REAL_COMBINER(MUL, x)
#define __CAPE_COMBINER_MAX(x) __CAPE_REAL_COMBINER(MAX, x)
#define __CAPE_COMBINER_MIN(x) __CAPE_REAL_COMBINER(MIN, x)
#define __CAPE_COMBINER_AND(x) _Generic((x), __CAPE_INTEGER_COMBINER(AND, x))
#define __CAPE_COMBINER_OR(x) _Generic((x), __CAPE_INTEGER_COMBINER(OR, x))
#define __CAPE_COMBINER_XOR(x) _Generic((x), __CAPE_INTEGER_COMBINER(XOR, x))
#include <omp.h>

int hist[8];
long total;
int tp;

struct point { int x, y; } pt;

void orphan(int *v, int n)
{
    { /* capecc: #pragma omp for at constructs.c:11 */
    int i;
    __typeof__(i) __cape_lb0 = (0);
    __typeof__(__cape_lb0 + ((n))) __cape_ub0 = (n);
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
            v[i] = i;
        }
    __cape_loop_end(&__cape_l, 1);
}
}

/* capecc: data of the #pragma omp parallel at constructs.c:21 */
struct __cape_data_2 {
    void *v;
    void *best;
    void *worst;
    void *last;
    void *shared_copy;
    void *d;
    void *pp;
};
static void __cape_fn_2(void *__cape_arg);
int __cape_user_main(void)
{
    int v[16], best = 0, worst = 100, last = 0, shared_copy = 0;
    double d = 1.0;
    struct point *pp = &pt;
    {
        /* capecc: #pragma omp parallel at constructs.c:21 */
        struct __cape_data_2 __cape_data = {
            .v = (void *)&v,
            .best = (void *)&best,
            .worst = (void *)&worst,
            .last = (void *)&last,
            .shared_copy = (void *)&shared_copy,
            .d = (void *)&d,
            .pp = (void *)&pp,
        };
        __cape_parallel(__cape_fn_2, &__cape_data, (int)(4), !!(1),
                        __CAPE_STACK_POINTER());
    }
    return (int)total + best + worst + last + shared_copy + (int)d;
}

/* capecc: #pragma omp parallel at constructs.c:21 */
static void __cape_fn_2(void *__cape_arg)
{
    struct __cape_data_2 *__cape_d = (struct __cape_data_2 *)__cape_arg;
    int (*__cape_shared_v)[16] = __cape_d->v;
    int (*__cape_shared_best) = __cape_d->best;
    int (*__cape_shared_worst) = __cape_d->worst;
    int (*__cape_shared_last) = __cape_d->last;
    int (*__cape_shared_shared_copy) = __cape_d->shared_copy;
    double (*__cape_shared_d) = __cape_d->d;
    struct point  *(*__cape_shared_pp) = __cape_d->pp;
    __cape_copyin(&tp, sizeof tp);
    {
        int me = omp_get_thread_num();
        orphan((*__cape_shared_v), 16);
__cape_barrier();
        { /* capecc: #pragma omp for at constructs.c:26 */
    __typeof__((*__cape_shared_last)) *__cape_orig_last = &(*__cape_shared_last);
    int i;
    __typeof__(i) __cape_lb0 = (0);
    __typeof__(__cape_lb0 + ((16))) __cape_ub0 = (16);
    __typeof__(__cape_ub0) __cape_lbc0 = __cape_lb0;
    long long __cape_step0 = 1;
    unsigned long long __cape_n0 = 0;
    if (__cape_step0 > 0 && __cape_lbc0 < __cape_ub0)
        __cape_n0 = ((unsigned long long)__cape_ub0 - (unsigned long long)__cape_lbc0 - 1)
                   / (unsigned long long)__cape_step0 + 1;
    unsigned long long __cape_n = __cape_n0, __cape_lo, __cape_hi, __cape_k;
    __cape_loop __cape_l;
    __typeof__(*__cape_orig_last) last;
    __cape_loop_init(&__cape_l, __cape_n, CAPE_SCHED_DYNAMIC, (long long)(2));
    while (__cape_loop_next(&__cape_l, &__cape_lo, &__cape_hi))
        for (__cape_k = __cape_lo; __cape_k < __cape_hi; __cape_k++) {
            i = (__typeof__(i))((unsigned long long)__cape_lb0
                                            + __cape_k * (unsigned long long)__cape_step0);
            last = (*__cape_shared_v)[i];
        }
    if (__cape_loop_is_last(&__cape_l)) {
        __builtin_memcpy(__cape_orig_last, &last, sizeof last);
    }
    __cape_loop_end(&__cape_l, 0);
}
        { /* capecc: #pragma omp sections at constructs.c:29 */
    unsigned long long __cape_lo, __cape_hi, __cape_k;
    __cape_loop __cape_l;
    __cape_loop_init(&__cape_l, 2ULL, CAPE_SCHED_STATIC, 1);
    while (__cape_loop_next(&__cape_l, &__cape_lo, &__cape_hi))
        for (__cape_k = __cape_lo; __cape_k < __cape_hi; __cape_k++)
            switch (__cape_k) {
            case 0:
                {hist[0] = 1;}
                break;
            case 1:
                {hist[1] = 2;}
                break;
            }
    __cape_loop_end(&__cape_l, 1);
}
        { /* capecc: #pragma omp single at constructs.c:36 */
    if (__cape_single_begin()) {
        (*__cape_shared_shared_copy) = 5;
    }
    __cape_copyprivate(&(*__cape_shared_shared_copy), sizeof (*__cape_shared_shared_copy));
    __cape_single_end(0);
}
        if (omp_get_thread_num() == (0)) /* capecc: #pragma omp master at constructs.c:38 */
    hist[2] = 3;
        if (omp_get_thread_num() == (1)) /* capecc: #pragma omp masked at constructs.c:40 */
    hist[3] = 4;
        { /* capecc: #pragma omp critical at constructs.c:42: mergeable updates */
    { __typeof__(total) __cape_v = (me); __cape_atomic_update(&(total), &__cape_v, sizeof __cape_v, __CAPE_COMBINER_ADD(total)); }
    { __typeof__(hist[me % 8]) __cape_v = (1); __cape_atomic_update(&(hist[me % 8]), &__cape_v, sizeof __cape_v, __CAPE_COMBINER_ADD(hist[me % 8])); }
    { __typeof__(pt.x) __cape_v = (1); __cape_atomic_update(&(pt.x), &__cape_v, sizeof __cape_v, __CAPE_COMBINER_SUB(pt.x)); }
    { __typeof__((*__cape_shared_pp)->y) __cape_v = (2); __cape_atomic_update(&((*__cape_shared_pp)->y), &__cape_v, sizeof __cape_v, __CAPE_COMBINER_MUL((*__cape_shared_pp)->y)); }
    { __typeof__((*__cape_shared_d)) __cape_v = (0.5); __cape_atomic_update(&((*__cape_shared_d)), &__cape_v, sizeof __cape_v, __CAPE_COMBINER_ADD((*__cape_shared_d))); }
    { __typeof__((*__cape_shared_best)) __cape_v = (me); __cape_atomic_update(&((*__cape_shared_best)), &__cape_v, sizeof __cape_v, __CAPE_COMBINER_MAX((*__cape_shared_best))); }
    { __typeof__((*__cape_shared_worst)) __cape_v = (me); __cape_atomic_update(&((*__cape_shared_worst)), &__cape_v, sizeof __cape_v, __CAPE_COMBINER_MIN((*__cape_shared_worst))); }
}
        { /* capecc: #pragma omp atomic at constructs.c:52: mergeable updates */
    { __typeof__(total) __cape_v = (1); __cape_atomic_update(&(total), &__cape_v, sizeof __cape_v, __CAPE_COMBINER_ADD(total)); }
}
        { /* capecc: #pragma omp atomic at constructs.c:54: mergeable updates */
    { __typeof__(hist[4]) __cape_v = (1); __cape_atomic_update(&(hist[4]), &__cape_v, sizeof __cape_v, __CAPE_COMBINER_SUB(hist[4])); }
}
        { /* capecc: #pragma omp atomic at constructs.c:56: mergeable updates */
    { __typeof__(hist[5]) __cape_v = (3); __cape_atomic_update(&(hist[5]), &__cape_v, sizeof __cape_v, __CAPE_COMBINER_XOR(hist[5])); }
}
        { /* capecc: #pragma omp atomic at constructs.c:58: a plain access, the last writer wins */
me = hist[6];
}
        { /* capecc: #pragma omp atomic at constructs.c:60: a plain access, the last writer wins */
hist[7] = me;
}
/* capecc: #pragma omp flush: merges happen at barriers */
/* capecc: #pragma omp taskwait: no tasks exist */
    }
}


/* capecc: #pragma omp threadprivate(tp) at constructs.c:6 */
__attribute__((constructor)) static void __cape_tp_init_1(void)
{
    __cape_threadprivate(&tp, sizeof tp);
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
