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

__CAPE_GENERATED_BEGIN
static int bump(int by)
{
    static _Thread_local int calls  __asm__("__cape_tp_var_1")= 1;
    static const __SIZE_TYPE__ __cape_tp_size_1 __asm__("__cape_tp_size_1") __attribute__((used)) = sizeof calls; /* capecc: #pragma omp threadprivate(calls) at threadprivate_static_local.c:4 */
    calls += by;
    return calls;
}
#pragma GCC diagnostic pop



__CAPE_GENERATED_BEGIN

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
/* capecc: data of the #pragma omp parallel at threadprivate_static_local.c:14 */
struct __cape_data_3 {
    void *weight;
};
static void __cape_fn_3(void *__cape_arg);
int __cape_user_main(void)
{
    static _Thread_local double weight  __asm__("__cape_tp_var_2")= 2.0;
    static const __SIZE_TYPE__ __cape_tp_size_2 __asm__("__cape_tp_size_2") __attribute__((used)) = sizeof weight; /* capecc: #pragma omp threadprivate(weight) at threadprivate_static_local.c:12 */
    weight = 3.0;
    {
        /* capecc: #pragma omp parallel at threadprivate_static_local.c:14 */
        __cape_region_objects("parallel at threadprivate_static_local.c:14", (const struct __cape_object *)0, 0);
        struct __cape_data_3 __cape_data = {
            .weight = (void *)&weight,
        };
        __cape_parallel(__cape_fn_3, &__cape_data, 0, 1,
                        __CAPE_STACK_POINTER());
    }
    return (int)weight;
}
#pragma GCC diagnostic pop
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpragmas"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wsign-conversion"

/* capecc: #pragma omp parallel at threadprivate_static_local.c:14 */
static void __cape_fn_3(void *__cape_arg)
{
    struct __cape_data_3 *__cape_d = (struct __cape_data_3 *)__cape_arg;
    (void)__cape_d;
    extern _Thread_local char __cape_tls_weight[] __asm__("__cape_tp_var_2");
    double (*__cape_shared_weight) = (void *)__cape_tls_weight; /* this thread's copy */
    __cape_copyin(&(*__cape_shared_weight), sizeof (*__cape_shared_weight));
    {
        (*__cape_shared_weight) += bump(1);
    }
}
#pragma GCC diagnostic pop
#pragma GCC diagnostic pop


__CAPE_GENERATED_BEGIN

/* capecc: #pragma omp threadprivate(calls) at threadprivate_static_local.c:4: a static local, registered at
   start-up on every rank through the assembler names of its (thread-local) object and size */
extern _Thread_local char __cape_tp_var_1_of[] __asm__("__cape_tp_var_1");
extern const __SIZE_TYPE__ __cape_tp_size_1_of __asm__("__cape_tp_size_1");
__attribute__((constructor)) static void __cape_tp_init_1(void)
{
    __cape_threadprivate(__cape_tp_var_1_of, __cape_tp_size_1_of);
}

/* capecc: #pragma omp threadprivate(weight) at threadprivate_static_local.c:12: a static local, registered at
   start-up on every rank through the assembler names of its (thread-local) object and size */
extern _Thread_local char __cape_tp_var_2_of[] __asm__("__cape_tp_var_2");
extern const __SIZE_TYPE__ __cape_tp_size_2_of __asm__("__cape_tp_size_2");
__attribute__((constructor)) static void __cape_tp_init_2(void)
{
    __cape_threadprivate(__cape_tp_var_2_of, __cape_tp_size_2_of);
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
