int x;
int main(void)
{
#pragma omp parallel
    {
#pragma omp section
        x = 1;
    }
    return x;
}
