/* identifiers in UTF-8 (C99 extended identifiers; gcc -E spells them as universal character
   names): globals, locals, a function, clause lists and a reduction */
#include <stdio.h>
static int größe = 3;
static double gewichte_α[64];
static double maß(double x) { return x * größe; }
int main(void) {
    double summe_ä = 0.0;
    int länge = 64, größter = 0;
    #pragma omp parallel for reduction(+:summe_ä) reduction(max:größter) firstprivate(größe)
    for (int ī = 0; ī < länge; ī++) {
        gewichte_α[ī] = maß(ī);
        summe_ä += gewichte_α[ī];
        if (ī * größe > größter) größter = ī * größe;
    }
    printf("größe=%d summe=%.1f größter=%d α[63]=%.1f\n", größe, summe_ä, größter, gewichte_α[63]);
    return 0;
}
