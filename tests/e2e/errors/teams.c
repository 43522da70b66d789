/* `teams` is refused at compile time */
#include <stdio.h>

int a[100];

int main(void)
{
    // expect-error: 9
#pragma omp teams num_teams(2)
    {
        a[0] = 1;
    }
    printf("%d\n", a[0]);
    return 0;
}
