/* gemm (PolyBench/C 4.2, SMALL): C := alpha*A*B + beta*C */
#include "polybench.h"

#define NI 60
#define NJ 70
#define NK 80

static DATA_TYPE A[NI][NK], B[NK][NJ], C[NI][NJ];

int main(void)
{
    DATA_TYPE alpha = 1.5, beta = 1.2;
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NJ; j++)
            C[i][j] = (DATA_TYPE)((i * j + 1) % NI) / NI;
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NK; j++)
            A[i][j] = (DATA_TYPE)(i * (j + 1) % NK) / NK;
    for (int i = 0; i < NK; i++)
        for (int j = 0; j < NJ; j++)
            B[i][j] = (DATA_TYPE)(i * (j + 2) % NJ) / NJ;

#pragma omp parallel for
    for (int i = 0; i < NI; i++) {
        for (int j = 0; j < NJ; j++)
            C[i][j] *= beta;
        for (int k = 0; k < NK; k++)
            for (int j = 0; j < NJ; j++)
                C[i][j] += alpha * A[i][k] * B[k][j];
    }
    print_checksum("C", &C[0][0], NI * NJ);
    return 0;
}
