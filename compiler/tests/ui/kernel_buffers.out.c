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
#include <unistd.h>


double grid[4096];


__CAPE_GENERATED_BEGIN

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
/* capecc: data of the #pragma omp parallel for at kernel_buffers.c:12 */
struct __cape_data_1 {
    char __cape_none;
};
static void __cape_fn_1(void *__cape_arg);
int __cape_user_main(void)
{
    FILE *f = __cape_fopen("grid.bin", "w+b");
    {
        /* capecc: #pragma omp parallel for at kernel_buffers.c:12 */
        __cape_region_objects("parallel for at kernel_buffers.c:12", (const struct __cape_object *)0, 0);
        struct __cape_data_1 __cape_data = {
            .__cape_none = 0,
        };
        /* what the region may write */
        const struct __cape_span __cape_scope_1[] = {
            { (const void *)&grid, sizeof grid },
        };
        __cape_parallel_in_scope(__cape_fn_1, &__cape_data, 0, 1,
                                 __CAPE_STACK_POINTER(), __cape_scope_1, 1);
    }
    __cape_fwrite(grid, sizeof grid[0], 4096, f);
    rewind(f);
    size_t n = __cape_fread(grid, sizeof grid[0], 4096, f);
    ssize_t w = __cape_write(1, grid, 0);
    ssize_t r = (__cape_stdin_sync(), __cape_read)(0, grid, 0);
    ssize_t pw = __cape_pwrite(fileno(f), grid, 8, 0);
    ssize_t pr = __cape_pread(fileno(f), grid, 8, 0);
    puts("done");
    __cape_fclose(f);
    return (int)(n + w + r + pw + pr) == 0;
}
#pragma GCC diagnostic pop
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpragmas"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wsign-conversion"

/* capecc: #pragma omp parallel for at kernel_buffers.c:12 */
static void __cape_fn_1(void *__cape_arg)
{
    struct __cape_data_1 *__cape_d = (struct __cape_data_1 *)__cape_arg;
    (void)__cape_d;
    { /* capecc: #pragma omp parallel for at kernel_buffers.c:12 */
        int i;
        __typeof__(i) __cape_lb0 = (0);
        __typeof__(__cape_lb0 + ((4096))) __cape_ub0 = (4096);
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
                grid[i] = i;
            }
        __cape_loop_end(&__cape_l, 1);
    }

}
#pragma GCC diagnostic pop
#pragma GCC diagnostic pop


__CAPE_GENERATED_BEGIN

/* capecc: the names of this file's shared objects, for the runtime's reports */
__attribute__((constructor)) static void __cape_file_objects(void)
{
    static const struct __cape_object __cape_file_objects_table[] = {
        { (const void *)&grid, sizeof grid, { sizeof (grid)[0], 0, 0 }, 0, "grid", "double grid[4096]", "kernel_buffers.c:7" },
    };
    __cape_objects(__cape_file_objects_table, 1);
}

/* capecc: this file reads stdin; every rank gets rank 0's input at the latest when the first
   parallel region starts (a read inside `single` or `master` runs on one rank only) */
__attribute__((constructor)) static void __cape_stdin_reader_file(void)
{
    __cape_stdin_reader();
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
