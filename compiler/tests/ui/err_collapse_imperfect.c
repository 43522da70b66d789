int a[10][10];
int main(void)
{
#pragma omp parallel for collapse(2)
    for (int i = 0; i < 10; i++) {
        a[i][0] = 0;
        for (int j = 1; j < 10; j++)
            a[i][j] = i + j;
    }
    return 0;
}
