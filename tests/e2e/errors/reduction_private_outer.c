/* a worksharing reduction on a variable the enclosing region makes private (gcc: "reduction
   variable 'm' is private in outer context") */
#include <stdio.h>

int a[64];

int main(void)
{
    int m = 0;
    for (int i = 0; i < 64; i++)
        a[i] = i;
#pragma omp parallel firstprivate(m)
    {
        // expect-error: 15
#pragma omp for reduction(max: m)
        for (int i = 0; i < 64; i++)
            if (a[i] > m)
                m = a[i];
    }
    printf("%d\n", m);
    return 0;
}
