/* wordfreq.c - word frequencies of the text on standard input.
 * usage: ./wordfreq [top] < text   (default top 10)
 * Reading and normalising the words is sequential; counting is a parallel
 * loop over the words (each thread counts the words whose first occurrence
 * it owns); the top list is picked sequentially. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_WORDS 20000
#define WORD_LEN 32

static char words[MAX_WORDS][WORD_LEN];
static int counts[MAX_WORDS];

int main(int argc, char **argv)
{
    int top = argc > 1 ? atoi(argv[1]) : 10;
    int nwords = 0;
    long nchars = 0;
    char token[256];

    while (nwords < MAX_WORDS && scanf("%255s", token) == 1) {
        int len = 0;
        for (char *c = token; *c; c++) {
            nchars++;
            if (isalpha((unsigned char)*c) && len < WORD_LEN - 1)
                words[nwords][len++] = (char)tolower((unsigned char)*c);
        }
        words[nwords][len] = '\0';
        if (len > 0)
            nwords++;
    }

    long distinct = 0;
#pragma omp parallel for schedule(static, 16) reduction(+ : distinct)
    for (int i = 0; i < nwords; i++) {
        int first = 1;
        for (int j = 0; j < i && first; j++)
            if (strcmp(words[j], words[i]) == 0)
                first = 0;
        counts[i] = 0;
        if (first) {
            distinct++;
            for (int j = i; j < nwords; j++)
                counts[i] += strcmp(words[j], words[i]) == 0;
        }
    }

    printf("%d words, %ld distinct, %ld letters and marks\n", nwords, distinct, nchars);
    for (int rank = 1; rank <= top; rank++) {
        int best = -1;
        for (int i = 0; i < nwords; i++)
            if (counts[i] > 0 &&
                (best < 0 || counts[i] > counts[best] ||
                 (counts[i] == counts[best] && strcmp(words[i], words[best]) < 0)))
                best = i;
        if (best < 0)
            break;
        printf("%2d. %-16s %d\n", rank, words[best], counts[best]);
        counts[best] = 0;
    }
    return 0;
}
