int a[100];

int main(void)
{
    /* valid OpenMP, not supported by capecc */
#pragma omp parallel for
    for (int *p = a; p < a + 100; p++)
        *p = (int)(p - a);
    /* not canonical: a floating-point loop variable */
#pragma omp parallel for
    for (double x = 0; x < 10; x += 1)
        a[(int)x] = 1;
    return 0;
}
