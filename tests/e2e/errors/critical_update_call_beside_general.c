/* an update-only `critical` whose operand calls through a function pointer is not an update
   that can be re-applied on every process (the call may write shared memory): it must run as
   a general section, which cannot follow the call: refused at the call, not a lost update */
// expect-error: 17
#include <stdio.h>

long count = 0;
static long one(int i) { return i >= 0; }
long (*step)(int) = one;

int main(void)
{
#pragma omp parallel for
    for (int i = 0; i < 100; i++) {
        if (i % 2) {
#pragma omp critical(tally)
            count += step(i);
        } else {
#pragma omp critical(tally)
            {
                long c = count;
                count = c + 1;
            }
        }
    }
    printf("%ld\n", count);
    return 0;
}
