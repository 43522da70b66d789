/*@ hooks */
/* capecc --check=races: the access hooks of a check build. The program's files are compiled
   with the backend's thread-sanitizer instrumentation, which calls these functions for every
   load and store; they pass the accesses of parallel regions to the runtime (which switches
   them on and off through `__cape_check_on`). Atomic operations are done here as the
   instrumentation asks. This file is compiled without instrumentation. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

void __cape_check_build(int *flag);
void __cape_check_access(const void *addr, size_t size, const void *pc, int write);

/* in a section of its own: not program data for the runtime to track and merge */
__attribute__((section("cape_check_flag"))) static int __cape_check_on;

/* The accesses passed on in the current recording period (`__cape_check_on`), by address,
   size and kind, direct-mapped: a loop that reads the same element again and again calls the
   runtime once. */
#define __CAPE_SEEN_SLOTS 16384
__attribute__((section("cape_check_flag"))) static struct __cape_seen {
    uintptr_t key;
    int period;
} *__cape_seen;

static void __cape_check_pass(void *addr, size_t size, void *pc, int write)
{
    if (!__cape_seen) {
        __cape_check_access(addr, size, pc, write);
        return;
    }
    uintptr_t key = (uintptr_t)addr << 6 | size << 1 | (uintptr_t)write;
    uintptr_t h = ((uintptr_t)addr >> 2) * 2 + (uintptr_t)write; /* neighbours: other slots */
    struct __cape_seen *slot = &__cape_seen[(h ^ h >> 14) % __CAPE_SEEN_SLOTS];
    if (slot->key == key && slot->period == __cape_check_on)
        return;
    slot->key = key;
    slot->period = __cape_check_on;
    __cape_check_access(addr, size, pc, write);
}

__attribute__((constructor)) static void __cape_check_register(void)
{
    __cape_seen = calloc(__CAPE_SEEN_SLOTS, sizeof *__cape_seen);
    __cape_check_build(&__cape_check_on);
}

#define __CAPE_HOOK(name, size, write)                                                 \
    void name(void *addr)                                                              \
    {                                                                                  \
        if (__builtin_expect(__cape_check_on, 0))                                      \
            __cape_check_pass(addr, size, __builtin_return_address(0), write);         \
    }
#define __CAPE_HOOKS(size)                                                             \
    __CAPE_HOOK(__tsan_read##size, size, 0)                                            \
    __CAPE_HOOK(__tsan_write##size, size, 1)                                           \
    __CAPE_HOOK(__tsan_unaligned_read##size, size, 0)                                  \
    __CAPE_HOOK(__tsan_unaligned_write##size, size, 1)                                 \
    __CAPE_HOOK(__tsan_volatile_read##size, size, 0)                                   \
    __CAPE_HOOK(__tsan_volatile_write##size, size, 1)
__CAPE_HOOKS(1)
__CAPE_HOOKS(2)
__CAPE_HOOKS(4)
__CAPE_HOOKS(8)
__CAPE_HOOKS(16)

void __tsan_read_range(void *addr, size_t size)
{
    if (__builtin_expect(__cape_check_on, 0))
        __cape_check_access(addr, size, __builtin_return_address(0), 0);
}
void __tsan_write_range(void *addr, size_t size)
{
    if (__builtin_expect(__cape_check_on, 0))
        __cape_check_access(addr, size, __builtin_return_address(0), 1);
}
/* the copies of data-sharing clauses (see the prelude of translated files) */
void *__cape_unchecked_copy(void *to, const void *from, unsigned long n)
{
    return __builtin_memcpy(to, from, n);
}

void __tsan_init(void) {}
void __tsan_func_entry(void *pc) { (void)pc; }
void __tsan_func_exit(void) {}
void __tsan_vptr_update(void **p, void *v) { *p = v; }
void __tsan_vptr_read(void **p) { (void)p; }
void __tsan_atomic_thread_fence(int mo) { (void)mo; __atomic_thread_fence(__ATOMIC_SEQ_CST); }
void __tsan_atomic_signal_fence(int mo) { (void)mo; __atomic_signal_fence(__ATOMIC_SEQ_CST); }

#define __CAPE_ATOMIC_RMW(bits, T, op)                                                 \
    T __tsan_atomic##bits##_##op(volatile T *a, T v, int mo)                           \
    {                                                                                  \
        (void)mo;                                                                      \
        return __atomic_##op(a, v, __ATOMIC_SEQ_CST);                                  \
    }
#define __CAPE_ATOMICS(bits, T)                                                        \
    T __tsan_atomic##bits##_load(const volatile T *a, int mo)                          \
    {                                                                                  \
        (void)mo;                                                                      \
        return __atomic_load_n(a, __ATOMIC_SEQ_CST);                                   \
    }                                                                                  \
    void __tsan_atomic##bits##_store(volatile T *a, T v, int mo)                       \
    {                                                                                  \
        (void)mo;                                                                      \
        __atomic_store_n(a, v, __ATOMIC_SEQ_CST);                                      \
    }                                                                                  \
    T __tsan_atomic##bits##_exchange(volatile T *a, T v, int mo)                       \
    {                                                                                  \
        (void)mo;                                                                      \
        return __atomic_exchange_n(a, v, __ATOMIC_SEQ_CST);                            \
    }                                                                                  \
    __CAPE_ATOMIC_RMW(bits, T, fetch_add)                                              \
    __CAPE_ATOMIC_RMW(bits, T, fetch_sub)                                              \
    __CAPE_ATOMIC_RMW(bits, T, fetch_and)                                              \
    __CAPE_ATOMIC_RMW(bits, T, fetch_or)                                               \
    __CAPE_ATOMIC_RMW(bits, T, fetch_xor)                                              \
    __CAPE_ATOMIC_RMW(bits, T, fetch_nand)                                             \
    int __tsan_atomic##bits##_compare_exchange_strong(volatile T *a, T *c, T v, int mo, \
                                                      int fmo)                         \
    {                                                                                  \
        (void)mo;                                                                      \
        (void)fmo;                                                                     \
        return __atomic_compare_exchange_n(a, c, v, 0, __ATOMIC_SEQ_CST,               \
                                           __ATOMIC_SEQ_CST);                          \
    }                                                                                  \
    int __tsan_atomic##bits##_compare_exchange_weak(volatile T *a, T *c, T v, int mo,   \
                                                    int fmo)                           \
    {                                                                                  \
        return __tsan_atomic##bits##_compare_exchange_strong(a, c, v, mo, fmo);        \
    }                                                                                  \
    T __tsan_atomic##bits##_compare_exchange_val(volatile T *a, T c, T v, int mo,      \
                                                 int fmo)                              \
    {                                                                                  \
        (void)mo;                                                                      \
        (void)fmo;                                                                     \
        __atomic_compare_exchange_n(a, &c, v, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);  \
        return c;                                                                      \
    }
__CAPE_ATOMICS(8, uint8_t)
__CAPE_ATOMICS(16, uint16_t)
__CAPE_ATOMICS(32, uint32_t)
__CAPE_ATOMICS(64, uint64_t)
