/* `declare reduction`: user combiners and initializers on a struct (a bounding box, an
   initializer calling a function with omp_priv and omp_orig), on a typedef'd struct (a compound literal initializer), on a scalar (a "keep the
   largest magnitude" reduction of doubles, an initializer with a braced struct), and on an
   array section; used in `parallel for` and `parallel` + `for`. */
#include <stdio.h>

struct box {
    double lo_x, lo_y, hi_x, hi_y;
};

typedef struct { double re, im; } cplx;

struct stats {
    long count;
    double sum;
    long max_at;
};

static void box_merge(struct box *out, const struct box *in)
{
    if (in->lo_x < out->lo_x) out->lo_x = in->lo_x;
    if (in->lo_y < out->lo_y) out->lo_y = in->lo_y;
    if (in->hi_x > out->hi_x) out->hi_x = in->hi_x;
    if (in->hi_y > out->hi_y) out->hi_y = in->hi_y;
}

static void box_empty(struct box *priv, const struct box *orig)
{
    (void)orig;
    priv->lo_x = priv->lo_y = 1e300;
    priv->hi_x = priv->hi_y = -1e300;
}

#pragma omp declare reduction(boxmerge : struct box : box_merge(&omp_out, &omp_in)) \
    initializer(box_empty(&omp_priv, &omp_orig))

#pragma omp declare reduction(absmax : double : omp_out = (omp_in > omp_out ? omp_in : omp_out)) \
    initializer(omp_priv = 0.0)

#pragma omp declare reduction(merge_stats : struct stats : \
        omp_out.max_at = (omp_in.max_at > omp_out.max_at ? omp_in.max_at : omp_out.max_at), \
        omp_out.count += omp_in.count, omp_out.sum += omp_in.sum) \
    initializer(omp_priv = { 0, 0.0, -1 })

#pragma omp declare reduction(cadd : cplx : omp_out.re += omp_in.re, omp_out.im += omp_in.im) \
    initializer(omp_priv = (cplx){0, 0})

/* no initializer: the private copy starts as zero */
#pragma omp declare reduction(xorsum : unsigned : omp_out ^= omp_in)

int main(void)
{
    const int n = 5000;
    struct box bb = {0, 0, 0, 0};
    double big = 1.5;
    struct stats st = {10, 0.5, -1};
    unsigned x = 0x1234u;
    unsigned lanes[6] = {0};
    cplx z = {1, -1};

#pragma omp parallel for reduction(boxmerge : bb) reduction(absmax : big)
    for (int i = 0; i < n; i++) {
        struct box p;
        p.lo_x = p.hi_x = (double)((i * 37) % 1009) - 500.0;
        p.lo_y = p.hi_y = (double)((i * 53) % 997) / 3.0;
        box_merge(&bb, &p);
        double v = (i % 2 ? -1.0 : 1.0) * ((i * 7919) % 4999) / 7.0;
        if (v < 0)
            v = -v;
        if (v > big)
            big = v;
    }

#pragma omp parallel reduction(merge_stats : st) reduction(xorsum : x)
    {
#pragma omp for schedule(dynamic, 7)
        for (int i = 0; i < n; i++) {
            if (i % 3 == 0) {
                st.count++;
                st.sum += i * 0.5;
                if (i > st.max_at)
                    st.max_at = i;
            }
            x ^= (unsigned)(i * 2654435761u);
        }
    }

#pragma omp parallel for reduction(cadd : z)
    for (int i = 0; i < 100; i++) {
        z.re += i;
        z.im -= 2 * i;
    }

#pragma omp parallel for reduction(xorsum : lanes[1:4])
    for (int i = 0; i < n; i++)
        lanes[1 + i % 4] ^= (unsigned)i * 40503u;

    printf("box %.3f %.3f %.3f %.3f\n", bb.lo_x, bb.lo_y, bb.hi_x, bb.hi_y);
    printf("absmax %.6f\n", big);
    printf("stats %ld %.1f %ld\n", st.count, st.sum, st.max_at);
    printf("xor %u\n", x);
    printf("z %.1f %.1f\n", z.re, z.im);
    for (int k = 0; k < 6; k++)
        printf("lanes[%d] = %u\n", k, lanes[k]);
    return 0;
}
