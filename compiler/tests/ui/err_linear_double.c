double a[10];
int main(void)
{
    double x = 0;
#pragma omp parallel for linear(x:2)
    for (int i = 0; i < 10; i++)
        a[i] = x;
    return 0;
}
