/* Executable directives outside any function. */
#pragma omp barrier
int x;
#pragma omp flush
#pragma omp parallel
int main(void) { return x; }
