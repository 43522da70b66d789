/* sequential_runtime.c -- an independent, sequential implementation of the capert ABI (test
 * harness only), shared by two test suites:
 * - capert/tests/run_c_tests.sh: the oracle. FAKE_THREADS unset: every region is a team of one
 *   (num_threads ignored), so a test program built with plain gcc against this file prints what
 *   sequential execution computes.
 * - compiler/tests/run.rs: FAKE_THREADS=n runs each parallel region as n threads (or its
 *   num_threads) one after another with libgomp's static schedule, so that translated programs
 *   can be checked against gcc -fopenmp without MPI. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "capert.h"
#include "omp.h"

#define MAX_THREADS 16
#define MAX_LEVELS 8

static int team_size = 1, thread_id = 0, in_parallel = 0;
static int level, active_level;
static int level_size[MAX_LEVELS] = { 1 }, level_id[MAX_LEVELS];
static int copyprivate_calls;
static void tp_switch(int from, int to);

/* reductions of a team of several threads are combined at the end of the region */
struct pending { void *shared; void *partial; void (*combine)(void *, const void *); };
static struct pending pending[256];
static int pending_count;

/* FAKE_THREADS, or 0 when unset (the sequential oracle) */
static int fake_threads(void)
{
    const char *env = getenv("FAKE_THREADS");
    int n = env ? atoi(env) : 0;
    return n > MAX_THREADS ? MAX_THREADS : n;
}

int __cape_start(int argc, char **argv, char **envp, int (*user_main)(int, char **, char **))
{
    return user_main(argc, argv, envp);
}
/* the checkers' names: nothing to check in a sequential run */
void __cape_objects(const struct __cape_object *o, size_t n) { (void)o; (void)n; }
void __cape_region_objects(const char *what, const struct __cape_object *o, size_t n)
{
    (void)what; (void)o; (void)n;
}
void __cape_alloc_site(const char *site) { (void)site; }
void *__cape_malloc(size_t n) { return malloc(n); }
void *__cape_calloc(size_t n, size_t m) { return calloc(n, m); }
void *__cape_realloc(void *p, size_t n) { return realloc(p, n); }
void __cape_free(void *p) { free(p); }
int __cape_posix_memalign(void **o, size_t a, size_t n) { return posix_memalign(o, a, n); }
void *__cape_aligned_alloc(size_t a, size_t n) { return aligned_alloc(a, n); }
void *__cape_memalign(size_t a, size_t n) { return aligned_alloc(a, n); }
void *__cape_valloc(size_t n) { return aligned_alloc(4096, n); }
char *__cape_strdup(const char *s) { return strdup(s); }
char *__cape_strndup(const char *s, size_t n) { return strndup(s, n); }
char *__cape_getenv(const char *name) { return getenv(name); }
void __cape_stdin_sync(void) {}
size_t __cape_fwrite(const void *p, size_t s, size_t n, void *f) { return fwrite(p, s, n, f); }
size_t __cape_fread(void *p, size_t s, size_t n, void *f) { return fread(p, s, n, f); }
ptrdiff_t __cape_write(int fd, const void *b, size_t n) { return write(fd, b, n); }
ptrdiff_t __cape_read(int fd, void *b, size_t n) { return read(fd, b, n); }
ptrdiff_t __cape_pwrite(int fd, const void *b, size_t n, int64_t o) { return pwrite(fd, b, n, o); }
ptrdiff_t __cape_pread(int fd, void *b, size_t n, int64_t o) { return pread(fd, b, n, o); }

static void enter_level(int size, int id)
{
    level++;
    if (level < MAX_LEVELS) {
        level_size[level] = size;
        level_id[level] = id;
    }
}

void __cape_parallel(void (*fn)(void *), void *data, int num_threads, int if_clause, void *sp)
{
    (void)sp;
    int n = fake_threads();
    if (n == 0) n = 1;
    else if (num_threads > 0) n = num_threads < MAX_THREADS ? num_threads : MAX_THREADS;
    if (!if_clause) n = 1;
    if (in_parallel) { /* nested: a team of one */
        int outer_id = thread_id, outer_size = team_size;
        thread_id = 0;
        team_size = 1;
        enter_level(1, 0);
        fn(data);
        level--;
        thread_id = outer_id;
        team_size = outer_size;
        return;
    }
    team_size = n;
    in_parallel = 1;
    if (n > 1) active_level++;
    for (thread_id = 0; thread_id < n; thread_id++) {
        copyprivate_calls = 0;
        tp_switch(0, thread_id);
        enter_level(n, thread_id);
        fn(data);
        level--;
        tp_switch(thread_id, 0);
    }
    for (int i = 0; i < pending_count; i++) {
        pending[i].combine(pending[i].shared, pending[i].partial);
        free(pending[i].partial);
    }
    pending_count = 0;
    if (n > 1) active_level--;
    thread_id = 0;
    team_size = 1;
    in_parallel = 0;
}

void __cape_parallel_in_scope(void (*fn)(void *), void *data, int num_threads, int if_clause,
                            void *sp, const struct __cape_span *scope, size_t count)
{
    (void)scope;
    (void)count;
    __cape_parallel(fn, data, num_threads, if_clause, sp);
}

/* loop state in the real header's fields: taken = chunks handed out, flags bit 0 = done,
 * bit 1 = this thread ran the last iteration */
void __cape_loop_init(__cape_loop *l, unsigned long long n, int schedule, long long chunk)
{
    memset(l, 0, sizeof *l);
    l->schedule = schedule;
    l->n = n;
    l->chunk = chunk > 0 ? (unsigned long long)chunk : 0;
    if (l->chunk == 0 && schedule != CAPE_SCHED_STATIC && schedule != CAPE_SCHED_AUTO)
        l->chunk = 1; /* dynamic/guided without chunk: chunks of 1, round-robin */
}

int __cape_loop_next(__cape_loop *l, unsigned long long *lo, unsigned long long *hi)
{
    unsigned long long P = team_size, t = thread_id;
    if (l->flags & 1) return 0;
    if (l->chunk == 0 || P == 1) { /* static without chunk, or a team of one: one block */
        unsigned long long q = l->n / P, r = l->n % P;
        unsigned long long start = t * q + (t < r ? t : r);
        unsigned long long len = q + (t < r);
        l->flags |= 1;
        if (len == 0) return 0;
        *lo = start;
        *hi = start + len;
    } else {
        unsigned long long start = (l->taken * P + t) * l->chunk;
        if (start >= l->n) { l->flags |= 1; return 0; }
        *lo = start;
        *hi = start + l->chunk < l->n ? start + l->chunk : l->n;
        l->taken++;
    }
    if (*hi == l->n) l->flags |= 2;
    return 1;
}

int __cape_loop_is_last(const __cape_loop *l) { return (l->flags & 2) != 0; }
void __cape_loop_end(__cape_loop *l, int nowait) { (void)l; (void)nowait; }

/* barrier: threads run one after another, so every earlier write is already visible */
void __cape_barrier(void) {}
void __cape_rank_barrier(void) {}
int __cape_single_begin(void) { return thread_id == 0; }
void __cape_single_end(int nowait) { (void)nowait; }
int __cape_master_begin(int filter) { return thread_id == filter; }
void __cape_master_end(void) {}

/* copyprivate: thread 0 runs first and leaves its values; the others copy them */
static unsigned char copyprivate_values[64][256];
void __cape_copyprivate(void *addr, size_t size)
{
    int slot = copyprivate_calls++ % 64;
    if (team_size == 1) return;
    if (size > 256) abort();
    if (thread_id == 0) memcpy(copyprivate_values[slot], addr, size);
    else memcpy(addr, copyprivate_values[slot], size);
}

int __cape_atomic_direct(void) { return 0; }
/* the threads here take turns: never a team of threads running at once */
int __cape_team_direct = 0;
void __cape_mutex_wait(uint32_t *word) { (void)word; abort(); }
void __cape_mutex_wake(uint32_t *word) { (void)word; abort(); }
/* general critical sections: the threads take turns, so a section is never entered twice */
void __cape_critical_used(void) {}
void __cape_critical_begin(const char *name) { (void)name; }
void __cape_critical_end(const char *name) { (void)name; }
void *__cape_critical_store(void *addr, size_t size) { (void)size; return addr; }
void *__cape_store_report(void *addr, size_t size) { (void)size; return addr; }
void __cape_critical_mixed(const char *location, const char *name)
{
    (void)location;
    (void)name;
    abort();
}

void __cape_atomic_update(void *addr, const void *operand, size_t size,
                          void (*combine)(void *, const void *))
{
    (void)size;
    combine(addr, operand);
}
void __cape_atomic_update_folding(void *addr, const void *operand, size_t size,
                                  void (*combine)(void *, const void *))
{
    __cape_atomic_update(addr, operand, size, combine);
}

/* threadprivate: each thread's copy is swapped in while it runs */
#define MAX_TP 32
static struct { void *addr; size_t size; unsigned char *copy; /* MAX_THREADS copies */ } tp[MAX_TP];
static int tp_count;
void __cape_threadprivate(void *addr, size_t size)
{
    if (tp_count == MAX_TP) abort();
    unsigned char *copy = malloc(size * MAX_THREADS);
    if (!copy) abort();
    for (int t = 0; t < MAX_THREADS; t++) memcpy(copy + t * size, addr, size);
    tp[tp_count].addr = addr;
    tp[tp_count].size = size;
    tp[tp_count].copy = copy;
    tp_count++;
}
void __cape_copyin(void *addr, size_t size)
{
    for (int i = 0; i < tp_count; i++)
        if (tp[i].addr == addr && thread_id != 0) memcpy(addr, tp[i].copy, size);
}
static void tp_switch(int from, int to)
{
    for (int i = 0; i < tp_count; i++) {
        size_t size = tp[i].size;
        memcpy(tp[i].copy + from * size, tp[i].addr, size);
        memcpy(tp[i].addr, tp[i].copy + to * size, size);
    }
}

void __cape_reduce(void *shared, const void *partial, size_t size, void (*combine)(void *, const void *))
{
    if (!in_parallel || team_size == 1) { /* serial code or a team of one: combine at once */
        combine(shared, partial);
        return;
    }
    if (pending_count == 256) abort();
    void *copy = malloc(size);
    memcpy(copy, partial, size);
    pending[pending_count++] = (struct pending){ shared, copy, combine };
}

int omp_get_thread_num(void) { return thread_id; }
int omp_get_num_threads(void) { return team_size; }
int omp_get_max_threads(void)
{
    int n = fake_threads();
    return in_parallel || n == 0 ? 1 : n;
}
int omp_in_parallel(void) { return active_level > 0; }
int omp_get_level(void) { return level; }
int omp_get_active_level(void) { return active_level; }
int omp_get_ancestor_thread_num(int l)
{
    if (l < 0 || l > level) return -1;
    return l < MAX_LEVELS ? level_id[l] : 0;
}
int omp_get_team_size(int l)
{
    if (l < 0 || l > level) return -1;
    return l < MAX_LEVELS ? level_size[l] : 1;
}
void omp_set_num_threads(int n) { (void)n; }
void omp_set_schedule(omp_sched_t kind, int chunk) { (void)kind; (void)chunk; }
double omp_get_wtime(void) { return (double)clock() / CLOCKS_PER_SEC; }
void omp_init_lock(omp_lock_t *l) { *(unsigned long long *)l = 0; }
void omp_destroy_lock(omp_lock_t *l) { *(unsigned long long *)l = 0; }
void omp_set_lock(omp_lock_t *l) { *(unsigned long long *)l = 1; }
void omp_unset_lock(omp_lock_t *l) { *(unsigned long long *)l = 0; }
int omp_test_lock(omp_lock_t *l)
{
    if (*(unsigned long long *)l) return 0;
    *(unsigned long long *)l = 1;
    return 1;
}
