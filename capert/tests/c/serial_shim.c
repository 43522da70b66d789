/* serial_shim.c -- an independent, sequential implementation of the capert ABI, used as the
 * oracle of run_c_tests.sh: each test program built with plain gcc against this file prints
 * what sequential execution computes. A team of one runs every region and loop in order. */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "capert.h"
#include "omp.h"

int __cape_start(int argc, char **argv, char **envp, int (*user_main)(int, char **, char **)) {
    return user_main(argc, argv, envp);
}
void *__cape_malloc(size_t n) { return malloc(n); }
void *__cape_calloc(size_t a, size_t b) { return calloc(a, b); }
void *__cape_realloc(void *p, size_t n) { return realloc(p, n); }
void __cape_free(void *p) { free(p); }
int __cape_posix_memalign(void **o, size_t a, size_t n) { return posix_memalign(o, a, n); }
void *__cape_aligned_alloc(size_t a, size_t n) { return aligned_alloc(a, n); }
void *__cape_memalign(size_t a, size_t n) { return aligned_alloc(a, n); }
void *__cape_valloc(size_t n) { return aligned_alloc(4096, n); }
char *__cape_strdup(const char *s) { return strdup(s); }
char *__cape_strndup(const char *s, size_t n) { return strndup(s, n); }
void __cape_stdin_sync(void) {}

static int level;
void __cape_parallel(void (*fn)(void *), void *data, int nt, int ifc, void *sp) {
    (void)nt; (void)ifc; (void)sp;
    level++;
    fn(data);
    level--;
}
void __cape_loop_init(struct __cape_loop *l, unsigned long long n, int s, long long c) {
    (void)s; (void)c;
    memset(l, 0, sizeof *l);
    l->n = n;
}
int __cape_loop_next(struct __cape_loop *l, unsigned long long *lo, unsigned long long *hi) {
    if (l->taken++ || l->n == 0) return 0;
    *lo = 0; *hi = l->n;
    return 1;
}
int __cape_loop_is_last(const struct __cape_loop *l) { return l->n > 0 && l->taken > 0; }
void __cape_loop_end(struct __cape_loop *l, int nowait) { (void)l; (void)nowait; }
void __cape_reduce(void *shared, const void *partial, size_t size, void (*combine)(void *, const void *)) {
    (void)size;
    combine(shared, partial);
}

int omp_get_thread_num(void) { return 0; }
int omp_get_num_threads(void) { return 1; }
int omp_get_max_threads(void) { return 1; }
int omp_in_parallel(void) { return 0; }
int omp_get_level(void) { return level; }
void omp_set_num_threads(int n) { (void)n; }
double omp_get_wtime(void) { return (double)clock() / CLOCKS_PER_SEC; }

/* the construct set: barriers, single, copyprivate, atomics, threadprivate -- one thread runs it all */
void __cape_barrier(void) {}
int __cape_single_begin(void) { return 1; }
void __cape_single_end(int nowait) { (void)nowait; }
int __cape_master_begin(int filter) { return filter == 0; }
void __cape_master_end(void) {}
void __cape_copyprivate(void *addr, size_t size) { (void)addr; (void)size; }
void __cape_atomic_update(void *addr, const void *operand, size_t size, void (*combine)(void *, const void *)) {
    (void)size;
    combine(addr, operand);
}
void __cape_threadprivate(void *addr, size_t size) { (void)addr; (void)size; }
void __cape_copyin(void *addr, size_t size) { (void)addr; (void)size; }
void omp_set_schedule(omp_sched_t kind, int chunk) { (void)kind; (void)chunk; }
int omp_get_active_level(void) { return 0; }
int omp_get_ancestor_thread_num(int l) { return l >= 0 && l <= level ? 0 : -1; }
int omp_get_team_size(int l) { return l >= 0 && l <= level ? 1 : -1; }
void omp_init_lock(omp_lock_t *l) { *(unsigned long long *)l = 0; }
void omp_destroy_lock(omp_lock_t *l) { *(unsigned long long *)l = 0; }
void omp_set_lock(omp_lock_t *l) { *(unsigned long long *)l = 1; }
void omp_unset_lock(omp_lock_t *l) { *(unsigned long long *)l = 0; }
int omp_test_lock(omp_lock_t *l) {
    if (*(unsigned long long *)l) return 0;
    *(unsigned long long *)l = 1;
    return 1;
}
