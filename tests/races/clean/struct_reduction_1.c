/* a count kept in a reduction variable, stored in the struct after.
 * expect: no race */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
struct stats { int count; int total; } st;
int main(void)
{
    int count = 0;
#pragma omp parallel for reduction(+:count)
    for (int i = 0; i < 64; i++)
        count++;
    st.count = count;
    printf("%d\n", st.count);
    return 0;
}
