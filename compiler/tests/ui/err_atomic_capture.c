int x;
double d;
int main(void)
{
    int v = 0;
    double w = 0;
#pragma omp parallel
    {
#pragma omp atomic capture
        v = x *= 3;
#pragma omp atomic capture
        { x = 5; v = x; }
#pragma omp atomic capture
        w = d++;
    }
    return v + (int)w;
}
