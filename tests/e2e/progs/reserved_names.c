/* user identifiers spelled like capecc's generated names (a global `__cape_d`, locals
   `__cape_shared_x` and `__cape_arg`, a function `__cape_fn_1`, a type `__cape_loop`, a macro
   and a struct member) keep their own meaning inside and around regions */
#include <stdio.h>

#define __CAPE_SCALE 3
typedef struct __cape_loop { int __cape_d; } __cape_loop;

int __cape_d = 7;
int CAPE_SCHED_STATIC = 2;

static int __cape_fn_1(int v) { return v * __CAPE_SCALE; }

int main(void)
{
    int x = 0, __cape_shared_x = 100, __cape_arg = 5;
    __cape_loop l = { 11 };
    int sum = 0;
#pragma omp parallel for reduction(+:sum) schedule(static)
    for (int i = 0; i < 10; i++)
        sum += __cape_fn_1(i) + __cape_d + __cape_shared_x + __cape_arg + l.__cape_d + CAPE_SCHED_STATIC;
#pragma omp parallel
    {
#pragma omp single
        {
            x = __cape_d;
            __cape_shared_x++;
        }
    }
    printf("%d %d %d %s\n", sum, x, __cape_shared_x, "__cape_d");
    return 0;
}
