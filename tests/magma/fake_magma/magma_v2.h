/* A stand-in for MAGMA's magma_v2.h, for tests only: magma_types.h and the
 * prototypes of the batched LU routines as MAGMA 2.x declares them
 * (magma_?batched.h), so that a translation unit including both this and
 * tdls/magma.h, in either order, is compiled against MAGMA's declarations. */
#ifndef MAGMA_V2_H
#define MAGMA_V2_H

#include "magma_types.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TDLS_FAKE_MAGMA_FAMILY(p, T)                                                                            \
    magma_int_t magma_##p##gesv_batched(magma_int_t n, magma_int_t nrhs, T** dA_array, magma_int_t ldda,      \
                                        magma_int_t** dipiv_array, T** dB_array, magma_int_t lddb,            \
                                        magma_int_t* dinfo_array, magma_int_t batchCount, magma_queue_t queue); \
    magma_int_t magma_##p##gesv_batched_small(magma_int_t n, magma_int_t nrhs, T** dA_array, magma_int_t ldda, \
                                              magma_int_t** dipiv_array, T** dB_array, magma_int_t lddb,      \
                                              magma_int_t* dinfo_array, magma_int_t batchCount,               \
                                              magma_queue_t queue);                                           \
    magma_int_t magma_##p##getrf_batched(magma_int_t m, magma_int_t n, T** dA_array, magma_int_t lda,         \
                                         magma_int_t** ipiv_array, magma_int_t* info_array,                   \
                                         magma_int_t batchCount, magma_queue_t queue);                        \
    magma_int_t magma_##p##getrs_batched(magma_trans_t trans, magma_int_t n, magma_int_t nrhs, T** dA_array,  \
                                         magma_int_t ldda, magma_int_t** dipiv_array, T** dB_array,           \
                                         magma_int_t lddb, magma_int_t batchCount, magma_queue_t queue);

TDLS_FAKE_MAGMA_FAMILY(s, float)
TDLS_FAKE_MAGMA_FAMILY(d, double)
TDLS_FAKE_MAGMA_FAMILY(c, magmaFloatComplex)
TDLS_FAKE_MAGMA_FAMILY(z, magmaDoubleComplex)
#undef TDLS_FAKE_MAGMA_FAMILY

magma_int_t magma_init(void);

#ifdef __cplusplus
}
#endif

#endif
