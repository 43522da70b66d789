/* the program writes its command line: argv strings and the argv array are the program's
   memory, changed in parallel regions like any array */
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc < 4 || argv[argc] != NULL)
        return 1;
    /* every byte of every argument, the iterations spread over the team */
    int total = 0;
    for (int a = 1; a < argc; a++)
        total += (int)strlen(argv[a]);
#pragma omp parallel for schedule(dynamic, 1)
    for (int k = 0; k < total; k++) {
        int a = 1, i = k;
        while (i >= (int)strlen(argv[a]))
            i -= (int)strlen(argv[a++]);
        char c = argv[a][i];
        if (c >= 'a' && c <= 'z')
            argv[a][i] = (char)(c - 'a' + 'A');
        else if (c >= 'A' && c <= 'Z')
            argv[a][i] = (char)(c - 'A' + 'a');
    }
    for (int a = 1; a < argc; a++)
        printf("%s\n", argv[a]);

    /* argv[2] reversed in place: each iteration swaps a pair of bytes */
    int n = (int)strlen(argv[2]);
#pragma omp parallel for
    for (int i = 0; i < n / 2; i++) {
        char t = argv[2][i];
        argv[2][i] = argv[2][n - 1 - i];
        argv[2][n - 1 - i] = t;
    }
    printf("%s\n", argv[2]);

    /* the array itself: one thread swaps two pointers, another shortens argv[1] */
#pragma omp parallel sections
    {
#pragma omp section
        {
            char *t = argv[1];
            argv[1] = argv[argc - 1];
            argv[argc - 1] = t;
        }
#pragma omp section
        argv[3][1] = '\0';
    }
    for (int a = 1; a < argc; a++)
        printf("%d %s\n", a, argv[a]);
    return 0;
}
