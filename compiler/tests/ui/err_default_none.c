int main(void)
{
    int a[10], n = 10;
#pragma omp parallel for default(none) shared(a)
    for (int i = 0; i < n; i++)
        a[i] = i;
    return a[3];
}
