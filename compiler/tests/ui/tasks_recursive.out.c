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



__CAPE_GENERATED_BEGIN
long fib(int n)
{
    long x, y;
    if (n < 2)
        return n;
    if (__cape_task_begin(0)) {
    { /* capecc: #pragma omp task at tasks_recursive.c:8: a task */
                x = fib(n - 1);
        }

        __cape_task_result(&x, sizeof x);
        __cape_task_end();
    }
    if (__cape_task_begin(0)) {
    { /* capecc: #pragma omp task at tasks_recursive.c:10: a task */
                y = fib(n - 2);
        }

        __cape_task_result(&y, sizeof y);
        __cape_task_end();
    }
    __cape_taskwait();
    return x + y;
}
#pragma GCC diagnostic pop



__CAPE_GENERATED_BEGIN
long noisy(int n)
{
    long x;
    printf("%d\n", n);
    if (__cape_task_begin(0)) {
    { /* capecc: #pragma omp task at tasks_recursive.c:20: a task */
                x = n > 1 ? noisy(n - 1) : 0;
        }

        __cape_task_result(&x, sizeof x);
        __cape_task_end();
    }
    __cape_taskwait();
    return x + n;
}
#pragma GCC diagnostic pop



__CAPE_GENERATED_BEGIN

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
/* capecc: data of the #pragma omp parallel at tasks_recursive.c:29 */
struct __cape_data_1 {
    void *a;
    void *b;
};
static void __cape_fn_1(void *__cape_arg);
int __cape_user_main(void)
{
    long a = 0, b = 0;
    {
        /* capecc: #pragma omp parallel at tasks_recursive.c:29 */
        {
            /* the shared objects the region uses, named in the runtime's reports */
            const struct __cape_object __cape_objects_1[] = {
            { (const void *)&a, sizeof a, { 0, 0, 0 }, 0, "a", "long a", "tasks_recursive.c:28" },
            { (const void *)&b, sizeof b, { 0, 0, 0 }, 0, "b", "long b", "tasks_recursive.c:28" },
            };
            __cape_region_objects("parallel at tasks_recursive.c:29", __cape_objects_1, 2);
        }
        struct __cape_data_1 __cape_data = {
            .a = (void *)&a,
            .b = (void *)&b,
        };
        __cape_parallel(__cape_fn_1, &__cape_data, 0, 1,
                        __CAPE_STACK_POINTER());
    }
    printf("%ld %ld\n", a, b);
    return 0;
}
#pragma GCC diagnostic pop
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpragmas"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wsign-conversion"

/* capecc: #pragma omp parallel at tasks_recursive.c:29 */
static void __cape_fn_1(void *__cape_arg)
{
    struct __cape_data_1 *__cape_d = (struct __cape_data_1 *)__cape_arg;
    long (*__cape_shared_a) = __cape_d->a;
    long (*__cape_shared_b) = __cape_d->b;
    {
        { /* capecc: #pragma omp single at tasks_recursive.c:31 */
            if (__cape_task_single_begin()) {
                (*__cape_shared_a) = fib(20);
            }
            __cape_single_end(0);
        }
        { /* capecc: #pragma omp single at tasks_recursive.c:33 */
            if (__cape_single_begin()) {
                (*__cape_shared_b) = noisy(5);
            }
            __cape_single_end(0);
        }
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
