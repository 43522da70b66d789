/* `critical` sections of one name exclude each other whatever their bodies: here a section made
   only of an update (which capecc would otherwise merge as an update, in any order) and a
   general section of the same name that reads the counter and writes it back. Every section
   must see all those before it, so the counter ends at the number of sections. An unnamed
   pair too. */
#include <stdio.h>

long count = 0;
long seen[8];
double total = 0.0;
int general_runs = 0;

int main(void)
{
#pragma omp parallel for schedule(static)
    for (int i = 0; i < 3000; i++) {
        if (i % 3 == 0) {
#pragma omp critical(tally)
            count += 1;
        } else {
#pragma omp critical(tally)
            {
                long c = count;
                seen[c % 8]++;
                count = c + 1;
            }
        }
    }
    long s = 0;
    for (int k = 0; k < 8; k++)
        s += seen[k];
    printf("count %ld general %ld\n", count, s);

    /* fewer iterations than ranks on some runs: 3 */
#pragma omp parallel for
    for (int i = 0; i < 3; i++) {
#pragma omp critical
        {
            double t = total;
            general_runs++;
            total = t + 1.0;
        }
#pragma omp critical
        total += 2.0;
    }
    printf("total %.3f runs %d\n", total, general_runs);
    return 0;
}
