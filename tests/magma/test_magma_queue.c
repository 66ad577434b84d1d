/*
 * tdls/magma.h from strict C99 (-pedantic -Werror), after MAGMA's own
 * magma_types.h (a stand-in here), and the queue path of libtdls_magma:
 * - a NULL queue solves host arrays: a system with an exact answer;
 * - a non-NULL queue is read through MAGMA's getters, which this program
 *   defines and exports the way libmagma would; libtdls has no GPU backend
 *   here, so the call is not served; with no libmagma to forward it to it
 *   returns MAGMA_ERR, touches no array, and tdls_last_error() names the
 *   unavailable CUDA backend (libtdls_magma64 forwards queue calls unread).
 * Prints each failure and returns nonzero unless all EXPECTED_CHECKS ran and
 * passed.
 */
#include "magma_types.h"

#include <tdls/magma.h>
#include <tdls/tdls.h>

#include <stdio.h>
#include <string.h>

#include "c_check.h"

#define EXPECTED_CHECKS 19


/* MAGMA's getters, as libmagma exports them (cudaStream_t is a pointer). */
static int stream_calls = 0;
static int device_calls = 0;
static magma_queue_t seen_queue = NULL;
static int fake_stream;

void* magma_queue_get_cuda_stream(magma_queue_t queue);
magma_device_t magma_queue_get_device(magma_queue_t queue);

void* magma_queue_get_cuda_stream(magma_queue_t queue) {
    ++stream_calls;
    seen_queue = queue;
    return &fake_stream;
}
magma_device_t magma_queue_get_device(magma_queue_t queue) {
    ++device_calls;
    (void)queue;
    return 0;
}

/* Column-major, ldda = lddb = 3 for n = 2 (row 2 is padding, -99):
 * A1 = [2 1; 4 3] (pivots 2 2, x = (1, -1) for b = (1, 1));
 * A2 = [0 0; 0 0] (singular, info 1, b kept). */
static void fill(double* a1, double* a2, double* b1, double* b2) {
    const double A1[6] = {2, 4, -99, 1, 3, -99};
    const double B1[3] = {1, 1, -99};
    const double A2[6] = {0, 0, -99, 0, 0, -99};
    const double B2[3] = {5, 6, -99};
    memcpy(a1, A1, sizeof A1);
    memcpy(a2, A2, sizeof A2);
    memcpy(b1, B1, sizeof B1);
    memcpy(b2, B2, sizeof B2);
}

int main(void) {
    double a1[6], a2[6], b1[3], b2[3];
    double* dA_array[2];
    double* dB_array[2];
    magma_int_t pivots[2][2] = {{-1, -1}, {-1, -1}};
    magma_int_t* dipiv_array[2];
    magma_int_t dinfo_array[2] = {-1, -1};
    magma_int_t code;
    double before[18], after[18];
    int i;

    dA_array[0] = a1;
    dA_array[1] = a2;
    dB_array[0] = b1;
    dB_array[1] = b2;
    dipiv_array[0] = pivots[0];
    dipiv_array[1] = pivots[1];

    /* NULL queue: host arrays on the CPU backend. */
    fill(a1, a2, b1, b2);
    code = magma_dgesv_batched_small(2, 1, dA_array, 3, dipiv_array, dB_array, 3, dinfo_array, 2, NULL);
    CHECK(code == 0);
    CHECK(dinfo_array[0] == 0 && dinfo_array[1] == 1);
    CHECK(b1[0] == 1 && b1[1] == -1 && b1[2] == -99);
    CHECK(b2[0] == 5 && b2[1] == 6); /* singular: b kept */
    CHECK(pivots[0][0] == 2 && pivots[0][1] == 2);
    CHECK(a1[0] == 4 && a1[1] == 0.5 && a1[2] == -99 && a1[3] == 3 && a1[4] == -0.5);
    CHECK(stream_calls == 0); /* a NULL queue is never read */

    /* A non-NULL queue: read through the getters, refused without a GPU backend. */
    fill(a1, a2, b1, b2);
    dinfo_array[0] = dinfo_array[1] = -1;
    pivots[0][0] = pivots[0][1] = pivots[1][0] = pivots[1][1] = -1;
    memcpy(before, a1, sizeof a1);
    memcpy(before + 6, a2, sizeof a2);
    memcpy(before + 12, b1, sizeof b1);
    memcpy(before + 15, b2, sizeof b2);
    code = magma_dgesv_batched_small(2, 1, dA_array, 3, dipiv_array, dB_array, 3, dinfo_array, 2,
                                     (magma_queue_t)&fake_stream);
    CHECK(code == MAGMA_ERR);
#if defined(MAGMA_ILP64)
    /* libtdls_magma64 serves host arrays only: the queue call is forwarded
     * unread, and with no libmagma in this process it fails. */
    CHECK(stream_calls == 0 && device_calls == 0);
    CHECK(seen_queue == NULL);
    CHECK(strstr(tdls_last_error(), "tdls_create") == NULL);
#else
    CHECK(stream_calls == 1 && device_calls == 1);
    CHECK(seen_queue == (magma_queue_t)&fake_stream);
    CHECK(strstr(tdls_last_error(), "tdls_create: backend (2)") != NULL);
#endif
    memcpy(after, a1, sizeof a1);
    memcpy(after + 6, a2, sizeof a2);
    memcpy(after + 12, b1, sizeof b1);
    memcpy(after + 15, b2, sizeof b2);
    CHECK(memcmp(before, after, sizeof before) == 0);
    CHECK(dinfo_array[0] == -1 && dinfo_array[1] == -1);
    for (i = 0; i < 4; ++i) CHECK(pivots[i / 2][i % 2] == -1);
    /* Negative control: the comparison sees one changed element. */
    after[4] = 1;
    CHECK(memcmp(before, after, sizeof before) != 0);

    /* Single precision through the same queue path. */
    {
        float fa[1] = {2}, fb[1] = {4};
        float* fA[1];
        float* fB[1];
        fA[0] = fa;
        fB[0] = fb;
        CHECK(magma_sgesv_batched_small(1, 1, fA, 1, dipiv_array, fB, 1, dinfo_array, 1, NULL) == 0 &&
              fb[0] == 2.0f);
    }

    return check_report("test_magma_queue", EXPECTED_CHECKS);
}
