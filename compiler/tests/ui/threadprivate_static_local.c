static int bump(int by)
{
    static int calls = 1;
#pragma omp threadprivate(calls)
    calls += by;
    return calls;
}

int main(void)
{
    static double weight = 2.0;
#pragma omp threadprivate(weight)
    weight = 3.0;
#pragma omp parallel copyin(weight)
    {
        weight += bump(1);
    }
    return (int)weight;
}
