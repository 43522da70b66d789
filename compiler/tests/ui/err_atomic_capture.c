int x;
int main(void)
{
    int v = 0;
#pragma omp parallel
    {
#pragma omp atomic capture
        v = x++;
    }
    return v;
}
