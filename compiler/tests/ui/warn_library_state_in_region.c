#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int x[100];
double y[100];
char line[100][80];

void orphaned(void)
{
#pragma omp for
    for (int i = 0; i < 100; i++)
        y[i] = drand48();
}

int main(void)
{
    FILE *fp = fopen("input.txt", "r");
    char text[] = "a b c";
    srand(1234);
#pragma omp parallel for
    for (int i = 0; i < 100; i++)
        x[i] = rand() % 1000;
#pragma omp parallel
    {
        char *tok = strtok(text, " ");
        if (tok)
            x[0] = tok[0];
#pragma omp for
        for (int i = 0; i < 100; i++)
            fgets(line[i], 80, fp);
#pragma omp single
        x[1] = random();
        unsigned seed = 7;
        x[2] = rand_r(&seed);
        orphaned();
    }
    printf("%d %d\n", x[0], rand());
    return 0;
}
