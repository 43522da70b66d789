int data[8];
int main(void)
{
    int *p = data;
#pragma omp parallel
    {
#pragma omp atomic
        p += 1;
    }
    return *p;
}
