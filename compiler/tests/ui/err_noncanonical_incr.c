int a[10];
int main(void)
{
#pragma omp parallel for
    for (int i = 1; i < 10; i *= 2)
        a[i] = i;
    return 0;
}
