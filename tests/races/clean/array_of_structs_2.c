/* array of structs: each iteration its own element.
 * expect: no race */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
struct pt { double x, y; } pts[200];
int main(void)
{
#pragma omp parallel for
    for (int i = 0; i < 200; i++) {
        pts[i].y = i;
        pts[i].x = pts[i].y * 2;
    }
    printf("%g\n", pts[3].x);
    return 0;
}
