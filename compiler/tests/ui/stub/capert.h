/* Test stand-in for the runtime's generated capert.h (used only while capert/include/capert.h
 * does not exist): the ABI of ARCHITECTURE.md, with a complete __cape_loop so that generated code
 * can keep one in its frame. */
#ifndef CAPERT_H
#define CAPERT_H
#include <stddef.h>
#define CAPE_SCHED_STATIC 0
#define __CAPE_STACK_POINTER() __builtin_frame_address(0)
typedef struct __cape_loop {
    unsigned long long n, next, chunk;
    int done, last;
} __cape_loop;
int __cape_start(int argc, char **argv, char **envp, int (*user_main)(int, char **, char **));
void *__cape_malloc(size_t);
void *__cape_calloc(size_t, size_t);
void *__cape_realloc(void *, size_t);
void __cape_free(void *);
int __cape_posix_memalign(void **, size_t, size_t);
void *__cape_aligned_alloc(size_t, size_t);
void *__cape_memalign(size_t, size_t);
void *__cape_valloc(size_t);
char *__cape_strdup(const char *);
char *__cape_strndup(const char *, size_t);
char *__cape_getenv(const char *);
void __cape_stdin_sync(void);
void __cape_parallel(void (*fn)(void *), void *data, int num_threads, int if_clause, void *stack_pointer);
void __cape_loop_init(__cape_loop *l, unsigned long long n, int schedule, long long chunk);
int __cape_loop_next(__cape_loop *l, unsigned long long *lo, unsigned long long *hi);
int __cape_loop_is_last(const __cape_loop *l);
void __cape_loop_end(__cape_loop *l, int nowait);
void __cape_reduce(void *shared, const void *partial, size_t size, void (*combine)(void *inout, const void *in));
#endif
