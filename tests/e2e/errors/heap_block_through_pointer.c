// expect-error: 23
/* The address of a block allocated in the region reaches shared memory through a private
 * pointer: `p` is the thread's own, but the field it is copied into is not. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct node
{
    char *name;
    int id;
};

static struct node nodes[16];

int main(void)
{
#pragma omp parallel for
    for (int i = 0; i < 16; i++)
    {
        char *p = malloc(16);
        snprintf(p, 16, "node-%d", i);
        nodes[i].name = p;
        nodes[i].id = i;
    }
    printf("%s %d\n", nodes[15].name, nodes[15].id);
    return 0;
}
