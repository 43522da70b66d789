int a[10];
int main(void)
{
    int i, j, n = 10;
#pragma omp parallel default(none) shared(a, n)
    {
#pragma omp for collapse(2)
        for (i = 0; i < n; i++)
            for (j = 0; j < 1; j++)
                a[i] = i + j;
    }
    return a[3];
}
