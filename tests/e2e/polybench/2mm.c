/* 2mm (PolyBench/C 4.2, SMALL): D := alpha*A*B*C + beta*D */
#include "polybench.h"

#define NI 40
#define NJ 50
#define NK 70
#define NL 80

static DATA_TYPE A[NI][NK], B[NK][NJ], C[NJ][NL], D[NI][NL], tmp[NI][NJ];

int main(void)
{
    DATA_TYPE alpha = 1.5, beta = 1.2;
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NK; j++)
            A[i][j] = (DATA_TYPE)((i * j + 1) % NI) / NI;
    for (int i = 0; i < NK; i++)
        for (int j = 0; j < NJ; j++)
            B[i][j] = (DATA_TYPE)(i * (j + 1) % NJ) / NJ;
    for (int i = 0; i < NJ; i++)
        for (int j = 0; j < NL; j++)
            C[i][j] = (DATA_TYPE)((i * (j + 3) + 1) % NL) / NL;
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NL; j++)
            D[i][j] = (DATA_TYPE)(i * (j + 2) % NK) / NK;

#pragma omp parallel
    {
#pragma omp for
        for (int i = 0; i < NI; i++)
            for (int j = 0; j < NJ; j++) {
                tmp[i][j] = 0.0;
                for (int k = 0; k < NK; ++k)
                    tmp[i][j] += alpha * A[i][k] * B[k][j];
            }
#pragma omp for
        for (int i = 0; i < NI; i++)
            for (int j = 0; j < NL; j++) {
                D[i][j] *= beta;
                for (int k = 0; k < NJ; ++k)
                    D[i][j] += tmp[i][k] * C[k][j];
            }
    }
    print_checksum("D", &D[0][0], NI * NL);
    return 0;
}
