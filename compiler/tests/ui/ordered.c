int a[10], b[10];
void orphan(int i)
{
#pragma omp ordered
    b[i] = i;
}
int main(void)
{
#pragma omp parallel for ordered
    for (int i = 0; i < 10; i++) {
#pragma omp ordered
        a[i] = i;
    }
#pragma omp parallel for ordered(1)
    for (int i = 1; i < 10; i++) {
#pragma omp ordered depend(sink: i - 1)
        a[i] += a[i - 1];
#pragma omp ordered depend(source)
    }
    return 0;
}
