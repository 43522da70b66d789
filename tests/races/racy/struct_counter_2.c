/* a struct field counted by every iteration.
 * expect: race on st at line 11 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
struct stats { double count; double total; } st;
int main(void)
{
#pragma omp parallel for
    for (int i = 0; i < 200; i++)
        st.count++;
    printf("%g\n", st.count);
    return 0;
}
