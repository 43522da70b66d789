/* Critical sections and lock pairs whose update operands call a function that writes shared
   state (`total += next_id()`), or have effects of their own (an assignment or `++` inside the
   operand): the section is not an update that can be re-applied on every process, its calls
   and effects happen once per section, in lock order. A pure library call (`sqrt`) in an
   operand stays an update. */
#ifdef _OPENMP
#include <omp.h>
#else
typedef int omp_lock_t;
static void omp_init_lock(omp_lock_t *l) { *l = 0; }
static void omp_set_lock(omp_lock_t *l) { ++*l; }
static void omp_unset_lock(omp_lock_t *l) { --*l; }
static void omp_destroy_lock(omp_lock_t *l) { *l = 0; }
#endif
#include <math.h>
#include <stdio.h>

int counter = 0;
int lcounter = 0;
long total = 0, ltotal = 0, seen = 0, chained = 0;
int last = 0, bumps = 0;
double roots = 0;

static int next_id(void) { return ++counter; }

static int next_lock_id(void)
{
    lcounter += 2;
    return lcounter;
}

int main(void)
{
    omp_lock_t lock;
    omp_init_lock(&lock);
#pragma omp parallel for schedule(dynamic, 3)
    for (int i = 0; i < 100; i++) {
#pragma omp critical
        total += next_id();
        omp_set_lock(&lock);
        ltotal += next_lock_id();
        omp_unset_lock(&lock);
#pragma omp critical(effects)
        {
            seen += (last = i % 7);
            chained += ++bumps;
        }
#pragma omp critical(pure)
        roots += sqrt((double)(i % 4));
    }
    omp_destroy_lock(&lock);
    printf("total %ld counter %d\n", total, counter);
    printf("ltotal %ld lcounter %d\n", ltotal, lcounter);
    printf("seen %ld chained %ld bumps %d\n", seen, chained, bumps);
    printf("roots %.6f\n", roots);
    return 0;
}
