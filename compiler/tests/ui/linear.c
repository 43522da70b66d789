int a[10];
int main(void)
{
    int j = 0, n = 10;
    int *p = a;
#pragma omp parallel for linear(j:2) linear(p)
    for (int i = 0; i < n; i++) {
        a[i] = j;
        j += 2;
        p++;
    }
#pragma omp parallel
    {
#pragma omp for linear(j:n)
        for (int i = 0; i < 10; i++) {
            a[i] += j;
            j += n;
        }
    }
    return j;
}
