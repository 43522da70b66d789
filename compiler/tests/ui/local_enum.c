int main(void)
{
    enum { N = 8 };
    register int k = 3;
    int a[N];
#pragma omp parallel for
    for (int i = 0; i < N; i++)
        a[i] = i * k;
    return a[N - 1];
}
