int main(void)
{
    int v = 0;
#pragma omp parallel
    {
#pragma omp single copyprivate(v) nowait
        v = 5;
#pragma omp single nowait copyprivate(v)
        v = 6;
    }
    return v;
}
