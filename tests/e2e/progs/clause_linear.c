/* linear(x[: step]) on variables other than the loop variable, on `parallel for` and on `for`:
   each iteration k starts with x = x0 + k * step, the body advances it by step (as OpenMP
   requires for the value after the loop), and after the loop x has its sequential value;
   an int, a pointer, a negative step from a variable, collapse, a dynamic schedule */
#include <stdio.h>

#define N 37
int first[N + 8], second[400], third[N], fourth[20], grid[6][7];

int main(void)
{
    int j = 5, k = 300, down = 2, cell = 0;
    long w = 0;
    int *p = third;
#pragma omp parallel for linear(j) linear(k : -down) linear(p : 1)
    for (int i = 0; i < N; i++) {
        first[j] += i + 1;
        j++;
        second[k] += 1000 + i;
        k -= down;
        *p = i * 3;
        p++;
    }
#pragma omp parallel
    {
#pragma omp for linear(w : 3) schedule(dynamic, 2)
        for (int i = 0; i < 20; i++) {
            fourth[i] += (int)w;
            w += 3;
        }
#pragma omp for collapse(2) linear(cell)
        for (int r = 0; r < 6; r++)
            for (int c = 0; c < 7; c++) {
                grid[r][c] = cell * 10;
                cell++;
            }
    }
    long h = 0;
    for (int i = 0; i < N + 8; i++)
        h = h * 31 + first[i];
    for (int i = 0; i < 400; i++)
        h = h * 31 + second[i];
    for (int i = 0; i < N; i++)
        h = h * 31 + third[i];
    for (int i = 0; i < 20; i++)
        h = h * 31 + fourth[i];
    for (int r = 0; r < 6; r++)
        for (int c = 0; c < 7; c++)
            h = h * 7 + grid[r][c];
    printf("j=%d k=%d p=%d w=%ld cell=%d h=%ld\n", j, k, (int)(p - third), w, cell, h);
    return 0;
}
