/* Test harness only: a sequential stand-in for capert that runs each parallel region as
 * FAKE_THREADS (default 3) threads one after another, with libgomp's static schedule, so that
 * translated programs can be checked against gcc -fopenmp without MPI. */
#include <stdlib.h>
#include <string.h>
#include <capert.h>

static int team_size = 1, thread_id = 0, in_parallel = 0;

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
void __cape_stdin_sync(void) {}

void __cape_parallel(void (*fn)(void *), void *data, int num_threads, int if_clause, void *sp)
{
    (void)sp;
    const char *env = getenv("FAKE_THREADS");
    int n = env ? atoi(env) : 3;
    if (num_threads > 0) n = num_threads;
    if (!if_clause) n = 1;
    team_size = n;
    in_parallel = 1;
    for (thread_id = 0; thread_id < n; thread_id++)
        fn(data);
    for (int i = 0; i < pending_count; i++) {
        pending[i].combine(pending[i].shared, pending[i].partial);
        free(pending[i].partial);
    }
    pending_count = 0;
    thread_id = 0;
    team_size = 1;
    in_parallel = 0;
}

void __cape_loop_init(__cape_loop *l, unsigned long long n, int schedule, long long chunk)
{
    (void)schedule;
    l->n = n;
    l->chunk = chunk > 0 ? (unsigned long long)chunk : 0;
    l->next = 0;
    l->done = 0;
    l->last = 0;
}

int __cape_loop_next(__cape_loop *l, unsigned long long *lo, unsigned long long *hi)
{
    unsigned long long P = team_size, t = thread_id;
    if (l->done) return 0;
    if (l->chunk == 0) {
        unsigned long long q = l->n / P, r = l->n % P;
        unsigned long long start = t * q + (t < r ? t : r);
        unsigned long long len = q + (t < r);
        l->done = 1;
        if (len == 0) return 0;
        *lo = start;
        *hi = start + len;
    } else {
        unsigned long long start = (l->next * P + t) * l->chunk;
        if (start >= l->n) { l->done = 1; return 0; }
        *lo = start;
        *hi = start + l->chunk < l->n ? start + l->chunk : l->n;
        l->next++;
    }
    if (*hi == l->n) l->last = 1;
    return 1;
}

int __cape_loop_is_last(const __cape_loop *l) { return l->last; }
void __cape_loop_end(__cape_loop *l, int nowait) { (void)l; (void)nowait; }

void __cape_reduce(void *shared, const void *partial, size_t size, void (*combine)(void *, const void *))
{
    void *copy = malloc(size);
    memcpy(copy, partial, size);
    pending[pending_count++] = (struct pending){ shared, copy, size, combine };
}

int omp_get_thread_num(void) { return thread_id; }
int omp_get_num_threads(void) { return team_size; }
int omp_in_parallel(void) { return in_parallel; }
