/* a fetch-and-add whose result is used inside a region would hand every process the same
   tickets: refused at its line */
#include <stdio.h>

int next_ticket;
int tickets[64];

int main(void)
{
#pragma omp parallel
    {
        // expect-error: 13
        int mine = __atomic_fetch_add(&next_ticket, 1, __ATOMIC_SEQ_CST);
        tickets[mine] = 1;
    }
    int n = 0;
    for (int i = 0; i < 64; i++)
        n += tickets[i];
    printf("%d %d\n", next_ticket, n);
    return 0;
}
