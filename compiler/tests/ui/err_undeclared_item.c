int main(void)
{
    int s = 0;
#pragma omp parallel for private(nosuch)
    for (int i = 0; i < 4; i++)
        s = i;
    return s;
}
