/* A MAGMA program's call through the installed libtdls_magma (or, built with
 * tdls::magma64 / pkg-config tdls_magma64, libtdls_magma64): two 3 x 3 systems
 * with exact answers in host arrays, ldda 4, a NULL queue. A magma_int_t of
 * the wrong width would scramble the pivots checked here. */
#include <stdio.h>

#include <tdls/magma.h>

int main(void) {
    /* Column-major, lda 4 (row 3 is padding): [4 0 0; 0 2 0; 0 0 1] and its row reversal. */
    double a0[12] = {4, 0, 0, -1, 0, 2, 0, -1, 0, 0, 1, -1};
    double a1[12] = {0, 0, 4, -1, 0, 2, 0, -1, 1, 0, 0, -1};
    double b0[3] = {8, 4, 3}, b1[3] = {3, 4, 8};
    double* dA_array[2] = {a0, a1};
    double* dB_array[2] = {b0, b1};
    magma_int_t p0[3], p1[3], info[2] = {-1, -1};
    magma_int_t* dipiv_array[2] = {p0, p1};
    magma_int_t code = magma_dgesv_batched_small(3, 1, dA_array, 4, dipiv_array, dB_array, 3, info, 2, NULL);
    int s;
    if (code != 0 || info[0] != 0 || info[1] != 0) {
        fprintf(stderr, "consumer_magma: code %lld, info %lld %lld\n", (long long)code, (long long)info[0],
                (long long)info[1]);
        return 1;
    }
    for (s = 0; s < 2; ++s) {
        const double* x = dB_array[s];
        if (x[0] != 2 || x[1] != 2 || x[2] != 3) {
            fprintf(stderr, "consumer_magma: system %d: x = (%g, %g, %g), expected (2, 2, 3)\n", s, x[0],
                    x[1], x[2]);
            return 1;
        }
    }
    if (p0[0] != 1 || p0[1] != 2 || p0[2] != 3 || p1[0] != 3 || p1[1] != 2 || p1[2] != 3) {
        fprintf(stderr, "consumer_magma: pivots %lld %lld %lld / %lld %lld %lld\n", (long long)p0[0],
                (long long)p0[1], (long long)p0[2], (long long)p1[0], (long long)p1[1], (long long)p1[2]);
        return 1;
    }
    {
        /* Complex double, MAGMA's magmaDoubleComplex {x, y}: A = [0 2; 1+i 0]
         * column-major (lda 2), b = (6i, 2); x = (1 - i, 3i) exactly, and the
         * pivot of column 0 is row 2 (|1| + |1| = 2 against 0). */
        magmaDoubleComplex az[4] = {{0, 0}, {1, 1}, {2, 0}, {0, 0}};
        magmaDoubleComplex bz[2] = {{0, 6}, {2, 0}};
        magmaDoubleComplex* zA_array[1] = {az};
        magmaDoubleComplex* zB_array[1] = {bz};
        magma_int_t pz[2], zinfo[1] = {-1};
        magma_int_t* zipiv_array[1] = {pz};
        code = magma_zgesv_batched_small(2, 1, zA_array, 2, zipiv_array, zB_array, 2, zinfo, 1, NULL);
        if (code != 0 || zinfo[0] != 0 || bz[0].x != 1 || bz[0].y != -1 || bz[1].x != 0 || bz[1].y != 3 ||
            pz[0] != 2 || pz[1] != 2) {
            fprintf(stderr, "consumer_magma: complex: code %lld, info %lld, x = (%g%+gi, %g%+gi), pivots %lld %lld\n",
                    (long long)code, (long long)zinfo[0], bz[0].x, bz[0].y, bz[1].x, bz[1].y, (long long)pz[0],
                    (long long)pz[1]);
            return 1;
        }
    }
    printf("consumer_magma: %d-byte magma_int_t, 2 real systems and 1 complex solved\n", (int)sizeof(magma_int_t));
    return 0;
}
