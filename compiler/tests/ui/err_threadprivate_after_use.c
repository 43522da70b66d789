/* `threadprivate` after the variable was used (gcc: "declared 'threadprivate' after first
   use"), at file scope and for a static local; sizeof counts as a use, as in gcc. */
int counter;
int limit;
int size = sizeof(limit);
static int bump(void) { return ++counter; }
#pragma omp threadprivate(counter)
#pragma omp threadprivate(limit)
int fresh;
#pragma omp threadprivate(fresh)
int main(void) {
    static int s;
    s = bump();
#pragma omp threadprivate(s)
    return s + fresh;
}
