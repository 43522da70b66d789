/* collapse(2) and collapse(3) whose chunks start and end inside a row and cross one or two
   levels at once: chunk sizes that divide no trip count (static 4, dynamic 7, guided), steps of
   2, 6 and -3, `<=`, `>=` and `>` tests, `unsigned char` variables that end at 254 and 255,
   run-time bounds, a `continue` in the body, and lastprivate of every loop variable */
#include <stdio.h>
#include <stdlib.h>

static int grid[9][11][5];
static long seen[300];

int main(int argc, char **argv)
{
    int ni = 9 + (argc > 99), nj = 11 + (argc > 99);
    long sum = 0;
    int li = -1, lj = -1, lk = -1;
#pragma omp parallel for collapse(3) schedule(static, 4) reduction(+ : sum) lastprivate(li, lj, lk)
    for (int i = 0; i < ni; i++)
        for (int j = nj - 1; j >= 0; j--)
            for (int k = 0; k <= 4; k++) {
                grid[i][j][k] = i * 10000 + j * 100 + k;
                sum += grid[i][j][k];
                li = i;
                lj = j;
                lk = k;
            }
    long odd = 0;
#pragma omp parallel for collapse(2) schedule(dynamic, 7) reduction(+ : odd)
    for (int i = 1; i < ni; i += 2)
        for (int j = 10; j > -2; j -= 3) {
            if ((i + j) % 4 == 0)
                continue;
            odd += grid[i][j][(i * j) % 5] * (j + 3);
        }
    unsigned char ui = 0, uj = 0;
#pragma omp parallel for collapse(2) schedule(guided) lastprivate(ui, uj)
    for (ui = 246; ui < 255; ui++)
        for (uj = 200; uj < 254; uj += 6)
            seen[(ui - 246) * 10 + (uj - 200) / 6] += ui * 1000 + uj;
    long h = 0;
    for (int x = 0; x < 300; x++)
        h = h * 31 + seen[x];
    for (int i = 0; i < 9; i++)
        for (int j = 0; j < 11; j++)
            for (int k = 0; k < 5; k++)
                h = h * 7 + grid[i][j][k];
    printf("sum=%ld li=%d lj=%d lk=%d odd=%ld ui=%d uj=%d h=%ld\n", sum, li, lj, lk, odd, ui, uj,
           h);
    return 0;
}
