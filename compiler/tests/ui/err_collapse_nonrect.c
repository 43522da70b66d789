int a[10][10];
int main(void)
{
#pragma omp parallel for collapse(2)
    for (int i = 0; i < 10; i++)
        for (int j = 0; j < i; j++)
            a[i][j] = i + j;
    return 0;
}
