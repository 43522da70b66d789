/* A `parallel ... reduction` nested in an outer region runs as a team of one; when a rank runs
 * several threads of the outer team (num_threads above the rank count, OMP_NUM_THREADS=2 in
 * the .env file), its reduction must still combine into the variable of the thread that
 * encountered it, right away, not at the outer team's merge. */
#include <stdio.h>
#ifdef _OPENMP
#include <omp.h>
#else
static int omp_get_thread_num(void) { return 0; }
#endif

long r[64];
int bad = 0, checked = 0, wrong = 0;

static long dot(const long *a, const long *b, int n)
{
    long s = 0;
#pragma omp parallel for reduction(+ : s)
    for (int j = 0; j < n; j++)
        s += a[j] * b[j];
    return s;
}

int main(void)
{
    long a[100], b[100];
    for (int j = 0; j < 100; j++) {
        a[j] = j;
        b[j] = 100 - j;
    }
#pragma omp parallel num_threads(4)
    {
        long s = 0;
#pragma omp parallel for reduction(+ : s)
        for (int j = 0; j < 100; j++)
            s += j;
        r[omp_get_thread_num()] = s;
#pragma omp atomic
        wrong += s != 4950;
    }
    printf("num_threads(4): thread 0 %ld, wrong %d\n", r[0], wrong);

#pragma omp parallel
    {
        int s = 0, m = 0, lp = -1;
#pragma omp parallel reduction(+ : s) reduction(max : m)
        {
            s += 5;
            m = m > 9 ? m : 9;
        }
#pragma omp parallel sections reduction(+ : s)
        {
#pragma omp section
            s += 1;
#pragma omp section
            s += 2;
        }
#pragma omp parallel for lastprivate(lp)
        for (int j = 0; j < 10; j++)
            lp = j;
        long d = dot(a, b, 100);
#pragma omp atomic
        bad += (s != 8) + (m != 9) + (lp != 9) + (d != 166650);
#pragma omp atomic
        checked += 1;
    }
    printf("nested teams: bad=%d, every thread checked: %d\n", bad, checked > 0);
    return 0;
}
