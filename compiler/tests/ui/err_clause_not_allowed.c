int main(void)
{
    int x = 0;
#pragma omp parallel for nowait
    for (int i = 0; i < 10; i++)
        x = i;
    return x;
}
