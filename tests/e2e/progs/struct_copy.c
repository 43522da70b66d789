/* whole-struct assignment (including padding) and arrays inside structs */
#include <stdio.h>
#include <string.h>

struct item {
    char name[11];
    double weight;
    short tags[3];
    long id;
};

struct item items[60], copies[60];

int main(void)
{
    memset(items, 0, sizeof items);
    memset(copies, 0, sizeof copies);
    for (int i = 0; i < 60; i++) {
        snprintf(items[i].name, sizeof items[i].name, "item-%03d", i);
        items[i].weight = i * 1.5;
        items[i].id = 1000 + i;
    }
#pragma omp parallel for
    for (int i = 0; i < 60; i++) {
        struct item t = items[59 - i];
        t.tags[i % 3] = (short)i;
        t.weight += 0.25;
        copies[i] = t;
    }
    unsigned long h = 0;
    for (int i = 0; i < 60; i++)
        h = h * 1000003 + (unsigned long)copies[i].id + (unsigned long)(copies[i].weight * 4) +
            (unsigned short)copies[i].tags[0] + (unsigned short)copies[i].tags[2] * 3u;
    printf("hash=%lu copies[0]=%s,%.2f copies[59]=%s,%.2f tags=%d,%d,%d\n", h, copies[0].name,
           copies[0].weight, copies[59].name, copies[59].weight, copies[10].tags[0],
           copies[10].tags[1], copies[10].tags[2]);
    return 0;
}
