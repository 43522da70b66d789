/* loop variables of typedef, long, size_t and unsigned char type under several schedules,
 * with `continue` in the body: each iteration must see its own value of the variable */
#include <stdio.h>
#include <stddef.h>

typedef short index_t;
long long seen[512];

int main(void)
{
    index_t i;
#pragma omp parallel for schedule(static, 3)
    for (i = 250; i > -250; i -= 13) {
        if (i % 5 == 0)
            continue;
        seen[i + 250] += 1;
    }
    long l;
#pragma omp parallel for schedule(dynamic, 2)
    for (l = 61; l >= -40; l -= 3)
        seen[l + 100] += 2;
#pragma omp parallel for
    for (size_t z = 7; z <= 400; z += 9)
        seen[z] += 4;
#pragma omp parallel for schedule(guided)
    for (unsigned char c = 4; c < 254; c += 5)
        seen[c] += 8;
    unsigned long h = 0;
    for (int k = 0; k < 512; k++)
        h = h * 31 + (unsigned long)seen[k];
    printf("hash=%lu seen[7]=%lld seen[249]=%lld\n", h, seen[7], seen[249]);
    return 0;
}
