/* 16 MiB of shared data: sparse writes (one byte per 4 KiB page), a dense
 * block, and pages that are never touched */
#include <stdio.h>
#include <stdlib.h>

#define SIZE (16u << 20)
static unsigned char big[SIZE];

int main(void)
{
    unsigned char *heap = malloc(SIZE / 2);
    for (unsigned i = 0; i < SIZE / 2; i++)
        heap[i] = (unsigned char)(i * 7);
#pragma omp parallel for
    for (unsigned p = 0; p < SIZE / 4096; p++)
        big[p * 4096 + (p % 4096)] = (unsigned char)(p | 1);
#pragma omp parallel for schedule(static, 4096)
    for (unsigned i = 0; i < (1u << 20); i++)
        big[SIZE / 2 + i] = (unsigned char)(i >> 4);
#pragma omp parallel for
    for (unsigned i = 0; i < SIZE / 2; i += 3)
        heap[i] ^= 0xff;
    unsigned long h = 1469598103934665603UL;
    for (unsigned i = 0; i < SIZE; i += 61)
        h = (h ^ big[i]) * 1099511628211UL;
    unsigned long sum = 0;
    for (unsigned i = 0; i < SIZE; i++)
        sum += big[i];
    for (unsigned i = 0; i < SIZE / 2; i++)
        sum += heap[i] * (unsigned long)(i % 3 + 1);
    printf("sum=%lu h=%016lx\n", sum, h);
    free(heap);
    return 0;
}
