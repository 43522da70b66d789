int x, a[4];
int main(void)
{
    int v = 0, u = 0;
#pragma omp parallel
    {
#pragma omp atomic capture
        v = x++;
#pragma omp atomic capture
        { u = a[1]; a[1] += 3; }
#pragma omp atomic capture
        { a[2] -= v; u = a[2]; }
#pragma omp atomic capture
        v = x = x + 2;
    }
    return v + u;
}
