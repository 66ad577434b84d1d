/*
 * Interposition, as a MAGMA program gets it: linked against libtdls_magma
 * (or libtdls_magma64) and then a stand-in libmagma (standin/), in that
 * order. Checked:
 * - the process's first definition of each routine is libtdls_magma's;
 * - calls libtdls serves (host arrays, NULL queue) run on libtdls and never
 *   reach the stand-in;
 * - calls it does not serve (a rectangular getrf, a transposed getrs on a
 *   queue, a queue call without a usable GPU backend) reach the stand-in
 *   with nothing touched on the way;
 * - the stand-in's internal call of magma_dgesv_batched_small (as MAGMA
 *   2.x's magma_dgesv_batched makes it) binds to libtdls_magma and is served;
 * - a host call libtdls does not serve is not forwarded (MAGMA takes none).
 * Negative control: calling the stand-in directly does count.
 * Strict C99, MAGMA's headers (the stand-in's) first.
 */
#define _GNU_SOURCE
#include "magma_v2.h"

#include <tdls/magma.h>

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "c_check.h"

int standin_calls(const char* name);
int standin_answer(void);

#define EXPECTED_CHECKS 27


/* A 2 x 2 column-major system with ldda = lddb = 3 (row 2 is padding, -99):
 * A = [2 1; 4 3], pivots (2, 2), x = (1, -1) for b = (1, 1). */
static double a[6], b[3];
static double* dA_array[1];
static double* dB_array[1];
static magma_int_t pivots[2];
static magma_int_t* dipiv_array[1];
static magma_int_t info[1];

static void fill(void) {
    const double A0[6] = {2, 4, -99, 1, 3, -99};
    const double B0[3] = {1, 1, -99};
    memcpy(a, A0, sizeof a);
    memcpy(b, B0, sizeof b);
    pivots[0] = pivots[1] = -1;
    info[0] = -1;
    dA_array[0] = a;
    dB_array[0] = b;
    dipiv_array[0] = pivots;
}

static int untouched(void) {
    const double A0[6] = {2, 4, -99, 1, 3, -99};
    const double B0[3] = {1, 1, -99};
    return memcmp(a, A0, sizeof a) == 0 && memcmp(b, B0, sizeof b) == 0 && pivots[0] == -1 && pivots[1] == -1 &&
           info[0] == -1;
}

static int fake_queue_storage;

int main(void) {
    const magma_queue_t queue = (magma_queue_t)&fake_queue_storage;
    const int answer = standin_answer();
    Dl_info where;
    void* first = dlsym(RTLD_DEFAULT, "magma_dgetrf_batched");

    /* The first definition in the process is libtdls_magma's. */
    CHECK(first != NULL && dladdr(first, &where) != 0 && strstr(where.dli_fname, "libtdls_magma") != NULL);

    /* Served: a square getrf on host arrays. */
    fill();
    CHECK(magma_dgetrf_batched(2, 2, dA_array, 3, dipiv_array, info, 1, NULL) == 0);
    CHECK(info[0] == 0 && pivots[0] == 2 && pivots[1] == 2 && a[0] == 4 && a[1] == 0.5);
    CHECK(standin_calls("magma_dgetrf_batched") == 0);
    /* Served: a transposed getrs on the host, from those factors: A^T x = (1, 1) gives x = (-0.5, 0.5). */
    b[0] = 1;
    b[1] = 1;
    CHECK(magma_dgetrs_batched(MagmaTrans, 2, 1, dA_array, 3, dipiv_array, dB_array, 3, 1, NULL) == 0);
    CHECK(b[0] == -0.5 && b[1] == 0.5 && b[2] == -99);
    CHECK(standin_calls("magma_dgetrs_batched") == 0);

    /* Forwarded: a rectangular getrf on a queue, untouched on the way. */
    fill();
    CHECK(magma_dgetrf_batched(2, 1, dA_array, 3, dipiv_array, info, 1, queue) == answer);
    CHECK(standin_calls("magma_dgetrf_batched") == 1);
    CHECK(untouched());
    /* Forwarded: a transposed getrs on a queue (libtdls serves MagmaNoTrans there only). */
    CHECK(magma_dgetrs_batched(MagmaConjTrans, 2, 1, dA_array, 3, dipiv_array, dB_array, 3, 1, queue) == answer);
    CHECK(standin_calls("magma_dgetrs_batched") == 1);
    CHECK(untouched());
    /* Forwarded: a queue call libtdls would serve, but no GPU backend runs here
     * (libtdls_magma64: every queue call). */
    CHECK(magma_dgesv_batched_small(2, 1, dA_array, 3, dipiv_array, dB_array, 3, info, 1, queue) == answer);
    CHECK(standin_calls("magma_dgesv_batched_small") == 1);
    CHECK(untouched());
    {
        magmaDoubleComplex z[1] = {{2, 1}};
        magmaDoubleComplex* zA[1];
        magmaDoubleComplex* zB[1];
        zA[0] = z;
        zB[0] = z;
        CHECK(magma_zgetrs_batched(MagmaNoTrans, 1, 1, zA, 1, dipiv_array, zB, 1, 1, queue) == answer);
        CHECK(standin_calls("magma_zgetrs_batched") == 1);
        CHECK(z[0].x == 2 && z[0].y == 1);
    }

    /* The stand-in's internal call: its magma_dgesv_batched (reached by
     * forwarding) calls magma_dgesv_batched_small, which binds to
     * libtdls_magma's and is served: the batch is solved, the stand-in's own
     * _small not called again. */
    fill();
    CHECK(magma_dgesv_batched(2, 1, dA_array, 3, dipiv_array, dB_array, 3, info, 1, queue) == 0);
    CHECK(standin_calls("magma_dgesv_batched") == 1);
    CHECK(standin_calls("magma_dgesv_batched_small") == 1);
    CHECK(info[0] == 0 && b[0] == 1 && b[1] == -1 && pivots[0] == 2);

    /* A host call libtdls does not serve is refused, not forwarded. */
    fill();
    CHECK(magma_sgetrf_batched(3, 2, (float**)dA_array, 3, dipiv_array, info, 1, NULL) == MAGMA_ERR);
    CHECK(standin_calls("magma_sgetrf_batched") == 0);
    CHECK(untouched());

    /* Negative control: a call that does reach the stand-in is counted. */
    {
        void* standin = dlopen(STANDIN_LIBRARY, RTLD_LAZY | RTLD_NOLOAD);
        void* address = standin != NULL ? dlsym(standin, "magma_sgetrf_batched") : NULL;
        magma_int_t (*theirs)(magma_int_t, magma_int_t, float**, magma_int_t, magma_int_t**, magma_int_t*,
                              magma_int_t, magma_queue_t) = NULL;
        *(void**)&theirs = address;
        CHECK(address != NULL && address != dlsym(RTLD_DEFAULT, "magma_sgetrf_batched") &&
              theirs(3, 2, (float**)dA_array, 3, dipiv_array, info, 1, NULL) == answer &&
              standin_calls("magma_sgetrf_batched") == 1);
        if (standin != NULL) dlclose(standin);
    }

    return check_report("test_magma_interposition", EXPECTED_CHECKS);
}
