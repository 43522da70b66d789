/* Cost of one acquisition of a critical section: N iterations of a parallel for, each taking
   the lock once. Mode 1: a general section (a read-modify-write sequence, run under the lock
   the ranks share); mode 2: the same effect as a mergeable update (no lock); mode 0: no
   critical section at all (the loop's own cost); mode 3: a general section that calls a
   function doing the read-modify-write (it runs as its instrumented clone); mode 4: the
   read-modify-write between a lock's set and unset made in helper functions; mode 5: nothing
   (the loop alone, for the threads of one rank, whose atomic costs a lock); mode 6: mode 1's
   section taken by threads 0 and 1 only (with two threads per rank: the threads of one
   rank, no other rank wants the lock); mode 7: an `atomic` add of 1 to a long (gcc folds
   mode 0's `+= 0` away: one locked add), mode 8: an `atomic` add of 1.0 to a double (a
   compare-and-swap loop). The kernel time goes to stderr as `kernel_seconds T`, the answer to
   stdout. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

long counter;
long sink;
long isum;
double dsum;
omp_lock_t lock;

static void bump(long *c)
{
    long v = *c;
    *c = v + 1;
}
static void acquire(void) { omp_set_lock(&lock); }
static void release(void) { omp_unset_lock(&lock); }

int main(int argc, char **argv)
{
    int mode = argc > 1 ? atoi(argv[1]) : 1;
    long n = argc > 2 ? atol(argv[2]) : 20000;
    omp_init_lock(&lock);
    double t0 = omp_get_wtime();
    if (mode == 6) {
#pragma omp parallel
        {
            int me = omp_get_thread_num();
            for (long i = me; me < 2 && i < n; i += 2) {
#pragma omp critical
                {
                    long c = counter;
                    counter = c + 1;
                }
            }
        }
    } else {
#pragma omp parallel for schedule(static)
        for (long i = 0; i < n; i++) {
            if (mode == 1) {
#pragma omp critical
                {
                    long c = counter;
                    counter = c + 1;
                }
            } else if (mode == 3) {
#pragma omp critical
                bump(&counter);
            } else if (mode == 4) {
                acquire();
                long c = counter;
                counter = c + 1;
                release();
            } else if (mode == 2) {
#pragma omp critical
                counter += 1;
            } else if (mode == 7) {
#pragma omp atomic
                isum += 1;
            } else if (mode == 8) {
#pragma omp atomic
                dsum += 1.0;
            } else if (mode != 5) {
#pragma omp atomic
                sink += 0;
            }
        }
    }
    double t = omp_get_wtime() - t0;
    if (mode == 0 || mode == 5)
        counter = n;
    if (mode == 7)
        counter = isum;
    if (mode == 8)
        counter = (long)dsum;
    printf("%ld\n", counter);
    fprintf(stderr, "kernel_seconds %.6f\n", t);
    return 0;
}
