/* __func__, __FUNCTION__, __PRETTY_FUNCTION__ and assert's message name the user's function
   inside a region (not the outlined function), in main too; the failing assert is checked
   against gcc -fopenmp's message on stderr by hand: here it must pass */
#include <assert.h>
#include <stdio.h>
#include <string.h>

char seen[4][32];
int ok;

static void work(int n)
{
#pragma omp parallel
    {
#pragma omp single
        {
            strcpy(seen[0], __func__);
            strcpy(seen[1], __FUNCTION__);
            strcpy(seen[2], __PRETTY_FUNCTION__);
        }
#pragma omp for reduction(+:ok)
        for (int i = 0; i < n; i++)
            ok += strcmp(__func__, "work") == 0 && sizeof __func__ == sizeof "work";
        assert(n > 0);
    }
}

int main(void)
{
    work(10);
#pragma omp parallel
#pragma omp single
    strcpy(seen[3], __func__);
    printf("%s %s %s %s %s %d\n", __func__, seen[0], seen[1], seen[2], seen[3], ok);
    return 0;
}
