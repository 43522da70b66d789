/* `cancel` and `cancellation point` are refused at compile time */
#include <stdio.h>

int found = -1;
int data[1000];

int main(void)
{
    for (int i = 0; i < 1000; i++)
        data[i] = (i * 37) % 1000;
#pragma omp parallel for
    for (int i = 0; i < 1000; i++) {
        if (data[i] == 500) {
            found = i;
            // expect-error: 16
#pragma omp cancel for
        }
    }
    printf("%d\n", found);
    return 0;
}
