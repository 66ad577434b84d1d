/*
 * tdls/magma.h with MAGMA's headers (the stand-ins in fake_magma/) in either
 * order, or alone, in strict C99 (-pedantic -Werror): compiled, not run.
 * Every type, enumerator and macro a MAGMA program takes from the headers is
 * used, with each of the 16 declarations.
 *   TDLS_ORDER_MAGMA_FIRST  magma_v2.h, then tdls/magma.h
 *   TDLS_ORDER_OURS_FIRST   tdls/magma.h (which finds magma_types.h), then magma_v2.h
 *   neither                 tdls/magma.h alone, no MAGMA header reachable
 * check_magma_header.sh compiles the ours-first order with
 * TDLS_MAGMA_OWN_TYPES and expects the redefinition errors that
 * __has_include avoids (the negative control).
 */
#if defined(TDLS_ORDER_MAGMA_FIRST)
#include "magma_v2.h"
#include <tdls/magma.h>
#elif defined(TDLS_ORDER_OURS_FIRST)
#include <tdls/magma.h>
#include "magma_v2.h"
#else
#include <tdls/magma.h>
#endif

magma_int_t tdls_include_order_probe(magma_queue_t queue);

magma_int_t tdls_include_order_probe(magma_queue_t queue) {
    magma_trans_t trans[3] = {MagmaNoTrans, MagmaTrans, MagmaConjTrans};
    magmaFloatComplex c = {1.0f, 2.0f};
    magmaDoubleComplex z = {1.0, 2.0};
    float* s_array[1] = {0};
    double* d_array[1] = {0};
    magmaFloatComplex* c_array[1];
    magmaDoubleComplex* z_array[1];
    magma_int_t* ipiv[1] = {0};
    magma_int_t info[1] = {0};
    magma_int_t code = MAGMA_SUCCESS;
    c_array[0] = &c;
    z_array[0] = &z;
    /* n = 0: every call is a quick return. */
    code += magma_sgesv_batched(0, 1, s_array, 1, ipiv, s_array, 1, info, 1, queue);
    code += magma_dgesv_batched(0, 1, d_array, 1, ipiv, d_array, 1, info, 1, queue);
    code += magma_cgesv_batched(0, 1, c_array, 1, ipiv, c_array, 1, info, 1, queue);
    code += magma_zgesv_batched(0, 1, z_array, 1, ipiv, z_array, 1, info, 1, queue);
    code += magma_sgesv_batched_small(0, 1, s_array, 1, ipiv, s_array, 1, info, 1, queue);
    code += magma_dgesv_batched_small(0, 1, d_array, 1, ipiv, d_array, 1, info, 1, queue);
    code += magma_cgesv_batched_small(0, 1, c_array, 1, ipiv, c_array, 1, info, 1, queue);
    code += magma_zgesv_batched_small(0, 1, z_array, 1, ipiv, z_array, 1, info, 1, queue);
    code += magma_sgetrf_batched(0, 0, s_array, 1, ipiv, info, 1, queue);
    code += magma_dgetrf_batched(0, 0, d_array, 1, ipiv, info, 1, queue);
    code += magma_cgetrf_batched(0, 0, c_array, 1, ipiv, info, 1, queue);
    code += magma_zgetrf_batched(0, 0, z_array, 1, ipiv, info, 1, queue);
    code += magma_sgetrs_batched(trans[0], 0, 1, s_array, 1, ipiv, s_array, 1, 1, queue);
    code += magma_dgetrs_batched(trans[1], 0, 1, d_array, 1, ipiv, d_array, 1, 1, queue);
    code += magma_cgetrs_batched(trans[2], 0, 1, c_array, 1, ipiv, c_array, 1, 1, queue);
    code += magma_zgetrs_batched(Magma_ConjTrans, 0, 1, z_array, 1, ipiv, z_array, 1, 1, queue);
    return code == MAGMA_SUCCESS ? 0 : code + MAGMA_ERR + MAGMA_ERR_HOST_ALLOC;
}
