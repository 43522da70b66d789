/* array of structs: p[i].x reads p[i+1].y.
 * expect: race on pts at line 12 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
struct pt { double x, y; } pts[200 + 1];
int main(void)
{
#pragma omp parallel for
    for (int i = 0; i < 200; i++) {
        pts[i].y = i;
        pts[i].x = pts[i + 1].y;
    }
    printf("%g\n", pts[0].x);
    return 0;
}
