int x;
int main(void)
{
#pragma omp parallel
    {
#pragma omp task
        x = 1;
    }
    return x;
}
