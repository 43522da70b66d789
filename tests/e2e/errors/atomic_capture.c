/* `atomic capture` of anything but a `+`/`-` update of an integer is refused at compile time
   (the captured values of `x *= 2` or of a floating-point sum depend on the update order) */
#include <stdio.h>

int scale = 1;
double total;

int main(void)
{
    int seen = 0;
    double before = 0;
#pragma omp parallel for
    for (int i = 0; i < 10; i++) {
        // expect-error: 16
#pragma omp atomic capture
        seen = scale *= 2;
#pragma omp atomic capture
        before = total += 0.5;
    }
    printf("%d %f\n", seen, before);
    return 0;
}
