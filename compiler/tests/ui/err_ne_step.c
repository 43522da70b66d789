int a[100];

void f(int s)
{
#pragma omp parallel for
    for (int i = 0; i != 99; i += 2)
        a[i] = i;
#pragma omp parallel for
    for (int i = 0; i != 99; i += s)
        a[i] = i;
#pragma omp parallel
#pragma omp single
#pragma omp taskloop
    for (int i = 98; i != 0; i = i - 2)
        a[i] = i;
#pragma omp simd
    for (int i = 0; 99 != i; i = 3 + i)
        a[i] = i;
    /* an increment of 1 or -1 is fine */
#pragma omp parallel for
    for (int i = 99; i != 0; i -= 1)
        a[i] = i;
#pragma omp parallel for
    for (int i = 0; i != 99; i += 0x1)
        a[i] = i;
}
