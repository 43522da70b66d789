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
static int bump(int by)
{
    static int calls = 1;
    static void *const __cape_tp_ref_1[2] __asm__("__cape_tp_ref_1") __attribute__((used)) = { &calls, (void *)sizeof calls }; /* capecc: #pragma omp threadprivate(calls) at threadprivate_static_local.c:4 */
    calls += by;
    return calls;
}

/* capecc: data of the #pragma omp parallel at threadprivate_static_local.c:14 */
struct __cape_data_3 {
    void *weight;
};
static void __cape_fn_3(void *__cape_arg);
int __cape_user_main(void)
{
    static double weight = 2.0;
    static void *const __cape_tp_ref_2[2] __asm__("__cape_tp_ref_2") __attribute__((used)) = { &weight, (void *)sizeof weight }; /* capecc: #pragma omp threadprivate(weight) at threadprivate_static_local.c:12 */
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

/* capecc: #pragma omp parallel at threadprivate_static_local.c:14 */
static void __cape_fn_3(void *__cape_arg)
{
    struct __cape_data_3 *__cape_d = (struct __cape_data_3 *)__cape_arg;
    double (*__cape_shared_weight) = __cape_d->weight;
    __cape_copyin(&(*__cape_shared_weight), sizeof (*__cape_shared_weight));
    {
        (*__cape_shared_weight) += bump(1);
    }
}


/* capecc: #pragma omp threadprivate(calls) at threadprivate_static_local.c:4: a static local, registered at
   start-up on every rank through the address its function records under an assembler name */
extern void *const __cape_tp_ref_1_of[2] __asm__("__cape_tp_ref_1");
__attribute__((constructor)) static void __cape_tp_init_1(void)
{
    __cape_threadprivate(__cape_tp_ref_1_of[0], (__SIZE_TYPE__)__cape_tp_ref_1_of[1]);
}

/* capecc: #pragma omp threadprivate(weight) at threadprivate_static_local.c:12: a static local, registered at
   start-up on every rank through the address its function records under an assembler name */
extern void *const __cape_tp_ref_2_of[2] __asm__("__cape_tp_ref_2");
__attribute__((constructor)) static void __cape_tp_init_2(void)
{
    __cape_threadprivate(__cape_tp_ref_2_of[0], (__SIZE_TYPE__)__cape_tp_ref_2_of[1]);
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
