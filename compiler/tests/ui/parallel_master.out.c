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


int a[100];


__CAPE_GENERATED_BEGIN

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
static void __cape_combine_2_sum(void *__cape_inout, const void *__cape_in);
/* capecc: data of the #pragma omp parallel master at parallel_master.c:8 */
struct __cape_data_1 {
    void *p;
    void *fp;
    void *sum;
};
static void __cape_fn_1(void *__cape_arg);
/* capecc: data of the #pragma omp parallel masked at parallel_master.c:14 */
struct __cape_data_3 {
    void *sum;
    void *f;
};
static void __cape_fn_3(void *__cape_arg);
int __cape_user_main(void)
{
    int p = 1, fp = 2, sum = 0, f = 1;
    {
        /* capecc: #pragma omp parallel master at parallel_master.c:8 */
        {
            /* the shared objects the region uses, named in the runtime's reports */
            const struct __cape_object __cape_objects_1[] = {
            { (const void *)&p, sizeof p, { 0, 0, 0 }, 0, "p", "int p", "parallel_master.c:7" },
            { (const void *)&fp, sizeof fp, { 0, 0, 0 }, 0, "fp", "int fp", "parallel_master.c:7" },
            { (const void *)&sum, sizeof sum, { 0, 0, 0 }, 0, "sum", "int sum", "parallel_master.c:7" },
            };
            __cape_region_objects("parallel master at parallel_master.c:8", __cape_objects_1, 3);
        }
        struct __cape_data_1 __cape_data = {
            .p = (void *)&p,
            .fp = (void *)&fp,
            .sum = (void *)&sum,
        };
        /* what the region may write */
        const struct __cape_span __cape_scope_1[] = {
            { (const void *)&sum, sizeof sum },
        };
        __cape_parallel_in_scope(__cape_fn_1, &__cape_data, (int)(4), 1,
                                 __CAPE_STACK_POINTER(), __cape_scope_1, 1);
    }
    {
        /* capecc: #pragma omp parallel masked at parallel_master.c:14 */
        {
            /* the shared objects the region uses, named in the runtime's reports */
            const struct __cape_object __cape_objects_3[] = {
            { (const void *)&sum, sizeof sum, { 0, 0, 0 }, 0, "sum", "int sum", "parallel_master.c:7" },
            { (const void *)&f, sizeof f, { 0, 0, 0 }, 0, "f", "int f", "parallel_master.c:7" },
            };
            __cape_region_objects("parallel masked at parallel_master.c:14", __cape_objects_3, 2);
        }
        struct __cape_data_3 __cape_data = {
            .sum = (void *)&sum,
            .f = (void *)&f,
        };
        /* what the region may write */
        const struct __cape_span __cape_scope_3[] = {
            { (const void *)&a, sizeof a },
        };
        __cape_parallel_in_scope(__cape_fn_3, &__cape_data, 0, !!(sum > 10),
                                 __CAPE_STACK_POINTER(), __cape_scope_3, 1);
    }
    return sum + a[0];
}
#pragma GCC diagnostic pop
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpragmas"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wsign-conversion"

/* capecc: reduction(+: sum) of the #pragma omp parallel master at parallel_master.c:8 */
static void __cape_combine_2_sum(void *__cape_inout, const void *__cape_in)
{
    int (*__cape_a) = __cape_inout;
    int (*__cape_b) = (void *)__cape_in;
    *__cape_a = *__cape_a + *__cape_b;
}

/* capecc: #pragma omp parallel master at parallel_master.c:8 */
static void __cape_fn_1(void *__cape_arg)
{
    struct __cape_data_1 *__cape_d = (struct __cape_data_1 *)__cape_arg;
    int (*__cape_shared_p) = __cape_d->p;
    int (*__cape_shared_fp) = __cape_d->fp;
    int (*__cape_shared_sum) = __cape_d->sum;
    __CAPE_COPY_BEGIN __typeof__(*__cape_shared_p) p __attribute__((unused)); __CAPE_COPY_END
    __CAPE_COPY_BEGIN __typeof__(*__cape_shared_fp) fp __attribute__((unused)); __CAPE_COPY_END
    __CAPE_CLAUSE_COPY(&fp, __cape_d->fp, sizeof fp);
    __CAPE_COPY_BEGIN __typeof__(*__cape_shared_sum) sum __attribute__((unused)) = 0; __CAPE_COPY_END
    if (__cape_master_begin(0)) { /* capecc: #pragma omp parallel master at parallel_master.c:8 */
        {
            p = fp;
            for (int i = 0; i < 100; i++)
                sum += a[i] + p;
        }
        __cape_master_end();
    }

    { /* a copy's address goes to the runtime: the private copy's never escapes, so the
         backend keeps it in a register across the loop (stores through pointers of its type
         cannot be taken for stores to it) */
        __typeof__(sum) __cape_partial_sum = sum;
        __cape_reduce((void *)__cape_d->sum, (const void *)&__cape_partial_sum, sizeof sum, __cape_combine_2_sum);
    }
}

/* capecc: #pragma omp parallel masked at parallel_master.c:14 */
static void __cape_fn_3(void *__cape_arg)
{
    struct __cape_data_3 *__cape_d = (struct __cape_data_3 *)__cape_arg;
    int (*__cape_shared_sum) = __cape_d->sum;
    int (*__cape_shared_f) = __cape_d->f;
    if (__cape_master_begin((*__cape_shared_f) + 1)) { /* capecc: #pragma omp parallel masked at parallel_master.c:14 */
        a[0] = (*__cape_shared_sum);
        __cape_master_end();
    }

}
#pragma GCC diagnostic pop
#pragma GCC diagnostic pop


__CAPE_GENERATED_BEGIN

/* capecc: the names of this file's shared objects, for the runtime's reports */
__attribute__((constructor)) static void __cape_file_objects(void)
{
    static const struct __cape_object __cape_file_objects_table[] = {
        { (const void *)&a, sizeof a, { sizeof (a)[0], 0, 0 }, 0, "a", "int a[100]", "parallel_master.c:3" },
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
