/* 3mm (PolyBench/C 4.2, SMALL): G := (A*B)*(C*D) */
#include "polybench.h"

#define NI 40
#define NJ 50
#define NK 60
#define NL 70
#define NM 80

static DATA_TYPE A[NI][NK], B[NK][NJ], C[NJ][NM], D[NM][NL], E[NI][NJ], F[NJ][NL], G[NI][NL];

int main(void)
{
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NK; j++)
            A[i][j] = (DATA_TYPE)((i * j + 1) % NI) / (5 * NI);
    for (int i = 0; i < NK; i++)
        for (int j = 0; j < NJ; j++)
            B[i][j] = (DATA_TYPE)((i * (j + 1) + 2) % NJ) / (5 * NJ);
    for (int i = 0; i < NJ; i++)
        for (int j = 0; j < NM; j++)
            C[i][j] = (DATA_TYPE)(i * (j + 3) % NL) / (5 * NL);
    for (int i = 0; i < NM; i++)
        for (int j = 0; j < NL; j++)
            D[i][j] = (DATA_TYPE)((i * (j + 2) + 2) % NK) / (5 * NK);

#pragma omp parallel for
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NJ; j++) {
            E[i][j] = 0.0;
            for (int k = 0; k < NK; ++k)
                E[i][j] += A[i][k] * B[k][j];
        }
#pragma omp parallel for
    for (int i = 0; i < NJ; i++)
        for (int j = 0; j < NL; j++) {
            F[i][j] = 0.0;
            for (int k = 0; k < NM; ++k)
                F[i][j] += C[i][k] * D[k][j];
        }
#pragma omp parallel for
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NL; j++) {
            G[i][j] = 0.0;
            for (int k = 0; k < NJ; ++k)
                G[i][j] += E[i][k] * F[k][j];
        }
    print_checksum("G", &G[0][0], NI * NL);
    return 0;
}
