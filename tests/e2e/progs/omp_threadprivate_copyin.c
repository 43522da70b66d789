/* threadprivate globals persist across regions per thread; copyin copies the master's value */
#include <stdio.h>
#ifdef _OPENMP
#include <omp.h>
#else
static int omp_get_thread_num(void) { return 0; }
static int omp_get_num_threads(void) { return 1; }
#endif

int counter;
double weight = 1.5;
#pragma omp threadprivate(counter, weight)

#define N 400
int got[N];
double scaled[N];

int main(void)
{
    counter = 1000;
    weight = 2.0;
#pragma omp parallel copyin(counter, weight)
    {
        int me = omp_get_thread_num(), team = omp_get_num_threads();
        for (int i = me; i < N; i += team) {
            got[i] = counter + i; /* every thread starts from 1000 */
            scaled[i] = weight * i;
        }
        counter = 5000; /* each thread's own copy */
    }
#pragma omp parallel
    {
        int me = omp_get_thread_num(), team = omp_get_num_threads();
        for (int i = me; i < N; i += team)
            got[i] += counter; /* each thread still sees 5000 */
    }
    long h = 0;
    double s = 0;
    for (int i = 0; i < N; i++) {
        h = h * 13 + got[i];
        s += scaled[i];
    }
    printf("counter=%d h=%ld s=%.1f got[0]=%d\n", counter, h, s, got[0]);
    return 0;
}
