/* Solves two 2 x 2 systems through the installed library and checks them. */
#include <math.h>
#include <stdio.h>

#include <tdls/tdls.h>

int main(void) {
    /* Column-major [2 1; 1 3] and [0 1; 1 0]; right-hand sides chosen for x = (1, 2). */
    double A[8] = {2, 1, 1, 3, 0, 1, 1, 0};
    double B[4] = {4, 7, 2, 1};
    int32_t ipiv[4];
    int32_t info[2];
    tdls_status_t status = tdls_batched_gesv(NULL, TDLS_FLOAT64, TDLS_COL_MAJOR, 2, 1, A, 2, 4, ipiv, 2, B, 2,
                                             2, info, 2);
    if (status != TDLS_SUCCESS) {
        fprintf(stderr, "consumer: %s: %s\n", tdls_status_name(status), tdls_last_error());
        return 1;
    }
    for (int s = 0; s < 2; ++s) {
        if (info[s] != 0 || fabs(B[2 * s] - 1) > 1e-14 || fabs(B[2 * s + 1] - 2) > 1e-14) {
            fprintf(stderr, "consumer: system %d: info %d, x = (%g, %g), expected (1, 2)\n", s, info[s],
                    B[2 * s], B[2 * s + 1]);
            return 1;
        }
    }
    int major, minor, patch;
    tdls_get_version(&major, &minor, &patch);
    printf("consumer: libtdls %d.%d.%d solved 2 systems\n", major, minor, patch);
    return 0;
}
