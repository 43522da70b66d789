/* An equivalent of the NAS IS benchmark (written for capecc's tests, not NPB's code): integer
   keys ranked by a bucket sort with per-thread histograms, prefix sums in an `omp single`,
   each thread scattering its keys into its part of every bucket, then a counting rank within
   the buckets; repeated with two keys changed each iteration. Verification: sortedness, the
   ranks of a few keys and a checksum of the sorted order. Class S or W (argument). */
#include <stdio.h>
#include <stdlib.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#define MAXT 64
#define NB 64
#define ITER 6

int *key, *sorted, *rank_of;
long hist[MAXT][NB], start[MAXT][NB];

int main(int argc, char **argv)
{
    char cls = argc > 1 ? argv[1][0] : 'S';
    long n = cls == 'W' ? 1L << 20 : 1L << 16;
    int maxkey = cls == 'W' ? 1 << 14 : 1 << 11;
    const long ref[2] = {478673253, 999441338};
    key = malloc(n * sizeof *key);
    sorted = malloc(n * sizeof *sorted);
    rank_of = malloc(n * sizeof *rank_of);
    unsigned s = 314159265u;
    for (long i = 0; i < n; i++) {
        int sum = 0;
        for (int j = 0; j < 4; j++) {
            s = s * 1103515245u + 12345u;
            sum += (s >> 8) % (maxkey / 4);
        }
        key[i] = sum;
    }
    long passed = 0;
    for (int it = 1; it <= ITER; it++) {
        key[it] = it;
        key[it + ITER] = maxkey - it;
#pragma omp parallel
        {
            int t = 0, nt = 1;
#ifdef _OPENMP
            t = omp_get_thread_num();
            nt = omp_get_num_threads();
#endif
            for (int b = 0; b < NB; b++)
                hist[t][b] = 0;
            long lo = n * t / nt, hi = n * (t + 1) / nt;
            for (long i = lo; i < hi; i++)
                hist[t][key[i] * NB / maxkey]++;
#pragma omp barrier
#pragma omp single
            {
                long pos = 0;
                for (int b = 0; b < NB; b++)
                    for (int u = 0; u < nt; u++) {
                        start[u][b] = pos;
                        pos += hist[u][b];
                    }
            }
            long next[NB];
            for (int b = 0; b < NB; b++)
                next[b] = start[t][b];
            for (long i = lo; i < hi; i++)
                sorted[next[key[i] * NB / maxkey]++] = key[i];
#pragma omp barrier
            /* rank within each bucket by counting (buckets shared out) */
#pragma omp for schedule(dynamic, 1)
            for (int b = 0; b < NB; b++) {
                long first = start[0][b], last = b + 1 < NB ? start[0][b + 1] : n;
                int kmin = b * maxkey / NB, kmax = (b + 1) * maxkey / NB;
                long count[1 << 14];
                for (int k = kmin; k < kmax; k++)
                    count[k - kmin] = 0;
                for (long i = first; i < last; i++)
                    count[sorted[i] - kmin]++;
                long r = first;
                for (int k = kmin; k < kmax; k++) {
                    long c = count[k - kmin];
                    for (long i = 0; i < c; i++)
                        sorted[r + i] = k;
                    count[k - kmin] = r;
                    r += c;
                }
                for (long i = first; i < last; i++)
                    rank_of[i] = (int)count[sorted[i] - kmin];
            }
        }
        /* partial verification: the rank of the changed keys */
        long below = 0;
        for (long i = 0; i < n; i++)
            below += key[i] < it;
        passed += rank_of[below] == below && sorted[below] == it;
    }
    long check = 0;
    int order = 1;
    for (long i = 0; i < n; i++) {
        check = (check * 131 + sorted[i]) % 1000000007;
        if (i > 0 && sorted[i - 1] > sorted[i])
            order = 0;
    }
    printf(" IS Benchmark equivalent, class %c: %ld keys in [0, %d)\n", cls, n, maxkey);
    printf(" partial verifications passed %ld of %d, sorted %d, checksum %ld\n", passed, ITER, order, check);
    int ok = order && passed == ITER && check == ref[cls == 'W'];
    printf(" Verification = %s\n", ok ? "SUCCESSFUL" : "UNSUCCESSFUL");
    return 0;
}
