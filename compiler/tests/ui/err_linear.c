int a[10];
int main(void)
{
    int j = 0;
#pragma omp parallel for linear(j:2)
    for (int i = 0; i < 10; i++)
        a[i] = j;
    return 0;
}
