/* C89 as gcc still accepts it (with warnings): implicit `int` on function definitions,
   declarations and K&R parameters, old-style definitions, as in the NAS IS benchmark. */
#include <stdio.h>

static total = 0;
const scale = 3;
extern *nothing;

twice(x) int x;
{
    return 2 * x;
}

combine(a, b, c)
    double a;
    register b;
    long c;
{
    register i, s;
    s = 0;
    for (i = 0; i < b; i++)
        s += (int)a;
    return s + (int)c;
}

static
count_odd(v, n) int *v; int n;
{
    int i, odd = 0;
#pragma omp parallel for reduction(+:odd)
    for (i = 0; i < n; i++)
        odd += v[i] % 2;
    return odd;
}

main( argc, argv )
    int argc;
    char **argv;
{
    static keys[1000];
    int i, sum = 0;
#pragma omp parallel for
    for (i = 0; i < 1000; i++)
        keys[i] = twice(i) * scale + (i % 7);
#pragma omp parallel for reduction(+:sum)
    for (i = 0; i < 1000; i++)
        sum += keys[i];
    total = sum;
    printf("total %d odd %d combine %d argc %d\n", total, count_odd(keys, 1000),
           combine(2.5, 4, 10L), argc);
    return 0;
}
