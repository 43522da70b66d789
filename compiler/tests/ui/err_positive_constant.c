int a[100];

int main(void)
{
#pragma omp parallel for simd safelen(0)
    for (int i = 0; i < 100; i++)
        a[i] = i;
#pragma omp simd simdlen(2 - 4)
    for (int i = 0; i < 100; i++)
        a[i] = i;
#pragma omp simd collapse(0)
    for (int i = 0; i < 100; i++)
        a[i] = i;
#pragma omp parallel for ordered(0)
    for (int i = 0; i < 100; i++)
        a[i] = i;
    /* positive constants, also written as expressions, are fine */
#pragma omp simd safelen(0x10) simdlen((1 + 1) * 2)
    for (int i = 0; i < 100; i++)
        a[i] = i;
    return 0;
}
