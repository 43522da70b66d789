#pragma omp end declare target

#pragma omp declare target
int twice(int x)
{
    return 2 * x;
}
#pragma omp declare target
int thrice(int x)
{
    return 3 * x;
}
#pragma omp end declare target

int main(void)
{
    return twice(1) + thrice(1);
}
