int main(void)
{
    static int counter;
#pragma omp threadprivate(counter)
    return counter;
}
