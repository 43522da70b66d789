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
/* capecc: data of the #pragma omp parallel at default_none_loops.c:5 */
struct __cape_data_1 {
    void *i;
    void *j;
    void *n;
};
static void __cape_fn_1(void *__cape_arg);
int __cape_user_main(void)
{
    int i, j, n = 10;
    {
        /* capecc: #pragma omp parallel at default_none_loops.c:5 */
        {
            /* the shared objects the region uses, named in the runtime's reports */
            const struct __cape_object __cape_objects_1[] = {
            { (const void *)&i, sizeof i, { 0, 0, 0 }, 0, "i", "int i", "default_none_loops.c:4" },
            { (const void *)&j, sizeof j, { 0, 0, 0 }, 0, "j", "int j", "default_none_loops.c:4" },
            { (const void *)&n, sizeof n, { 0, 0, 0 }, 0, "n", "int n", "default_none_loops.c:4" },
            };
            __cape_region_objects("parallel at default_none_loops.c:5", __cape_objects_1, 3);
        }
        struct __cape_data_1 __cape_data = {
            .i = (void *)&i,
            .j = (void *)&j,
            .n = (void *)&n,
        };
        /* what the region may write */
        const struct __cape_span __cape_scope_1[] = {
            { (const void *)&a, sizeof a },
            { (const void *)&i, sizeof i },
            { (const void *)&j, sizeof j },
        };
        __cape_parallel_in_scope(__cape_fn_1, &__cape_data, 0, 1,
                                 __CAPE_STACK_POINTER(), __cape_scope_1, 3);
    }
    return a[3];
}
#pragma GCC diagnostic pop
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpragmas"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wsign-conversion"

/* capecc: #pragma omp parallel at default_none_loops.c:5 */
static void __cape_fn_1(void *__cape_arg)
{
    struct __cape_data_1 *__cape_d = (struct __cape_data_1 *)__cape_arg;
    int (*__cape_shared_i) = __cape_d->i;
    int (*__cape_shared_j) = __cape_d->j;
    int (*__cape_shared_n) = __cape_d->n;
    __typeof__(*__cape_shared_n) __cape_value_n = *__cape_shared_n; /* the region only reads it */
    {
        { /* capecc: #pragma omp for at default_none_loops.c:7 */
            __CAPE_COPY_BEGIN __typeof__((*__cape_shared_i)) i __attribute__((unused)); __CAPE_COPY_END
            __CAPE_COPY_BEGIN __typeof__((*__cape_shared_j)) j __attribute__((unused)); __CAPE_COPY_END
            __typeof__(i) __cape_lb0 = (0);
            __typeof__(__cape_lb0 + ((__cape_value_n))) __cape_ub0 = (__cape_value_n);
            __typeof__(__cape_ub0) __cape_lbc0 = __cape_lb0;
            long long __cape_step0 = 1;
            unsigned long long __cape_n0 = 0;
            if (__cape_step0 > 0 && __cape_lbc0 < __cape_ub0)
                __cape_n0 = ((unsigned long long)__cape_ub0 - (unsigned long long)__cape_lbc0 - 1)
                           / (unsigned long long)__cape_step0 + 1;
            __typeof__(j) __cape_lb1 = (0);
            __typeof__(__cape_lb1 + ((1))) __cape_ub1 = (1);
            __typeof__(__cape_ub1) __cape_lbc1 = __cape_lb1;
            long long __cape_step1 = 1;
            unsigned long long __cape_n1 = 0;
            if (__cape_step1 > 0 && __cape_lbc1 < __cape_ub1)
                __cape_n1 = ((unsigned long long)__cape_ub1 - (unsigned long long)__cape_lbc1 - 1)
                           / (unsigned long long)__cape_step1 + 1;
            unsigned long long __cape_d1;
            unsigned long long __cape_n = __cape_n0 * __cape_n1, __cape_lo, __cape_hi, __cape_end, __cape_k;
            __cape_loop __cape_l;
            __cape_loop_init(&__cape_l, __cape_n, CAPE_SCHED_STATIC, 0);
            if (__cape_loop_next(&__cape_l, &__cape_lo, &__cape_hi))
                for (__cape_k = __cape_lo, __cape_end = __cape_hi,
                     i = (__typeof__(i))((unsigned long long)__cape_lb0
                         + ((__cape_lo / __cape_n1) % __cape_n0) * (unsigned long long)__cape_step0),
                     __cape_d1 = __cape_lo % __cape_n1,
                     j = (__typeof__(j))((unsigned long long)__cape_lb1
                         + __cape_d1 * (unsigned long long)__cape_step1);
                     __cape_k < __cape_end;
                     __cape_k++, (++__cape_d1 < __cape_n1
                         ? (void)(j += (__typeof__(j - j))__cape_step1)
                         : (void)(__cape_d1 = 0, j = __cape_lb1, (void)(i += (__typeof__(i - i))__cape_step0)))) {
                    a[i] = i + j;
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
        { (const void *)&a, sizeof a, { sizeof (a)[0], 0, 0 }, 0, "a", "int a[10]", "default_none_loops.c:1" },
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
