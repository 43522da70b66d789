int a[10];
int main(void)
{
#pragma omp parallel for ordered
    for (int i = 0; i < 10; i++) {
#pragma omp ordered
        a[i] = i;
    }
    return 0;
}
