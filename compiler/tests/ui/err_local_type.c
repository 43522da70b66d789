int main(void)
{
    struct point { int x, y; } pts[8];
#pragma omp parallel for
    for (int i = 0; i < 8; i++)
        pts[i].x = i;
    return pts[3].x;
}
