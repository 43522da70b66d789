/* line-oriented input with fgets and getchar, processed in parallel */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

char lines[200][128];
int lengths[200];
int vowels[200];

int main(void)
{
    int c = getchar(); /* first character: a marker to be echoed */
    int n = 0;
    while (n < 200 && fgets(lines[n], sizeof lines[n], stdin))
        n++;
#pragma omp parallel for schedule(static, 2)
    for (int i = 0; i < n; i++) {
        lengths[i] = (int)strlen(lines[i]);
        for (char *p = lines[i]; *p; p++) {
            if (strchr("aeiouAEIOU", *p))
                vowels[i]++;
            *p = (char)toupper((unsigned char)*p);
        }
    }
    int total = 0, most = 0;
    for (int i = 0; i < n; i++) {
        total += vowels[i];
        if (vowels[i] > vowels[most])
            most = i;
    }
    printf("marker=%c lines=%d vowels=%d longest-vowel-line=%d: %s", c, n, total, most,
           n ? lines[most] : "\n");
    return 0;
}
