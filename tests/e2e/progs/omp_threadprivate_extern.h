/* the usual header pattern: declarations and their threadprivate directive */
extern int tp_count;
extern double tp_scale[4];
#pragma omp threadprivate(tp_count, tp_scale)
