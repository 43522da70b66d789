/* array of structs: each iteration its own element.
 * expect: no race */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
struct pt { int x, y; } pts[64];
int main(void)
{
#pragma omp parallel for
    for (int i = 0; i < 64; i++) {
        pts[i].y = i;
        pts[i].x = pts[i].y * 2;
    }
    printf("%d\n", pts[3].x);
    return 0;
}
