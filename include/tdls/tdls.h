/*
 * libtdls: the C ABI. Batched LU with partial pivoting of many small dense
 * systems A_s X_s = B_s, with LAPACK's results and conventions.
 *
 * Valid C99 and C++; includes no CUDA, HIP or TBB header. Link libtdls.so
 * (CMake: find_package(tdls) -> tdls::tdls; pkg-config: tdls).
 *
 * Conventions of every function below:
 * - Sizes, strides and leading dimensions are in elements, 64-bit.
 * - A NULL handle in a compute call is the library's default context: backend
 *   AUTO, default stream, pivot threshold 1, every CPU thread.
 * - A failed call returns its status, stores a message for tdls_last_error()
 *   in the calling thread, and leaves every operand exactly as it was.
 * - Arguments are validated in this order, the first failure wins:
 *     1. handle (TDLS_ERROR_INVALID_HANDLE);
 *     2. dtype (an unknown value: INVALID_VALUE; a type this build has no
 *        kernels of: NOT_SUPPORTED);
 *     3. layout;
 *     4. n < 0, nrhs < 0, batch < 0;
 *     5. lda < n; ldb < n (column-major B) or ldb < nrhs (row-major B);
 *     6. strides below one system's footprint: strideA < lda*n,
 *        strideIpiv < n (when ipiv is given), strideB < ldb*nrhs
 *        (column-major) or ldb*n (row-major); block < 1 (interleaved);
 *        then footprints that cannot be addressed: the end of the last
 *        element of the last system of an operand, in bytes, above
 *        INT64_MAX (README "Footprints"; named after lda/ldb for one
 *        system, the stride or block and batch for the batch);
 *     7. NULL operands, when batch > 0 and n > 0 (B may be NULL when
 *        nrhs == 0; ipiv may be NULL except in getrs); in the pointer-array
 *        form also a NULL entry of A_array, B_array or ipiv_array;
 *     8. n above TDLS_MAX_ORDER: TDLS_ERROR_NOT_SUPPORTED;
 *     9. getrs only: a pivot index outside 1..n (nothing is solved then);
 *    10. where the operands live (below): operands in different places, or
 *        not where the handle's backend runs: INVALID_VALUE; a GPU backend
 *        without plugin, runtime or device: BACKEND_UNAVAILABLE.
 *   Then the quick returns: batch == 0 does nothing; n == 0 sets info[s] = 0;
 *   nrhs == 0 factors only and leaves B alone.
 * - Where a call runs: backend AUTO (and the NULL handle) decides per call
 *   from where the operands live: CUDA device or managed memory -> CUDA, HIP
 *   device memory -> HIP, anything else -> CPU. A CUDA or HIP handle needs
 *   every operand on its device; a CPU handle needs host memory.
 * - On the CPU backend a call returns when the batch is solved. The systems
 *   are spread over the oneTBB worker threads (tdls_set_num_threads).
 * - On a GPU backend a call returns once its work is enqueued on the handle's
 *   stream (tdls_set_stream; the default stream otherwise), like cuBLAS; info
 *   and every result are written on the device, in stream order. The host
 *   never reads device operands, so checks 7 and 9 on the contents of device
 *   memory happen on the device, per system: a NULL entry of a device pointer
 *   array leaves that system untouched with info[s] = -1 (LAPACK's "illegal
 *   argument"), and getrs leaves a system whose pivots leave 1..n untouched.
 *   On the CPU, getrs reads each system's pivots again as it solves it and
 *   checks them there too: pivots that changed since validation (they overlap
 *   an earlier system's B, which the contract forbids) and left 1..n leave
 *   that system's B untouched. The pointer arrays are read once, into the
 *   library's own copy, before any operand is written.
 *   A launch or device error is TDLS_ERROR_EXECUTION, with the runtime's
 *   words in the message. The GPU results are bitwise those of the CPU
 *   backend's scalar kernels (no contracted multiply-adds on either).
 * - A handle may be used by one host thread at a time; distinct handles and
 *   the default context may be used from many threads at once.
 *
 * Copyright (c) 2026, the libtdls developers. BSD 3-Clause License.
 */
#ifndef TDLS_TDLS_H
#define TDLS_TDLS_H

#include <stdint.h>

#if defined(_WIN32)
#define TDLS_API
#elif defined(TDLS_BUILDING_LIBRARY)
#define TDLS_API __attribute__((visibility("default")))
#else
#define TDLS_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define TDLS_VERSION_MAJOR 0
#define TDLS_VERSION_MINOR 1
#define TDLS_VERSION_PATCH 0

/** The largest order n the library solves; larger n is TDLS_ERROR_NOT_SUPPORTED. */
#define TDLS_MAX_ORDER 1024

/* In C++ the enums have int as their fixed underlying type. A C caller may
 * pass any int where an enum is expected, and a C++ enum without a fixed
 * type holds only the values of its enumerators' bit range: reading any
 * other (which the library does to refuse it) would be undefined behaviour.
 * Same size and calling convention as before; C (and C++98) unchanged. */
#if defined(__cplusplus) && __cplusplus >= 201103L
#define TDLS_ENUM_BASE : int
#else
#define TDLS_ENUM_BASE
#endif

typedef enum TDLS_ENUM_BASE {
    TDLS_SUCCESS = 0,
    TDLS_ERROR_INVALID_HANDLE = 1,      /* handle destroyed or never created */
    TDLS_ERROR_INVALID_VALUE = 2,       /* an argument out of range; the message names it */
    TDLS_ERROR_NOT_SUPPORTED = 3,       /* valid, but this build or backend does not provide it */
    TDLS_ERROR_BACKEND_UNAVAILABLE = 4, /* no plugin, no runtime, or no device for that backend */
    TDLS_ERROR_ALLOCATION = 5,
    TDLS_ERROR_EXECUTION = 6, /* a launch or device error */
    TDLS_ERROR_INTERNAL = 7
} tdls_status_t;

/* The scalar type of every operand but ipiv and info. A complex element is
 * two consecutive reals, real part first: C99 float _Complex / double
 * _Complex, C++ std::complex<float> / std::complex<double>, Fortran
 * complex(4) / complex(8); lda, ldb and the strides count elements, not
 * reals. Complex pivoting compares LAPACK's |re| + |im| (izamax), so that at
 * threshold 1 the pivots are cgetrf's / zgetrf's. As for LAPACK's complex
 * routines, data whose |re| + |im| overflows (near FLT_MAX / DBL_MAX) are
 * out of range: such a pivot's reciprocal (Smith's quotient, whose
 * denominator overflows) is 0. Complex calls run on every backend; a
 * device array needs only the alignment of its real type (8 bytes for
 * COMPLEX128, as C99 guarantees, not cuDoubleComplex's 16). Row-major A is
 * solved as A x = b with the plain transpose of the stored matrix, never the
 * conjugate one. */
typedef enum TDLS_ENUM_BASE {
    TDLS_FLOAT32 = 0,
    TDLS_FLOAT64 = 1,
    TDLS_COMPLEX64 = 2,  /* complex float */
    TDLS_COMPLEX128 = 3  /* complex double */
} tdls_dtype_t;
typedef enum TDLS_ENUM_BASE { TDLS_COL_MAJOR = 0, TDLS_ROW_MAJOR = 1 } tdls_layout_t;
typedef enum TDLS_ENUM_BASE {
    TDLS_BACKEND_AUTO = 0,
    TDLS_BACKEND_CPU = 1,
    TDLS_BACKEND_CUDA = 2,
    TDLS_BACKEND_HIP = 3
} tdls_backend_t;
typedef struct tdls_handle_st* tdls_handle_t;

/* ---- library, handles, errors ------------------------------------------ */

/** Version of the loaded library. @param[out] major,minor,patch any may be NULL. */
TDLS_API void tdls_get_version(int* major, int* minor, int* patch);

/** 1 if the backend can run a call now (AUTO and CPU: always), else 0. */
TDLS_API int tdls_backend_available(tdls_backend_t backend);

/** The enumerator's name, e.g. "TDLS_ERROR_INVALID_VALUE"; "TDLS_UNKNOWN_STATUS" otherwise. */
TDLS_API const char* tdls_status_name(tdls_status_t s);

/** One sentence describing the status. */
TDLS_API const char* tdls_status_string(tdls_status_t s);

/** Detail of the calling thread's last failed call, e.g.
 *  "tdls_batched_gesv: lda (3) < n (4)"; "" if none failed yet. A successful
 *  call does not clear it. Valid until this thread's next failed call. */
TDLS_API const char* tdls_last_error(void);

/** Creates a handle.
 *  @param[out] handle  the new handle; unchanged on failure
 *  @param[in]  backend AUTO (decided per call from where A lives), CPU, CUDA or HIP
 *  @param[in]  device  device ordinal; 0 for AUTO and CPU
 *  @return TDLS_ERROR_BACKEND_UNAVAILABLE when the backend cannot run now */
TDLS_API tdls_status_t tdls_create(tdls_handle_t* handle, tdls_backend_t backend, int device);

/** Destroys a handle; NULL is a no-op, a destroyed handle INVALID_HANDLE. */
TDLS_API tdls_status_t tdls_destroy(tdls_handle_t handle);

/** Stream of later GPU calls (cudaStream_t or hipStream_t). A CPU handle
 *  accepts only NULL (NOT_SUPPORTED otherwise); the default context (NULL
 *  handle) cannot be changed (INVALID_HANDLE). */
TDLS_API tdls_status_t tdls_set_stream(tdls_handle_t handle, void* stream);

/** The backend the handle was created for (AUTO for the default context). */
TDLS_API tdls_status_t tdls_get_backend(tdls_handle_t handle, tdls_backend_t* backend);

/** Relative pivot threshold tau in (0, 1]: the row in place stays pivot when
 *  its magnitude reaches tau times the column's largest one. 1 (default) gives
 *  exactly LAPACK's pivots; smaller values trade stability for fewer swaps. */
TDLS_API tdls_status_t tdls_set_pivot_threshold(tdls_handle_t handle, double tau);

/** Number of CPU threads of later calls on this handle; 0 = all (default).
 *  More than the machine runs at once are capped to that number. */
TDLS_API tdls_status_t tdls_set_num_threads(tdls_handle_t handle, int threads);

/* ---- solving ------------------------------------------------------------
 * Element (i, j) of A_s: A_s[i + j*lda] under TDLS_COL_MAJOR, A_s[i*lda + j]
 * under TDLS_ROW_MAJOR; B_s likewise with ldb and (i, k), k < nrhs.
 * On return (column-major, exactly LAPACK ?gesv): A_s holds L and U of
 * P A_s = L U in LAPACK's format; ipiv (if not NULL) LAPACK's 1-based swap
 * sequence; info[s] = 0, or k > 0 when column k (1-based) had no candidate of
 * magnitude at least the smallest normal number (the factorization still
 * completes); B_s = X_s when info[s] == 0, else B_s exactly as it was.
 * Row-major: A and ipiv end up as the column-major call would leave them for
 * the matrix that memory holds read column-major (A^T); X still solves
 * A X = B. */

/** Strided batch: system s at A + s*strideA, ipiv + s*strideIpiv, B + s*strideB. */
TDLS_API tdls_status_t tdls_batched_gesv(tdls_handle_t handle, tdls_dtype_t dtype, tdls_layout_t layout,
                                         int64_t n, int64_t nrhs, void* A, int64_t lda, int64_t strideA,
                                         int32_t* ipiv, int64_t strideIpiv, void* B, int64_t ldb,
                                         int64_t strideB, int32_t* info, int64_t batch);

/** Pointer arrays (MAGMA / cuBLAS style): system s at A_array[s],
 *  ipiv_array[s] (ipiv_array may be NULL), B_array[s]. */
TDLS_API tdls_status_t tdls_batched_gesv_ptr(tdls_handle_t handle, tdls_dtype_t dtype, tdls_layout_t layout,
                                             int64_t n, int64_t nrhs, void* const* A_array, int64_t lda,
                                             int32_t* const* ipiv_array, void* const* B_array, int64_t ldb,
                                             int32_t* info, int64_t batch);

/** Interleaved (SoA / AoSoA) batch in blocks of `block` systems: element e of
 *  system s at base[(s / block) * block * E + e * block + s % block], E the
 *  elements of one system's operand (n*n for A, n for ipiv, n*nrhs for B), e
 *  the element's index in the packed system (lda = n; ldb = n column-major,
 *  nrhs row-major). The last block may be partial; its systems keep the full
 *  block stride. */
TDLS_API tdls_status_t tdls_batched_gesv_interleaved(tdls_handle_t handle, tdls_dtype_t dtype,
                                                     tdls_layout_t layout, int64_t n, int64_t nrhs, void* A,
                                                     int32_t* ipiv, void* B, int32_t* info, int64_t batch,
                                                     int64_t block);

/* ---- solving with A read-only -------------------------------------------
 * For callers who want X only: A is never written and there are no pivots;
 * B_s and info[s] end exactly (bitwise) as tdls_batched_gesv leaves them for
 * the same operands, threshold and backend. At small n this moves about half
 * of gesv's memory traffic. Same validation order as gesv, without the pivot
 * checks; nrhs == 0 computes info only. A GPU backend solves an order whose
 * matrix fits a block's shared memory (e.g. n <= 165 in double on an H100);
 * a larger one is TDLS_ERROR_NOT_SUPPORTED there (gesv's in-place fallback
 * would write A). */

/** Strided batch: system s at A + s*strideA, B + s*strideB. */
TDLS_API tdls_status_t tdls_batched_solve(tdls_handle_t handle, tdls_dtype_t dtype, tdls_layout_t layout,
                                          int64_t n, int64_t nrhs, const void* A, int64_t lda, int64_t strideA,
                                          void* B, int64_t ldb, int64_t strideB, int32_t* info, int64_t batch);

/** Pointer arrays: system s at A_array[s], B_array[s]. */
TDLS_API tdls_status_t tdls_batched_solve_ptr(tdls_handle_t handle, tdls_dtype_t dtype, tdls_layout_t layout,
                                              int64_t n, int64_t nrhs, const void* const* A_array, int64_t lda,
                                              void* const* B_array, int64_t ldb, int32_t* info, int64_t batch);

/** Interleaved batch in blocks of `block` systems, as tdls_batched_gesv_interleaved. */
TDLS_API tdls_status_t tdls_batched_solve_interleaved(tdls_handle_t handle, tdls_dtype_t dtype,
                                                      tdls_layout_t layout, int64_t n, int64_t nrhs,
                                                      const void* A, void* B, int32_t* info, int64_t batch,
                                                      int64_t block);

/** Factors only: A and ipiv and info as tdls_batched_gesv leaves them. */
TDLS_API tdls_status_t tdls_batched_getrf(tdls_handle_t handle, tdls_dtype_t dtype, tdls_layout_t layout,
                                          int64_t n, void* A, int64_t lda, int64_t strideA, int32_t* ipiv,
                                          int64_t strideIpiv, int32_t* info, int64_t batch);

/** Solves from LAPACK-format factors and 1-based pivots (from getrf, gesv or
 *  LAPACK itself); ipiv is required. B_s = X_s for every system: a singular U
 *  gives infinities or NaNs, as LAPACK's ?getrs. */
TDLS_API tdls_status_t tdls_batched_getrs(tdls_handle_t handle, tdls_dtype_t dtype, tdls_layout_t layout,
                                          int64_t n, int64_t nrhs, const void* A, int64_t lda,
                                          int64_t strideA, const int32_t* ipiv, int64_t strideIpiv, void* B,
                                          int64_t ldb, int64_t strideB, int64_t batch);

/** tdls_batched_getrf on pointer arrays (MAGMA / cuBLAS style): system s at
 *  A_array[s] and ipiv_array[s] (ipiv_array may be NULL). Same checks as
 *  tdls_batched_gesv_ptr without B; results bitwise tdls_batched_getrf's. */
TDLS_API tdls_status_t tdls_batched_getrf_ptr(tdls_handle_t handle, tdls_dtype_t dtype, tdls_layout_t layout,
                                              int64_t n, void* const* A_array, int64_t lda,
                                              int32_t* const* ipiv_array, int32_t* info, int64_t batch);

/** tdls_batched_getrs on pointer arrays: system s at A_array[s],
 *  ipiv_array[s] (required) and B_array[s]; results bitwise
 *  tdls_batched_getrs's. A row-major call solves with the transpose of the
 *  matrix whose column-major factors A_array[s] holds (A^T X = B), as the
 *  strided form does. */
TDLS_API tdls_status_t tdls_batched_getrs_ptr(tdls_handle_t handle, tdls_dtype_t dtype, tdls_layout_t layout,
                                              int64_t n, int64_t nrhs, const void* const* A_array, int64_t lda,
                                              const int32_t* const* ipiv_array, void* const* B_array,
                                              int64_t ldb, int64_t batch);

#ifdef __cplusplus
}
#endif

#endif /* TDLS_TDLS_H */
