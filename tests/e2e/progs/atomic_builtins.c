/* C11 _Atomic updates and gcc's __atomic_* / __sync_* builtins whose result is unused, inside a
   region: mergeable updates like `#pragma omp atomic` (each thread's updates count once) */
#include <stdio.h>
#include <stdatomic.h>
_Atomic int a;
atomic_long b;
int c, d, e;
unsigned f = 0xff, g, h;

/* called from the region: lowered the same way (the compiler lowers these updates everywhere) */
static void bump_from_a_call(void)
{
    __sync_fetch_and_or(&g, 1u << 3);
    __atomic_fetch_xor(&h, 1, __ATOMIC_RELAXED);
}

int main(void) {
    int *pc = &c;
#pragma omp parallel for
    for (int i = 0; i < 100; i++) {
        a++;
        b += 2;
        __atomic_fetch_add(&c, 1, __ATOMIC_SEQ_CST);
        __atomic_add_fetch(pc, 1, __ATOMIC_RELAXED);
        __sync_fetch_and_add(&d, 3);
        __sync_sub_and_fetch(&e, 1);
        __atomic_fetch_and(&f, ~(1u << (i % 8)), __ATOMIC_SEQ_CST);
        atomic_fetch_add(&a, 1);
        atomic_fetch_sub_explicit(&b, 1, memory_order_relaxed);
        bump_from_a_call();
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
    }
    printf("%d %ld %d %d %d %u %u %u\n", a, (long)b, c, d, e, f, g, h);
    return 0;
}
