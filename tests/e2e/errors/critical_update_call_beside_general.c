/* an update-only `critical` whose operand calls through a function pointer cannot run as a
   general section, yet the program has a general section of the same name that it must
   exclude: a clear error when it runs, not a lost update */
// expect-runtime-error: made of updates whose operands call functions capecc cannot follow
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
