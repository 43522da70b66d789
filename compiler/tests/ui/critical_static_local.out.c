/* Translated by capecc: OpenMP regions call the capert runtime (capert.h). */
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
#include <stdio.h>

int total;
static int next_id(void)
{
    static int id;
    return ++(*(__typeof__(&(id)))__cape_critical_store(&(id), sizeof(id)));
}
/* capecc: data of the #pragma omp parallel at critical_static_local.c:10 */
struct __cape_data_1 {
    char __cape_none;
};
static void __cape_fn_1(void *__cape_arg);
int __cape_user_main(void)
{
    {
        /* capecc: #pragma omp parallel at critical_static_local.c:10 */
        __cape_region_objects("parallel at critical_static_local.c:10", (const struct __cape_object *)0, 0);
        struct __cape_data_1 __cape_data = {
            .__cape_none = 0,
        };
        __cape_parallel(__cape_fn_1, &__cape_data, 0, 1,
                        __CAPE_STACK_POINTER());
    }
    printf("%d\n", total);
    return 0;
}

/* capecc: #pragma omp parallel at critical_static_local.c:10 */
static void __cape_fn_1(void *__cape_arg)
{
    struct __cape_data_1 *__cape_d = (struct __cape_data_1 *)__cape_arg;
    (void)__cape_d;
    {
        { /* capecc: #pragma omp critical at critical_static_local.c:12: any code, under a lock shared by the ranks */
            __cape_critical_begin("");
        {
                    int v = next_id();
                    (*(__typeof__(&(total)))__cape_critical_store(&(total), sizeof(total)))+= v;
                }
            __cape_critical_end("");
        }
    }
}

/* capecc: this file has critical sections under locks shared by the ranks */
static void __attribute__((constructor)) __cape_critical_used_here(void) { __cape_critical_used(); }

/* capecc: the names of this file's shared objects, for the runtime's reports */
__attribute__((constructor)) static void __cape_file_objects(void)
{
    static const struct __cape_object __cape_file_objects_table[] = {
        { (const void *)&total, sizeof total, { 0, 0, 0 }, 0, "total", "int total", "critical_static_local.c:2" },
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
