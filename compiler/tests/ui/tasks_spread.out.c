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

double a[64];

__CAPE_GENERATED_BEGIN

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
/* capecc: data of the #pragma omp parallel at tasks_spread.c:7 */
struct __cape_data_1 {
    char __cape_none;
};
static void __cape_fn_1(void *__cape_arg);
int __cape_user_main(void)
{
    {
        /* capecc: #pragma omp parallel at tasks_spread.c:7 */
        __cape_region_objects("parallel at tasks_spread.c:7", (const struct __cape_object *)0, 0);
        struct __cape_data_1 __cape_data = {
            .__cape_none = 0,
        };
        /* what the region may write */
        const struct __cape_span __cape_scope_1[] = {
            { (const void *)&a, sizeof a },
        };
        __cape_parallel_in_scope(__cape_fn_1, &__cape_data, 0, 1,
                                 __CAPE_STACK_POINTER(), __cape_scope_1, 1);
    }
    printf("%f\n", a[0] + a[63]);
    return 0;
}
#pragma GCC diagnostic pop
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpragmas"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wsign-conversion"

/* capecc: #pragma omp parallel at tasks_spread.c:7 */
static void __cape_fn_1(void *__cape_arg)
{
    struct __cape_data_1 *__cape_d = (struct __cape_data_1 *)__cape_arg;
    (void)__cape_d;
    {
        { /* capecc: #pragma omp single at tasks_spread.c:9 */
            if (__cape_task_single_begin()) {
                for (int i = 0; i < 64; i++) {
                    if (__cape_task_begin(0)) {
                    {
                            __typeof__(i) *__cape_orig_i = &i;
                        { /* capecc: #pragma omp task at tasks_spread.c:11: a task */
                                __CAPE_COPY_BEGIN __typeof__(*__cape_orig_i) i __attribute__((unused)); __CAPE_COPY_END
                                __CAPE_CLAUSE_COPY(&i, __cape_orig_i, sizeof i);
                                a[i] = i * 2.0;
                        }
                        }
                        __cape_task_end();
                    }
                }
            }
            __cape_single_end(0);
        }
        { /* capecc: #pragma omp single at tasks_spread.c:14 */
            if (__cape_single_begin()) {
                {
                    printf("creating\n");
                    if (__cape_task_begin(0)) {
                    { /* capecc: #pragma omp task at tasks_spread.c:17: a task */
                                a[0] += 1;
                        }

                        __cape_task_end();
                    }
                }
            }
            __cape_single_end(0);
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
        { (const void *)&a, sizeof a, { sizeof (a)[0], 0, 0 }, 0, "a", "double a[64]", "tasks_spread.c:4" },
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
