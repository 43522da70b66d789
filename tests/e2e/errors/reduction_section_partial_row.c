/* a reduction section whose later dimension is partial (not contiguous) is refused at compile
   time: capecc reduces whole rows */
#include <stdio.h>

double grid[4][6];

int main(void)
{
    // expect-error: 10
#pragma omp parallel for reduction(+ : grid[0:4][2:3])
    for (int i = 0; i < 120; i++)
        grid[i % 4][2 + i % 3] += 1;
    printf("%f\n", grid[3][4]);
    return 0;
}
