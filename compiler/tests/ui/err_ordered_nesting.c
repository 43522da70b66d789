int a[10];
int main(void)
{
#pragma omp parallel for schedule(dynamic)
    for (int i = 0; i < 10; i++) {
#pragma omp ordered
        a[i] = i;
    }
#pragma omp parallel
    {
#pragma omp ordered
        a[0] = 1;
    }
    return 0;
}
