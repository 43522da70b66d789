int a[10];
int main(void)
{
#pragma omp parallel for
    for (int i = 0; i < 10; i++) {
        a[i] = i;
        i += 1;
    }
    return 0;
}
