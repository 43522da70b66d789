/* a count kept in a reduction variable, stored in the struct after.
 * expect: no race */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
struct stats { double count; double total; } st;
int main(void)
{
    double count = 0;
#pragma omp parallel for reduction(+:count)
    for (int i = 0; i < 200; i++)
        count++;
    st.count = count;
    printf("%g\n", st.count);
    return 0;
}
