int main(void)
{
    int x = 0;
#pragma omp parallel sections
    {
    }
#pragma omp parallel
    {
#pragma omp sections
        {
        }
    }
    return x;
}
