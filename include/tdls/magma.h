/*
 * libtdls: MAGMA-compatible batched small solvers. A program written for
 * MAGMA's magma_?gesv_batched_small (s, d, c, z) links libtdls_magma (magma_int_t = int)
 * or libtdls_magma64 (magma_int_t = long long, MAGMA's ILP64 build) instead,
 * or before, libmagma. CMake: find_package(tdls) -> tdls::magma, tdls::magma64.
 *
 * Types: when MAGMA's own magma_types.h was included first (it defines
 * MAGMA_TYPES_H), its magma_int_t, magma_queue_t, magmaFloatComplex and
 * magmaDoubleComplex are used; otherwise this header declares the same ones:
 * magma_int_t is int, or long long under MAGMA_ILP64 or MKL_ILP64 (MAGMA's
 * own rule), magma_queue_t an opaque struct magma_queue*, and the complex
 * types two consecutive reals {x = real part, y = imaginary part}, the
 * layout of MAGMA's (cuFloatComplex / hipFloatComplex, ...), of C99 float
 * _Complex and of std::complex<float>. Valid C99 and C++.
 *
 * Semantics are MAGMA's: column-major, pointer arrays, on return A_s holds
 * the LU factors, dipiv_array[s] LAPACK's 1-based pivots, dinfo_array[s] the
 * verdict of system s, dB_array[s] the solution. The return value is 0 or a
 * negative code naming the argument by its position (MAGMA's and LAPACK's
 * convention), checked in this order, the first failure wins:
 *   -1  n < 0;  -2  nrhs < 0;
 *   then MAGMA's quick return: n == 0 or nrhs == 0 returns 0 and touches
 *       nothing (not even dinfo_array; nrhs == 0 does not factor);
 *   -4  ldda < n;  -7  lddb < n;  -9  batchCount < 0;
 *   then batchCount == 0 returns 0;
 *   host arrays (NULL queue) only, in argument order: -3 dA_array or one of
 *       its entries NULL, -5 an entry of dipiv_array NULL, -6 dB_array or
 *       one of its entries NULL, -8 dinfo_array NULL;
 *   -100 (MAGMA_ERR): valid but unsupported here: n > 1024, or a GPU queue
 *       whose backend is unavailable (see "queue" below); -112 (MAGMA_ERR_HOST_ALLOC): out of host memory.
 * A call that returns nonzero has modified no operand. MAGMA prints argument
 * errors through magma_xerbla; libtdls prints nothing: the code is the
 * diagnostic, and where libtdls itself refused the call, tdls_last_error()
 * (tdls/tdls.h) has the detail.
 *
 * queue:
 *   NULL      the arrays are host memory; the CPU backend solves the batch
 *             and returns when done.
 *   non-NULL  the arrays are device memory of MAGMA's queue. The stream is
 *             read through MAGMA's own magma_queue_get_cuda_stream or
 *             magma_queue_get_hip_stream (and the device through
 *             magma_queue_get_device), looked up in the process at run time,
 *             so libtdls_magma never links MAGMA. The call is enqueued on
 *             that stream by libtdls's CUDA or HIP plugin and returns at
 *             once, as MAGMA's. Where the backend is unavailable (no plugin,
 *             runtime or device) it returns -100 without touching any
 *             pointer, and tdls_last_error() says why. A NULL entry of a
 *             device pointer array gives dinfo_array[s] = -1, that system
 *             untouched. Without MAGMA's getters in the process
 *             the queue cannot be read: -100, tdls_last_error() unchanged.
 *             libtdls_magma64 will also need a device kernel to widen the
 *             int32 pivots and verdicts: it answers -100 for a GPU queue.
 *
 * Differences from MAGMA, each one where libtdls accepts or keeps more:
 *   - n up to 1024 (MAGMA's small kernel: 32), any nrhs (MAGMA: nrhs <= 1);
 *     beyond those MAGMA returns -100 and solves nothing.
 *   - A singular system (dinfo_array[s] > 0) leaves dB_array[s] exactly as it
 *     was: the right-hand sides are not lost.
 *   - ldda, lddb, batchCount and the pointer arrays are checked (MAGMA reads
 *     them unchecked).
 *   - Host arrays with a NULL queue: the same call runs without a GPU.
 *   - dipiv_array may be NULL: the pivots are then not stored.
 *   - dinfo_array[s] = k > 0 when column k had no candidate pivot of
 *     magnitude at least the smallest normal number (MAGMA and LAPACK: exactly
 *     zero). A subnormal pivot is reported instead of dividing by it, so
 *     dB_array[s] keeps b rather than receiving overflowed values.
 *
 * Copyright (c) 2026, the libtdls developers. BSD 3-Clause License.
 */
#ifndef TDLS_MAGMA_H
#define TDLS_MAGMA_H

#if defined(_WIN32)
#define TDLS_MAGMA_API
#elif defined(TDLS_BUILDING_MAGMA)
#define TDLS_MAGMA_API __attribute__((visibility("default")))
#else
#define TDLS_MAGMA_API
#endif

#ifndef MAGMA_TYPES_H
/* MAGMA's headers are absent: the same types, under MAGMA's names. */
#if defined(MAGMA_ILP64) || defined(MKL_ILP64)
typedef long long int magma_int_t;
#else
typedef int magma_int_t;
#endif
typedef struct magma_queue* magma_queue_t;
typedef struct tdls_magma_float_complex {
    float x, y;
} magmaFloatComplex;
typedef struct tdls_magma_double_complex {
    double x, y;
} magmaDoubleComplex;
#endif

#ifndef MAGMA_SUCCESS
#define MAGMA_SUCCESS 0
#endif
#ifndef MAGMA_ERR
#define MAGMA_ERR -100
#endif
#ifndef MAGMA_ERR_HOST_ALLOC
#define MAGMA_ERR_HOST_ALLOC -112
#endif

#ifdef __cplusplus
extern "C" {
#endif

/** Solves batchCount systems A_s X_s = B_s of order n (single precision).
 *  @param[in]     n           order, 0..1024
 *  @param[in]     nrhs        right-hand sides per system
 *  @param[in,out] dA_array    batchCount pointers to n x n matrices (ldda); LU factors on return
 *  @param[in]     ldda        leading dimension of every A_s, >= n
 *  @param[out]    dipiv_array batchCount pointers to n pivots (1-based), or NULL
 *  @param[in,out] dB_array    batchCount pointers to n x nrhs matrices (lddb); X_s where info is 0
 *  @param[in]     lddb        leading dimension of every B_s, >= n
 *  @param[out]    dinfo_array batchCount verdicts: 0, or the first singular column (1-based)
 *  @param[in]     batchCount  number of systems
 *  @param[in]     queue       NULL: host arrays, CPU backend; else MAGMA's queue (see above)
 *  @return 0, or a negative code (see above) */
TDLS_MAGMA_API magma_int_t magma_sgesv_batched_small(magma_int_t n, magma_int_t nrhs, float** dA_array,
                                                     magma_int_t ldda, magma_int_t** dipiv_array,
                                                     float** dB_array, magma_int_t lddb,
                                                     magma_int_t* dinfo_array, magma_int_t batchCount,
                                                     magma_queue_t queue);

/** The same in double precision. */
TDLS_MAGMA_API magma_int_t magma_dgesv_batched_small(magma_int_t n, magma_int_t nrhs, double** dA_array,
                                                     magma_int_t ldda, magma_int_t** dipiv_array,
                                                     double** dB_array, magma_int_t lddb,
                                                     magma_int_t* dinfo_array, magma_int_t batchCount,
                                                     magma_queue_t queue);

/** The same in single-precision complex (pivots: LAPACK's |re| + |im|, as cgesv). */
TDLS_MAGMA_API magma_int_t magma_cgesv_batched_small(magma_int_t n, magma_int_t nrhs,
                                                     magmaFloatComplex** dA_array, magma_int_t ldda,
                                                     magma_int_t** dipiv_array, magmaFloatComplex** dB_array,
                                                     magma_int_t lddb, magma_int_t* dinfo_array,
                                                     magma_int_t batchCount, magma_queue_t queue);

/** The same in double-precision complex (as zgesv). */
TDLS_MAGMA_API magma_int_t magma_zgesv_batched_small(magma_int_t n, magma_int_t nrhs,
                                                     magmaDoubleComplex** dA_array, magma_int_t ldda,
                                                     magma_int_t** dipiv_array, magmaDoubleComplex** dB_array,
                                                     magma_int_t lddb, magma_int_t* dinfo_array,
                                                     magma_int_t batchCount, magma_queue_t queue);

#ifdef __cplusplus
}
#endif

#endif /* TDLS_MAGMA_H */
