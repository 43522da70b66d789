/* GNU `__thread` means `_Thread_local`: at file scope, `static`, `extern` and in a block */
#include <stdio.h>

__thread int counter = 5;
static __thread long scratch;
extern __thread int counter;

#define N 200
int out[N];

static int next(void)
{
    static __thread int calls;
    return ++calls;
}

int main(void)
{
    counter += 1;
    scratch = 40;
    int first = next();
    printf("%d %ld %d %d\n", counter, scratch, first, next());
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        scratch = i; /* each thread's own object */
        out[i] = (int)scratch * 2;
    }
    long sum = 0;
    for (int i = 0; i < N; i++)
        sum += out[i];
    printf("%ld\n", sum);
    return 0;
}
