/* Array elements the inner loop of a parallel loop reads at every iteration: the lowering
   loads one before the loop when no store of the loop can reach it. The loops marked
   "kept" write the element they read (or may: through pointers, at a run-time column), so a
   copy taken before the loop would give other results; the ones marked "hoisted" may be
   copied. Every iteration of a parallel loop writes its own row only. */
#include <stdio.h>

#define N 48

static double A[N][N], B[N][N], C[N][N];
static int col[N];

static void through_pointers(double (*p)[N], double (*q)[N], int k)
{
#pragma omp parallel for
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) /* kept: p and q are one array below */
            p[i][j] += 0.5 * q[i][k];
}

static double checksum(double (*m)[N])
{
    double s = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            s += m[i][j] * (1 + (i * N + j) % 7);
    return s;
}

int main(void)
{
    for (int i = 0; i < N; i++) {
        col[i] = (i * 5) % N;
        for (int j = 0; j < N; j++) {
            A[i][j] = 1.0 + (i * 3 + j) % 11;
            B[i][j] = 2.0 - (i + j * 7) % 5;
            C[i][j] = 0.25 * ((i * j) % 9);
        }
    }
    for (int k = 0; k < N / 2; k++) {
#pragma omp parallel for schedule(static, 2)
        for (int i = k + 1; i < N; i++)
            for (int j = k + 1; j < N; j++) /* hoisted: A[i][k], j > k */
                A[i][j] -= 0.01 * A[i][k] * A[k][j];
#pragma omp parallel for
        for (int i = 0; i < N; i++)
            for (int j = k; j < N; j++) /* kept: j == k writes B[i][k] */
                B[i][j] -= 0.5 * B[i][k];
#pragma omp parallel for
        for (int i = 0; i < N; i++)
            for (int j = k + 1; j <= i; j++) /* hoisted: C[i][k] and A[i][k] */
                C[i][j] += C[i][k] * A[i][k] * 0.001;
    }
#pragma omp parallel for
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) /* kept: C[i][col[i]] is written at j == col[i] */
            C[i][j] = C[i][col[i]] + 1;
    int k = 7;
#pragma omp parallel for
    for (int i = 0; i < N; i++)
        for (int j = k - 1; j < N; j++) /* kept: j == k is in the range */
            B[i][j] = B[i][k] * 0.5 + j;
    through_pointers(A, A, 3);
    /* the loop runs no iteration: the element it names is out of the array and is not read */
    int far = 1 << 28;
#pragma omp parallel for
    for (int i = 0; i < N; i++)
        for (int j = far + 1; j < N; j++)
            A[i][j] -= A[i][far];
    printf("A %.10e\nB %.10e\nC %.10e\n", checksum(A), checksum(B), checksum(C));
    return 0;
}
