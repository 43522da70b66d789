int main(void)
{
    int v[4] = {0}, *p = v;
#pragma omp parallel for reduction(+:p)
    for (int i = 0; i < 4; i++)
        v[i] = i;
    return *p;
}
