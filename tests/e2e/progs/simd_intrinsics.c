/* x86 SIMD intrinsics (SSE, SSE2, SSE3, SSE4.1 and, where the CPU has it, AVX2 through a
   `target` function) in parallel loops: the headers gcc's inline functions come from parse */
#include <immintrin.h>
#include <x86intrin.h>
#include <xmmintrin.h>
#include <emmintrin.h>
#include <pmmintrin.h>
#include <smmintrin.h>
#include <stdio.h>

#define N 1024
float a[N], b[N], c[N];
double d[N];
int m[N];

__attribute__((target("avx2"))) static void add8(const float *x, const float *y, float *z)
{
    __m256 s = _mm256_add_ps(_mm256_loadu_ps(x), _mm256_loadu_ps(y));
    _mm256_storeu_ps(z, _mm256_mul_ps(s, _mm256_set1_ps(0.5f)));
}

/* SSE3 and SSE4.1 are not in the default x86-64 target */
__attribute__((target("sse4.1"))) static void step(int i)
{
    __m128d h = _mm_hadd_pd(_mm_set_pd(a[i], b[i]), _mm_set_pd(a[i + 1], b[i + 1]));
    _mm_storeu_pd(&d[i], h);
    __m128i v = _mm_max_epi32(_mm_set_epi32(i, -i, 3 * i, 7), _mm_set1_epi32(100));
    _mm_storeu_si128((__m128i *)&m[i], v);
}

static void add8_scalar(const float *x, const float *y, float *z)
{
    for (int k = 0; k < 8; k++)
        z[k] = (x[k] + y[k]) * 0.5f;
}

int main(void)
{
    for (int i = 0; i < N; i++) {
        a[i] = (float)i;
        b[i] = (float)(N - i) * 0.25f;
    }
#pragma omp parallel for
    for (int i = 0; i < N; i += 4) {
        __m128 s = _mm_add_ps(_mm_loadu_ps(&a[i]), _mm_loadu_ps(&b[i]));
        _mm_storeu_ps(&c[i], _mm_mul_ps(s, _mm_set1_ps(2.0f)));
        step(i);
    }
    int avx2 = __builtin_cpu_supports("avx2");
#pragma omp parallel for
    for (int i = 0; i < N; i += 8) {
        if (avx2)
            add8(&c[i], &a[i], &b[i]);
        else
            add8_scalar(&c[i], &a[i], &b[i]);
    }
    double sum = 0, dsum = 0;
    long msum = 0;
    for (int i = 0; i < N; i++) {
        sum += b[i];
        dsum += d[i];
        msum += m[i];
    }
    printf("%.2f %.2f %ld\n", sum, dsum, msum);
    return 0;
}
