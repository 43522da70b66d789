int a[10];
int main(void)
{
#pragma omp parallel for
#pragma omp single
    for (int i = 0; i < 10; i++)
        a[i] = i;
    return 0;
}
