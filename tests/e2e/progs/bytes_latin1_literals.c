/* bytes that are not UTF-8 (this file is Latin-1) reach the program unchanged: in string and
 character literals, in a macro, in a comment: café, and in a region's firstprivate copy */
#include <stdio.h>
#include <string.h>
#define WORD "naïve"
int main(void) {
    const char *s = "café";
    char c = 'ü';
    char copy[8] = "déjà";
    int sum = 0;
    #pragma omp parallel for reduction(+:sum) firstprivate(copy)
    for (int i = 0; i < 16; i++) {
        char mine[8];
        memcpy(mine, copy, sizeof mine);
        mine[0] = "éè"[i % 2];
        sum += (unsigned char)s[3] + (unsigned char)c + (unsigned char)mine[0];
    }
    printf("%s %s %s %d %zu\n", s, WORD, copy, sum, strlen(WORD));
    for (const char *p = "été"; *p; p++) printf("%02x ", (unsigned char)*p);
    printf("\n");
    return 0;
}
