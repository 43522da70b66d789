int x = 1;
int main(void)
{
#pragma omp parallel
    {
#pragma omp critical
        x = 10 - x;
    }
    return x;
}
