int a[10];
int main(void)
{
#pragma omp parallel for
    for (int i = 0; a[i] < 10; i++)
        a[i] = i;
    return 0;
}
