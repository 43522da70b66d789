/* Test harness only: a sequential stand-in for capert that runs each parallel region as
 * FAKE_THREADS (default 3) threads one after another, with libgomp's static schedule, so that
 * translated programs can be checked against gcc -fopenmp without MPI. */
#include <stdlib.h>
#include <string.h>
#include <capert.h>

static int team_size = 1, thread_id = 0, in_parallel = 0;
#define MAX_THREADS 16
static int copyprivate_calls;
static void tp_switch(int from, int to);

struct pending { void *shared; void *partial; size_t size; void (*combine)(void *, const void *); };
static struct pending pending[256];
static int pending_count;

int __cape_start(int argc, char **argv, char **envp, int (*user_main)(int, char **, char **))
{
    return user_main(argc, argv, envp);
}
void *__cape_malloc(size_t n) { return malloc(n); }
void *__cape_calloc(size_t n, size_t m) { return calloc(n, m); }
void *__cape_realloc(void *p, size_t n) { return realloc(p, n); }
void __cape_free(void *p) { free(p); }
char *__cape_strdup(const char *s) { return strdup(s); }
char *__cape_getenv(const char *name) { return getenv(name); }
void __cape_stdin_sync(void) {}

void __cape_parallel(void (*fn)(void *), void *data, int num_threads, int if_clause, void *sp)
{
    (void)sp;
    const char *env = getenv("FAKE_THREADS");
    int n = env ? atoi(env) : 3;
    if (num_threads > 0) n = num_threads;
    if (!if_clause) n = 1;
    if (in_parallel) { /* nested: a team of one */
        int outer_id = thread_id, outer_size = team_size;
        thread_id = 0;
        team_size = 1;
        fn(data);
        thread_id = outer_id;
        team_size = outer_size;
        return;
    }
    if (n > MAX_THREADS) n = MAX_THREADS;
    team_size = n;
    in_parallel = 1;
    for (thread_id = 0; thread_id < n; thread_id++) {
        copyprivate_calls = 0;
        tp_switch(0, thread_id);
        fn(data);
        tp_switch(thread_id, 0);
    }
    for (int i = 0; i < pending_count; i++) {
        pending[i].combine(pending[i].shared, pending[i].partial);
        free(pending[i].partial);
    }
    pending_count = 0;
    thread_id = 0;
    team_size = 1;
    in_parallel = 0;
}

/* loop state in the real header's fields: taken = chunks handed out, flags bit 0 = done,
 * bit 1 = this thread ran the last iteration */
void __cape_loop_init(__cape_loop *l, unsigned long long n, int schedule, long long chunk)
{
    l->schedule = schedule;
    l->n = n;
    l->chunk = chunk > 0 ? (unsigned long long)chunk : 0;
    if (l->chunk == 0 && schedule != CAPE_SCHED_STATIC && schedule != CAPE_SCHED_AUTO)
        l->chunk = 1; /* dynamic/guided without chunk: chunks of 1, round-robin */
    l->taken = 0;
    l->flags = 0;
}

int __cape_loop_next(__cape_loop *l, unsigned long long *lo, unsigned long long *hi)
{
    unsigned long long P = team_size, t = thread_id;
    if (l->flags & 1) return 0;
    if (l->chunk == 0) {
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
int __cape_single_begin(void) { return thread_id == 0; }
void __cape_single_end(int nowait) { (void)nowait; }
int __cape_master_begin(int filter) { return thread_id == filter; }
void __cape_master_end(void) {}

/* copyprivate: thread 0 runs first and leaves its values; the others copy them */
static unsigned char copyprivate_values[64][256];
void __cape_copyprivate(void *addr, size_t size)
{
    int slot = copyprivate_calls++ % 64;
    if (size > 256) abort();
    if (thread_id == 0) memcpy(copyprivate_values[slot], addr, size);
    else memcpy(addr, copyprivate_values[slot], size);
}

void __cape_atomic_update(void *addr, const void *operand, size_t size,
                          void (*combine)(void *, const void *))
{
    (void)size;
    combine(addr, operand);
}

/* threadprivate: each thread's copy is swapped in while it runs */
#define MAX_TP 32
static struct { void *addr; size_t size; unsigned char copy[MAX_THREADS][256]; } tp[MAX_TP];
static int tp_count;
void __cape_threadprivate(void *addr, size_t size)
{
    if (tp_count == MAX_TP || size > 256) abort();
    tp[tp_count].addr = addr;
    tp[tp_count].size = size;
    for (int t = 0; t < MAX_THREADS; t++) memcpy(tp[tp_count].copy[t], addr, size);
    tp_count++;
}
void __cape_copyin(void *addr, size_t size)
{
    for (int i = 0; i < tp_count; i++)
        if (tp[i].addr == addr && thread_id != 0) memcpy(addr, tp[i].copy[0], size);
}
static void tp_switch(int from, int to)
{
    for (int i = 0; i < tp_count; i++) {
        memcpy(tp[i].copy[from], tp[i].addr, tp[i].size);
        memcpy(tp[i].addr, tp[i].copy[to], tp[i].size);
    }
}

void __cape_reduce(void *shared, const void *partial, size_t size, void (*combine)(void *, const void *))
{
    if (!in_parallel) { /* an orphaned loop run serially: combine at once */
        combine(shared, partial);
        return;
    }
    void *copy = malloc(size);
    memcpy(copy, partial, size);
    pending[pending_count++] = (struct pending){ shared, copy, size, combine };
}

int omp_get_thread_num(void) { return thread_id; }
int omp_get_num_threads(void) { return team_size; }
int omp_in_parallel(void) { return in_parallel; }
