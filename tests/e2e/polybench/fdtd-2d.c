/* fdtd-2d (PolyBench/C 4.2, SMALL) */
#include "polybench.h"

#define TMAX 40
#define NX 60
#define NY 80

static DATA_TYPE ex[NX][NY], ey[NX][NY], hz[NX][NY], fict[TMAX];

int main(void)
{
    for (int i = 0; i < TMAX; i++)
        fict[i] = (DATA_TYPE)i;
    for (int i = 0; i < NX; i++)
        for (int j = 0; j < NY; j++) {
            ex[i][j] = ((DATA_TYPE)i * (j + 1)) / NX;
            ey[i][j] = ((DATA_TYPE)i * (j + 2)) / NY;
            hz[i][j] = ((DATA_TYPE)i * (j + 3)) / NX;
        }
#pragma omp parallel
    for (int t = 0; t < TMAX; t++) {
#pragma omp for
        for (int j = 0; j < NY; j++)
            ey[0][j] = fict[t];
#pragma omp for
        for (int i = 1; i < NX; i++)
            for (int j = 0; j < NY; j++)
                ey[i][j] = ey[i][j] - 0.5 * (hz[i][j] - hz[i - 1][j]);
#pragma omp for
        for (int i = 0; i < NX; i++)
            for (int j = 1; j < NY; j++)
                ex[i][j] = ex[i][j] - 0.5 * (hz[i][j] - hz[i][j - 1]);
#pragma omp for
        for (int i = 0; i < NX - 1; i++)
            for (int j = 0; j < NY - 1; j++)
                hz[i][j] = hz[i][j] - 0.7 * (ex[i][j + 1] - ex[i][j] + ey[i + 1][j] - ey[i][j]);
    }
    print_checksum("ex", &ex[0][0], NX * NY);
    print_checksum("ey", &ey[0][0], NX * NY);
    print_checksum("hz", &hz[0][0], NX * NY);
    return 0;
}
