int a[10];
int main(void)
{
    int i = 0;
#pragma omp parallel for
    for (; i < 10; i++)
        a[i] = i;
    return 0;
}
