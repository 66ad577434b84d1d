/*
 * A stand-in libmagma for the interposition tests: the 16 functions libtdls_magma
 * exports plus MAGMA's queue getters, with MAGMA's signatures (fake_magma's
 * magma_v2.h), built once per magma_int_t width. Each function counts its
 * calls (standin_calls) and answers STANDIN_ANSWER without touching an
 * operand, so a test sees exactly which calls libtdls_magma forwarded.
 *
 * Like MAGMA 2.x's, its magma_dgesv_batched calls magma_dgesv_batched_small
 * through the PLT: with libtdls_magma loaded first that internal call binds
 * to libtdls_magma's. It passes a NULL queue (MAGMA would pass its own; a
 * stand-in has no device) so that libtdls serves it on the host and the test
 * can see the batch solved while the stand-in's own _small stays uncalled.
 */
#include "magma_v2.h"

#include <string.h>

#define STANDIN_ANSWER (-4242)

enum { STANDIN_FUNCTIONS = 16 };
static const char* const names[STANDIN_FUNCTIONS] = {
    "magma_sgesv_batched",  "magma_sgesv_batched_small",  "magma_sgetrf_batched",  "magma_sgetrs_batched",
    "magma_dgesv_batched",  "magma_dgesv_batched_small",  "magma_dgetrf_batched",  "magma_dgetrs_batched",
    "magma_cgesv_batched",  "magma_cgesv_batched_small",  "magma_cgetrf_batched",  "magma_cgetrs_batched",
    "magma_zgesv_batched",  "magma_zgesv_batched_small",  "magma_zgetrf_batched",  "magma_zgetrs_batched"};
static int counts[STANDIN_FUNCTIONS];
static int fake_stream;

int standin_calls(const char* name);
void standin_reset(void);
int standin_answer(void);

int standin_calls(const char* name) {
    int i;
    for (i = 0; i < STANDIN_FUNCTIONS; ++i)
        if (strcmp(names[i], name) == 0) return counts[i];
    return -1;
}
void standin_reset(void) {
    memset(counts, 0, sizeof counts);
}
int standin_answer(void) {
    return STANDIN_ANSWER;
}

static magma_int_t count(const char* name) {
    int i;
    for (i = 0; i < STANDIN_FUNCTIONS; ++i)
        if (strcmp(names[i], name) == 0) ++counts[i];
    return STANDIN_ANSWER;
}

/* MAGMA's queue getters (cudaStream_t is a pointer, magma_device_t an int). */
void* magma_queue_get_cuda_stream(magma_queue_t queue);
magma_device_t magma_queue_get_device(magma_queue_t queue);
void* magma_queue_get_cuda_stream(magma_queue_t queue) {
    (void)queue;
    return &fake_stream;
}
magma_device_t magma_queue_get_device(magma_queue_t queue) {
    (void)queue;
    return 0;
}

#define STANDIN_FAMILY(p, T)                                                                                  \
    magma_int_t magma_##p##gesv_batched_small(magma_int_t n, magma_int_t nrhs, T** dA_array, magma_int_t ldda, \
                                              magma_int_t** dipiv_array, T** dB_array, magma_int_t lddb,      \
                                              magma_int_t* dinfo_array, magma_int_t batchCount,               \
                                              magma_queue_t queue) {                                          \
        (void)n, (void)nrhs, (void)dA_array, (void)ldda, (void)dipiv_array, (void)dB_array, (void)lddb;        \
        (void)dinfo_array, (void)batchCount, (void)queue;                                                     \
        return count("magma_" #p "gesv_batched_small");                                                       \
    }                                                                                                         \
    magma_int_t magma_##p##getrf_batched(magma_int_t m, magma_int_t n, T** dA_array, magma_int_t lda,         \
                                         magma_int_t** ipiv_array, magma_int_t* info_array,                   \
                                         magma_int_t batchCount, magma_queue_t queue) {                       \
        (void)m, (void)n, (void)dA_array, (void)lda, (void)ipiv_array, (void)info_array, (void)batchCount;     \
        (void)queue;                                                                                          \
        return count("magma_" #p "getrf_batched");                                                            \
    }                                                                                                         \
    magma_int_t magma_##p##getrs_batched(magma_trans_t trans, magma_int_t n, magma_int_t nrhs, T** dA_array,  \
                                         magma_int_t ldda, magma_int_t** dipiv_array, T** dB_array,           \
                                         magma_int_t lddb, magma_int_t batchCount, magma_queue_t queue) {     \
        (void)trans, (void)n, (void)nrhs, (void)dA_array, (void)ldda, (void)dipiv_array, (void)dB_array;       \
        (void)lddb, (void)batchCount, (void)queue;                                                            \
        return count("magma_" #p "getrs_batched");                                                            \
    }

STANDIN_FAMILY(s, float)
STANDIN_FAMILY(d, double)
STANDIN_FAMILY(c, magmaFloatComplex)
STANDIN_FAMILY(z, magmaDoubleComplex)

#define STANDIN_GESV(p, T)                                                                                    \
    magma_int_t magma_##p##gesv_batched(magma_int_t n, magma_int_t nrhs, T** dA_array, magma_int_t ldda,      \
                                        magma_int_t** dipiv_array, T** dB_array, magma_int_t lddb,            \
                                        magma_int_t* dinfo_array, magma_int_t batchCount, magma_queue_t queue) { \
        (void)queue;                                                                                          \
        count("magma_" #p "gesv_batched");                                                                    \
        return magma_##p##gesv_batched_small(n, nrhs, dA_array, ldda, dipiv_array, dB_array, lddb, dinfo_array, \
                                             batchCount, NULL);                                               \
    }

STANDIN_GESV(s, float)
STANDIN_GESV(d, double)
STANDIN_GESV(c, magmaFloatComplex)
STANDIN_GESV(z, magmaDoubleComplex)
