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
#include <string.h>


int x[100];
double y[100];
char line[100][80];


__CAPE_GENERATED_BEGIN
void orphaned(void)
{
    { /* capecc: #pragma omp for at warn_library_state_in_region.c:11 */
        int i;
        __typeof__(i) __cape_lb0 = (0);
        __typeof__(__cape_lb0 + ((100))) __cape_ub0 = (100);
        __typeof__(__cape_ub0) __cape_lbc0 = __cape_lb0;
        long long __cape_step0 = 1;
        unsigned long long __cape_n0 = 0;
        if (__cape_step0 > 0 && __cape_lbc0 < __cape_ub0)
            __cape_n0 = ((unsigned long long)__cape_ub0 - (unsigned long long)__cape_lbc0 - 1)
                       / (unsigned long long)__cape_step0 + 1;
        unsigned long long __cape_n = __cape_n0, __cape_lo, __cape_hi, __cape_end, __cape_k;
        __cape_loop __cape_l;
        __cape_loop_init(&__cape_l, __cape_n, CAPE_SCHED_STATIC, 0);
        if (__cape_loop_next(&__cape_l, &__cape_lo, &__cape_hi))
            for (__cape_k = __cape_lo, __cape_end = __cape_hi,
                 i = (__typeof__(i))((unsigned long long)__cape_lb0
                                             + __cape_lo * (unsigned long long)__cape_step0);
                 __cape_k < __cape_end;
                 __cape_k++, i += (__typeof__(i - i))__cape_step0) {
                y[i] = drand48();
            }
        __cape_loop_end(&__cape_l, 0);
    }
}
#pragma GCC diagnostic pop



__CAPE_GENERATED_BEGIN

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
/* capecc: data of the #pragma omp parallel for at warn_library_state_in_region.c:21 */
struct __cape_data_1 {
    char __cape_none;
};
static void __cape_fn_1(void *__cape_arg);
/* capecc: data of the #pragma omp parallel at warn_library_state_in_region.c:24 */
struct __cape_data_2 {
    void *fp;
    void *text;
};
static void __cape_fn_2(void *__cape_arg);
int __cape_user_main(void)
{
    FILE *fp = __cape_fopen("input.txt", "r");
    char text[] = "a b c";
    srand(1234);
    {
        /* capecc: #pragma omp parallel for at warn_library_state_in_region.c:21 */
        __cape_region_objects("parallel for at warn_library_state_in_region.c:21", (const struct __cape_object *)0, 0);
        struct __cape_data_1 __cape_data = {
            .__cape_none = 0,
        };
        __cape_parallel(__cape_fn_1, &__cape_data, 0, 1,
                        __CAPE_STACK_POINTER());
    }
    {
        /* capecc: #pragma omp parallel at warn_library_state_in_region.c:24 */
        {
            /* the shared objects the region uses, named in the runtime's reports */
            const struct __cape_object __cape_objects_2[] = {
            { (const void *)&fp, sizeof fp, { 0, 0, 0 }, 0, "fp", "FILE *fp", "warn_library_state_in_region.c:18" },
            };
            __cape_region_objects("parallel at warn_library_state_in_region.c:24", __cape_objects_2, 1);
        }
        struct __cape_data_2 __cape_data = {
            .fp = (void *)&fp,
            .text = (void *)&text,
        };
        __cape_parallel(__cape_fn_2, &__cape_data, 0, 1,
                        __CAPE_STACK_POINTER());
    }
    printf("%d %d\n", x[0], rand());
    return 0;
}
#pragma GCC diagnostic pop
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpragmas"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wsign-conversion"

/* capecc: #pragma omp parallel for at warn_library_state_in_region.c:21 */
static void __cape_fn_1(void *__cape_arg)
{
    struct __cape_data_1 *__cape_d = (struct __cape_data_1 *)__cape_arg;
    (void)__cape_d;
    { /* capecc: #pragma omp parallel for at warn_library_state_in_region.c:21 */
        int i;
        __typeof__(i) __cape_lb0 = (0);
        __typeof__(__cape_lb0 + ((100))) __cape_ub0 = (100);
        __typeof__(__cape_ub0) __cape_lbc0 = __cape_lb0;
        long long __cape_step0 = 1;
        unsigned long long __cape_n0 = 0;
        if (__cape_step0 > 0 && __cape_lbc0 < __cape_ub0)
            __cape_n0 = ((unsigned long long)__cape_ub0 - (unsigned long long)__cape_lbc0 - 1)
                       / (unsigned long long)__cape_step0 + 1;
        unsigned long long __cape_n = __cape_n0, __cape_lo, __cape_hi, __cape_end, __cape_k;
        __cape_loop __cape_l;
        __cape_loop_init(&__cape_l, __cape_n, CAPE_SCHED_STATIC, 0);
        if (__cape_loop_next(&__cape_l, &__cape_lo, &__cape_hi))
            for (__cape_k = __cape_lo, __cape_end = __cape_hi,
                 i = (__typeof__(i))((unsigned long long)__cape_lb0
                                             + __cape_lo * (unsigned long long)__cape_step0);
                 __cape_k < __cape_end;
                 __cape_k++, i += (__typeof__(i - i))__cape_step0) {
                x[i] = rand() % 1000;
            }
        __cape_loop_end(&__cape_l, 1);
    }

}

/* capecc: #pragma omp parallel at warn_library_state_in_region.c:24 */
static void __cape_fn_2(void *__cape_arg)
{
    struct __cape_data_2 *__cape_d = (struct __cape_data_2 *)__cape_arg;
    FILE *(*__cape_shared_fp) = __cape_d->fp;
    __typeof__(*__cape_shared_fp) __cape_value_fp = *__cape_shared_fp; /* the region only reads it */
    char (*__cape_shared_text)[] = __cape_d->text;
    {
        char *tok = strtok((*__cape_shared_text), " ");
        if (tok)
            x[0] = tok[0];
        { /* capecc: #pragma omp for at warn_library_state_in_region.c:29 */
            int i;
            __typeof__(i) __cape_lb0 = (0);
            __typeof__(__cape_lb0 + ((100))) __cape_ub0 = (100);
            __typeof__(__cape_ub0) __cape_lbc0 = __cape_lb0;
            long long __cape_step0 = 1;
            unsigned long long __cape_n0 = 0;
            if (__cape_step0 > 0 && __cape_lbc0 < __cape_ub0)
                __cape_n0 = ((unsigned long long)__cape_ub0 - (unsigned long long)__cape_lbc0 - 1)
                           / (unsigned long long)__cape_step0 + 1;
            unsigned long long __cape_n = __cape_n0, __cape_lo, __cape_hi, __cape_end, __cape_k;
            __cape_loop __cape_l;
            __cape_loop_init(&__cape_l, __cape_n, CAPE_SCHED_STATIC, 0);
            if (__cape_loop_next(&__cape_l, &__cape_lo, &__cape_hi))
                for (__cape_k = __cape_lo, __cape_end = __cape_hi,
                     i = (__typeof__(i))((unsigned long long)__cape_lb0
                                                 + __cape_lo * (unsigned long long)__cape_step0);
                     __cape_k < __cape_end;
                     __cape_k++, i += (__typeof__(i - i))__cape_step0) {
                    fgets(line[i], 80, __cape_value_fp);
                }
            __cape_loop_end(&__cape_l, 0);
        }
        { /* capecc: #pragma omp single at warn_library_state_in_region.c:32 */
            if (__cape_single_begin()) {
                x[1] = random();
            }
            __cape_single_end(0);
        }
        unsigned seed = 7;
        x[2] = rand_r(&seed);
        orphaned();
    }
}
#pragma GCC diagnostic pop
#pragma GCC diagnostic pop


__CAPE_GENERATED_BEGIN

/* capecc: the names of this file's shared objects, for the runtime's reports */
__attribute__((constructor)) static void __cape_file_objects(void)
{
    static const struct __cape_object __cape_file_objects_table[] = {
        { (const void *)&x, sizeof x, { sizeof (x)[0], 0, 0 }, 0, "x", "int x[100]", "warn_library_state_in_region.c:5" },
        { (const void *)&y, sizeof y, { sizeof (y)[0], 0, 0 }, 0, "y", "double y[100]", "warn_library_state_in_region.c:6" },
        { (const void *)&line, sizeof line, { sizeof (line)[0], sizeof (line)[0][0], 0 }, 0, "line", "char line[100][80]", "warn_library_state_in_region.c:7" },
    };
    __cape_objects(__cape_file_objects_table, 3);
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
