/* Stand-alone directives as the body of a statement or after a label (gcc refuses them: "may
   only be used in compound statements"); a barrier under `if` would hang the other ranks. */
int main(void) {
    int x = 0;
#pragma omp parallel
    {
        if (x)
#pragma omp barrier
        while (x)
#pragma omp taskwait
        for (; x;)
#pragma omp taskyield
        do
#pragma omp flush
            x++;
        while (x);
        if (x) {
        } else
#pragma omp barrier
        switch (x) {
        case 1:
#pragma omp barrier
            break;
        }
        {
#pragma omp barrier
        }
        x = 0;
#pragma omp barrier
    }
    return x;
}
