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




#include <stdlib.h>

int table[64];

__CAPE_GENERATED_BEGIN
static void sort(int *a, int lo, int hi)
{
    if (hi - lo < 2)
        return;
    int mid = (lo + hi) / 2;
    __cape_task_spawn_point();
    if (__cape_task_begin(0)) {
    { /* capecc: #pragma omp task at tasks_pointers.c:12: a task */
                sort(a, lo, mid);
        }

        __cape_task_end();
    }
    __cape_task_spawn_point();
    if (__cape_task_begin(0)) {
    { /* capecc: #pragma omp task at tasks_pointers.c:14: a task */
                sort(a, mid, hi);
        }

        __cape_task_end();
    }
    __cape_taskwait();
    a[lo] = a[lo] < a[hi - 1] ? a[lo] : a[hi - 1];
}
#pragma GCC diagnostic pop



__CAPE_GENERATED_BEGIN
static void halves(int *a, int n)
{
    if (__cape_task_begin(0)) {
    { /* capecc: #pragma omp task at tasks_pointers.c:22: a task */
                a[0] = n;
        }

        __cape_task_end();
    }
    if (__cape_task_begin(0)) {
    { /* capecc: #pragma omp task at tasks_pointers.c:24: a task */
                a[n - 1] = n;
        }

        __cape_task_end();
    }
__cape_taskwait();
}
#pragma GCC diagnostic pop

static void fill(int *p, int k)
{
    p[k] = k;
}

__CAPE_GENERATED_BEGIN

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
/* capecc: data of the #pragma omp parallel at tasks_pointers.c:36 */
struct __cape_data_1 {
    void *heap;
    void *outer;
};
static void __cape_fn_1(void *__cape_arg);
int __cape_user_main(void)
{
    int *heap = (__cape_alloc_site("malloc at tasks_pointers.c:34"), __cape_malloc)(64 * sizeof *heap);
    int outer[64];
    {
        /* capecc: #pragma omp parallel at tasks_pointers.c:36 */
        {
            /* the shared objects the region uses, named in the runtime's reports */
            const struct __cape_object __cape_objects_1[] = {
            { (const void *)&heap, sizeof heap, { 0, 0, 0 }, sizeof *(heap), "heap", "int *heap", "tasks_pointers.c:34" },
            { (const void *)&outer, sizeof outer, { sizeof (outer)[0], 0, 0 }, 0, "outer", "int outer[64]", "tasks_pointers.c:35" },
            };
            __cape_region_objects("parallel at tasks_pointers.c:36", __cape_objects_1, 2);
        }
        struct __cape_data_1 __cape_data = {
            .heap = (void *)&heap,
            .outer = (void *)&outer,
        };
        __cape_parallel(__cape_fn_1, &__cape_data, 0, 1,
                        __CAPE_STACK_POINTER());
    }
    __cape_free(heap);
    return table[3] + outer[5];
}
#pragma GCC diagnostic pop
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpragmas"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wsign-conversion"

/* capecc: #pragma omp parallel at tasks_pointers.c:36 */
static void __cape_fn_1(void *__cape_arg)
{
    struct __cape_data_1 *__cape_d = (struct __cape_data_1 *)__cape_arg;
    int *(*__cape_shared_heap) = __cape_d->heap;
    __typeof__(*__cape_shared_heap) __cape_value_heap = *__cape_shared_heap; /* the region only reads it */
    int (*__cape_shared_outer)[64] = __cape_d->outer;
    {
        int acc[8] = {0};
        int *pa = acc;
        int *pt = table;
        int *po = (*__cape_shared_outer);
        { /* capecc: #pragma omp single at tasks_pointers.c:42 */
            if (__cape_task_single_begin()) {
                for (int k = 0; k < 64; k++) {
                    if (__cape_task_begin(0)) {
                    { /* capecc: #pragma omp task at tasks_pointers.c:44: a task */
                                pt[k] = k;
                        }

                        __cape_task_end();
                    }
                }
            }
            __cape_single_end(0);
        }
        { /* capecc: #pragma omp single at tasks_pointers.c:47 */
            if (__cape_task_single_begin()) {
                for (int k = 0; k < 64; k++) {
                    if (__cape_task_begin(0)) {
                    { /* capecc: #pragma omp task at tasks_pointers.c:49: a task */
                                po[k] = k;
                        }

                        __cape_task_end();
                    }
                }
            }
            __cape_single_end(0);
        }
        { /* capecc: #pragma omp single at tasks_pointers.c:52 */
            if (__cape_task_single_begin()) {
                sort(__cape_value_heap, 0, 64);
            }
            __cape_single_end(0);
        }
        { /* capecc: #pragma omp single at tasks_pointers.c:54 */
            if (__cape_single_begin()) {
                for (int k = 0; k < 8; k++) {
                    if (__cape_task_begin(0)) {
                    { /* capecc: #pragma omp task at tasks_pointers.c:56: a task */
                                pa[k] = k;
                        }

                        __cape_task_end();
                    }
                }
            }
            __cape_single_end(0);
        }
        { /* capecc: #pragma omp single at tasks_pointers.c:59 */
            if (__cape_single_begin()) {
                for (int k = 0; k < 8; k++) {
                    if (__cape_task_begin(0)) {
                    { /* capecc: #pragma omp task at tasks_pointers.c:61: a task */
                                fill(pa, k);
                        }

                        __cape_task_end();
                    }
                }
            }
            __cape_single_end(0);
        }
        int local[64];
        { /* capecc: #pragma omp single at tasks_pointers.c:65 */
            if (__cape_single_begin()) {
                halves(local, 64);
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
        { (const void *)&table, sizeof table, { sizeof (table)[0], 0, 0 }, 0, "table", "int table[64]", "tasks_pointers.c:6" },
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
