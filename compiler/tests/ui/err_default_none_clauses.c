int a[16];
int g;
int main(void)
{
    int ch = 2, k = 4, f = 0;
    const int m = 16;
#pragma omp parallel for schedule(dynamic, ch) default(none) shared(a)
    for (int i = 0; i < 16; i++)
        a[i] = i;
#pragma omp parallel default(none) shared(a)
    {
#pragma omp parallel num_threads(k)
        a[0] = 1;
#pragma omp masked filter(f)
        a[1] = g;
#pragma omp for
        for (int i = 0; i < m; i++)
            a[i] += 1;
    }
    return a[3];
}
