/* `atomic capture` is refused at compile time */
#include <stdio.h>

int counter;
int slot[100];

int main(void)
{
#pragma omp parallel for
    for (int i = 0; i < 100; i++) {
        int mine;
        // expect-error: 13
#pragma omp atomic capture
        mine = counter++;
        slot[mine] = i;
    }
    printf("%d\n", counter);
    return 0;
}
