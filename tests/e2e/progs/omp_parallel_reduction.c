/* reduction on a plain parallel region (each thread adds its own share) */
#include <stdio.h>
#ifdef _OPENMP
#include <omp.h>
#else
static int omp_get_thread_num(void) { return 0; }
static int omp_get_num_threads(void) { return 1; }
#endif

int main(void)
{
    long sum = 5;
    int mx = -1000, mn = 1000;
    unsigned bits = 0;
    double prod = 1.0;
#pragma omp parallel reduction(+ : sum) reduction(max : mx) reduction(min : mn) reduction(| : bits) reduction(* : prod)
    {
        int me = omp_get_thread_num(), team = omp_get_num_threads();
        for (int i = me; i < 500; i += team) {
            sum += i * (long)i;
            int v = (i * 37) % 211 - 100;
            if (v > mx)
                mx = v;
            if (v < mn)
                mn = v;
            bits |= 1u << (i % 29);
            if (i % 50 == 1)
                prod *= 2.0;
        }
    }
    printf("sum=%ld max=%d min=%d bits=%x prod=%.1f\n", sum, mx, mn, bits, prod);
    return 0;
}
