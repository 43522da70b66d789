int a[10];
int main(void)
{
#pragma omp target teams distribute parallel for
    for (int i = 0; i < 10; i++)
        a[i] = i;
    return 0;
}
