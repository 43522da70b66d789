/* Critical sections and lock pairs made of update statements where one update reads what
   another (or the same) update of the section writes: `{ c += 1; s += c; }`, `x += x`,
   `y = y + y % 7`, a histogram bin with a running maximum of the bins, an index updated before
   the element it selects, reads through a pointer that points at an updated variable, and an
   update of an array element whose operand reads another element of that array, and a section
   that reads what another section of the same name (or lock pair of the same lock) updates. Such a section is not
   a set of independent updates: every result depends on the order of the sections, which
   OpenMP makes one at a time, so the totals below are the same at any thread count. */
#ifdef _OPENMP
#include <omp.h>
#else
typedef int omp_lock_t;
static void omp_init_lock(omp_lock_t *l) { *l = 0; }
static void omp_set_lock(omp_lock_t *l) { ++*l; }
static void omp_unset_lock(omp_lock_t *l) { --*l; }
static void omp_destroy_lock(omp_lock_t *l) { *l = 0; }
#endif
#include <stdio.h>

int c = 0;
long s = 0;
long x = 1, y = 3;
int hist[10], mx = 0;
int lhist[10], lmx = 0;
int k = 0, ring[8];
long target = 0, sum_via_pointer = 0;
long *watched = &target;
long q[6] = {1, 0, 0, 0, 0, 0};
long lc = 0, ls = 0;
long a_cnt = 0, b_sum = 0, la_cnt = 0, lb_sum = 0;

int main(void)
{
    omp_lock_t lock;
    omp_init_lock(&lock);
#pragma omp parallel for schedule(static, 1)
    for (int i = 0; i < 100; i++) {
#pragma omp critical
        {
            c += 1;
            s += c;
        }
#pragma omp critical(bins)
        {
            hist[i % 10]++;
            if (hist[i % 10] > mx)
                mx = hist[i % 10];
        }
        omp_set_lock(&lock);
        lhist[i % 10] += 2;
        if (lhist[i % 10] > lmx)
            lmx = lhist[i % 10];
        lc += 1;
        ls += lc;
        omp_unset_lock(&lock);
        /* a section that reads what another section of the same name (or lock) updates */
#pragma omp critical(split)
        a_cnt += 1;
#pragma omp critical(split)
        b_sum += a_cnt;
        omp_set_lock(&lock);
        la_cnt += 2;
        omp_unset_lock(&lock);
        omp_set_lock(&lock);
        lb_sum += la_cnt;
        omp_unset_lock(&lock);
#pragma omp critical(ring)
        {
            k = k + 1;
            ring[k % 8] += k;
        }
#pragma omp critical(pointer)
        {
            target += 3;
            sum_via_pointer += *watched;
        }
#pragma omp critical(prefix)
        {
            q[0] += 1;
            q[q[0] % 2 + 1] += q[0];
        }
    }
#pragma omp parallel for
    for (int i = 0; i < 20; i++) {
#pragma omp critical
        x += x;
#pragma omp critical
        y = y + y % 7;
    }
    omp_destroy_lock(&lock);
    printf("c %d s %ld\n", c, s);
    printf("hist[3] %d mx %d lhist[3] %d lmx %d lc %ld ls %ld\n", hist[3], mx, lhist[3], lmx, lc,
           ls);
    long r = 0;
    for (int j = 0; j < 8; j++)
        r = r * 3 + ring[j];
    printf("k %d ring %ld\n", k, r);
    printf("target %ld via pointer %ld\n", target, sum_via_pointer);
    printf("x %ld y %ld\n", x, y);
    printf("q %ld %ld %ld\n", q[0], q[1], q[2]);
    /* each b (lb) addition follows its own iteration's a (la) addition: at least 1 + ... + 100 */
    printf("a %ld b >= 5050: %d, la %ld lb >= 10100: %d\n", a_cnt, b_sum >= 5050, la_cnt,
           lb_sum >= 10100);
    return 0;
}
