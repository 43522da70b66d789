/* atomic builtins and shared _Atomic variables used inside a region other than as updates
   whose result is unused: refused at their line (a private _Atomic variable is fine) */
#include <stdio.h>
#include <stdatomic.h>
_Atomic int a;
int c, flag;
int main(void) {
    int seen = 0;
#pragma omp parallel private(seen)
    {
        _Atomic int mine = 0;
        mine++;
        seen = __atomic_fetch_add(&c, 1, __ATOMIC_SEQ_CST);
        if (__sync_bool_compare_and_swap(&flag, 0, 1))
            seen++;
        __atomic_exchange_n(&flag, 2, __ATOMIC_SEQ_CST);
        while (a < 3)
            ;
        a = 5;
        int v = atomic_fetch_add(&a, 1);
        __atomic_store_n(&c, 1, __ATOMIC_SEQ_CST);
        a += mine;
    }
    printf("%d\n", c);
    return 0;
}
