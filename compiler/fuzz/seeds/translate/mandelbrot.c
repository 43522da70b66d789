/* mandelbrot.c - render the Mandelbrot set into a greyscale PGM image.
 * usage: ./mandelbrot [width] [height] [max_iter] [out.pgm]
 *        (defaults 800 600 256 mandelbrot.pgm)
 * The pixel loop is parallel; writing the file is ordinary sequential code
 * after the loop (under capecc only rank 0's output reaches the file system
 * view the user cares about, and every rank holds the same image anyway). */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int width = argc > 1 ? atoi(argv[1]) : 800;
    int height = argc > 2 ? atoi(argv[2]) : 600;
    int max_iter = argc > 3 ? atoi(argv[3]) : 256;
    const char *path = argc > 4 ? argv[4] : "mandelbrot.pgm";
    if (width < 1 || height < 1 || max_iter < 1) {
        fprintf(stderr, "usage: %s [width] [height] [max_iter] [out.pgm]\n", argv[0]);
        return 2;
    }
    unsigned char *image = malloc((size_t)width * (size_t)height);
    if (!image) {
        fprintf(stderr, "mandelbrot: out of memory\n");
        return 1;
    }

    /* one row of pixels per iteration: neighbouring threads write neighbouring bytes */
#pragma omp parallel for schedule(static, 1)
    for (int y = 0; y < height; y++) {
        double ci = -1.2 + 2.4 * (double)y / (double)height;
        for (int x = 0; x < width; x++) {
            double cr = -2.2 + 3.2 * (double)x / (double)width;
            double zr = 0.0, zi = 0.0;
            int it = 0;
            while (it < max_iter && zr * zr + zi * zi <= 4.0) {
                double t = zr * zr - zi * zi + cr;
                zi = 2.0 * zr * zi + ci;
                zr = t;
                it++;
            }
            image[(size_t)y * width + x] = (unsigned char)(it >= max_iter ? 0 : 255 - (it * 255) / max_iter);
        }
    }

    unsigned long long checksum = 0;
    long inside = 0;
    for (size_t p = 0; p < (size_t)width * height; p++) {
        checksum = checksum * 31 + image[p];
        inside += image[p] == 0;
    }

    FILE *f = fopen(path, "wb");
    if (!f) {
        perror(path);
        return 1;
    }
    fprintf(f, "P5\n%d %d\n255\n", width, height);
    fwrite(image, 1, (size_t)width * height, f);
    fclose(f);

    printf("%dx%d, max_iter %d -> %s\ninside: %ld\nchecksum: %016llx\n", width, height, max_iter,
           path, inside, checksum);
    free(image);
    return 0;
}
