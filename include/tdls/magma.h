/*
 * libtdls: MAGMA's batched LU family over libtdls.
 *
 * libtdls_magma (magma_int_t = int) and libtdls_magma64 (magma_int_t = long
 * long, MAGMA's ILP64 build) export, with MAGMA's signatures, argument codes
 * and semantics, for s, d, c and z:
 *   magma_?gesv_batched, magma_?getrf_batched, magma_?getrs_batched,
 *   magma_?gesv_batched_small.
 * CMake: find_package(tdls) -> tdls::magma, tdls::magma64 (which defines
 * MAGMA_ILP64 for its users); pkg-config tdls_magma, tdls_magma64.
 *
 * HOW TO LINK: interposition. A MAGMA program keeps libmagma (it needs
 * magma_init, queues, magma_malloc, ...) and links libtdls_magma BEFORE it:
 *     cc prog.o -ltdls_magma -lmagma ...      (or LD_PRELOAD=libtdls_magma.so)
 * The dynamic linker then binds every call of these 16 functions to
 * libtdls_magma, the program's own and libmagma's internal ones alike (e.g.
 * MAGMA 2.x's magma_?gesv_batched calls magma_?gesv_batched_small), because
 * libmagma's shared library calls its exported functions through the PLT.
 * Without libmagma the same functions serve host arrays with a NULL queue.
 *
 * WHAT IS SERVED, WHAT IS FORWARDED. A call libtdls serves runs on libtdls:
 *   queue NULL (host arrays, CPU backend, returns when done):
 *     gesv_batched, gesv_batched_small, getrs_batched (MagmaNoTrans,
 *     MagmaTrans, MagmaConjTrans) and square getrf_batched (m == n), n <= 1024.
 *   queue non-NULL (device arrays, enqueued on the queue's stream by
 *     libtdls's CUDA or HIP plugin), libtdls_magma only:
 *     gesv_batched, gesv_batched_small, square getrf_batched, and
 *     getrs_batched with MagmaNoTrans, n <= 1024, when the plugin runs here.
 * Every other valid call is FORWARDED, before any operand is touched, to the
 * next definition of the same symbol in the process (dlsym(RTLD_NEXT): the
 * libmagma linked after libtdls_magma), which answers it: a rectangular
 * getrf_batched, n > 1024, getrs_batched with MagmaTrans or MagmaConjTrans
 * on a queue, any queue call of libtdls_magma64 (widening its int32 pivots
 * on the device needs a kernel libtdls has not), and any queue call whose
 * plugin, runtime or device is unavailable (tdls_create fails). A host call
 * (NULL queue) is never forwarded: MAGMA cannot take one. Where nothing
 * serves a call (host call not served, or no next definition, or the next
 * definition is the other width's libtdls_magma), it returns MAGMA_ERR
 * (-100), modifies nothing and prints one line naming the function and the
 * reason to stderr, once per function and process (MAGMA's magma_xerbla
 * prints its errors there too).
 *
 * WIDTHS. The two libraries carry different symbol versions
 * (TDLS_MAGMA_LP64, TDLS_MAGMA_ILP64), and this header binds a program's
 * references to the version of the width it was compiled for (an assembler
 * .symver per function, ELF with GCC or Clang; define TDLS_MAGMA_UNVERSIONED
 * before including it to opt out). A program compiled for one width and
 * linked against the other fails to link; one run against the other width's
 * library (a renamed or misplaced file) fails to load: "version
 * `TDLS_MAGMA_ILP64' not found". A program that never includes this header
 * (MAGMA's headers only) takes the version of the library it links, so link
 * libtdls_magma64 exactly when your MAGMA is its ILP64 build.
 *
 * TYPES. When MAGMA's magma_types.h was included first (it defines
 * MAGMA_TYPES_H), or is reachable on the include path (__has_include), this
 * header uses MAGMA's types, so either include order with magma_v2.h is
 * valid C99; magma_types.h includes the CUDA (or HIP) headers, as any MAGMA
 * program does. Define TDLS_MAGMA_OWN_TYPES to never include it (a MAGMA on
 * the include path without CUDA's; libtdls_magma itself is built so).
 * Otherwise (or with TDLS_MAGMA_OWN_TYPES defined) it declares
 * what a MAGMA program needs from it, under MAGMA's names: magma_int_t (int,
 * or long long under MAGMA_ILP64 or MKL_ILP64, MAGMA's rule), magma_queue_t
 * (struct magma_queue*), magma_trans_t with MagmaNoTrans = 111, MagmaTrans =
 * 112, MagmaConjTrans = 113, magmaFloatComplex / magmaDoubleComplex (two
 * consecutive reals {x = real, y = imaginary}: the layout of cuFloatComplex,
 * hipFloatComplex, C99 float _Complex and std::complex<float>), MAGMA_SUCCESS,
 * MAGMA_ERR and MAGMA_ERR_HOST_ALLOC.
 *
 * SEMANTICS are MAGMA's: column-major, pointer arrays; A_s gets the LU
 * factors, dipiv_array[s] LAPACK's 1-based pivots, dinfo_array[s] 0 or the
 * first singular column; getrs solves op(A_s) X_s = B_s from them. Return
 * value: 0, or a negative code naming the argument by its position, checked
 * in this order, the first failure wins (MAGMA's checks, then libtdls's):
 *   gesv_batched_small: -1 n < 0; -2 nrhs < 0; n == 0 or nrhs == 0 returns
 *     0 touching nothing; -4 ldda < n; -7 lddb < n; -9 batchCount < 0.
 *   gesv_batched: -1 n < 0; -2 nrhs < 0; -4 ldda < max(1, n); -6 lddb <
 *     max(1, n) (MAGMA's own code, although lddb is the 7th argument);
 *     n == 0 or nrhs == 0 returns 0 touching nothing; -9 batchCount < 0.
 *   getrf_batched: -1 m < 0; -2 n < 0; -4 ldda < max(1, m); m == 0 or
 *     n == 0 returns 0 touching nothing; -7 batchCount < 0.
 *   getrs_batched: -1 trans not one of the three; -2 n < 0; -3 nrhs < 0;
 *     -5 ldda < max(1, n); -8 lddb < max(1, n); n == 0 or nrhs == 0 returns
 *     0 touching nothing; -9 batchCount < 0.
 *   then batchCount == 0 returns 0;
 *   then, host arrays (NULL queue) only, in argument order: dA_array or one
 *     of its entries NULL is dA_array's position (-3, or -4 in getrs), an
 *     entry of dipiv_array NULL dipiv_array's (-5; getrs: -6, and the array
 *     itself is required there), dB_array or an entry NULL dB_array's (-6;
 *     getrs: -7), dinfo_array NULL its own (-8; getrf: -6);
 *   -100 (MAGMA_ERR): not served and not forwarded (above), or libtdls
 *     refused the call (tdls_last_error() says why), e.g. a getrs pivot
 *     outside 1..n on the host (nothing written), host arrays in device
 *     or managed memory, or (transposed getrs on the host) an lddb whose B
 *     would reach past the address space;
 *   -112 (MAGMA_ERR_HOST_ALLOC): out of host memory.
 * A call that returns nonzero has modified no operand. Argument errors print
 * nothing (MAGMA prints them through magma_xerbla): the code is the
 * diagnostic.
 *
 * Host arrays (NULL queue) run on a CPU handle of libtdls (never AUTO: host
 * pointer arrays in managed memory are refused, -100, rather than sent to a
 * GPU behind the caller's back) and the call returns when done.
 *
 * Device arrays on a queue: the stream is read through MAGMA's own
 * magma_queue_get_cuda_stream or magma_queue_get_hip_stream (and the device
 * through magma_queue_get_device), looked up in the process at run time, so
 * libtdls_magma never links MAGMA. As MAGMA's own: gesv_batched,
 * getrf_batched and getrs_batched return after magma_queue_sync(queue) (found
 * the same way), gesv_batched_small once enqueued. A NULL entry of a device
 * pointer array gives dinfo_array[s] = -1, that system untouched.
 *
 * Differences from MAGMA, each where libtdls accepts or keeps more:
 *   - MAGMA's small kernel (magma_?gesv_batched_small, MAGMA 2.10) takes
 *     n <= 60 in s, d, c and n <= 53 in z, and nrhs = 1 in older releases,
 *     and returns -100 beyond; libtdls serves n <= 1024 and any nrhs there.
 *   - A singular system (dinfo_array[s] > 0) leaves dB_array[s] exactly as it
 *     was in gesv_batched and gesv_batched_small (MAGMA overwrites it with
 *     infinities or NaNs); getrs, like LAPACK's and MAGMA's, does not look
 *     at info.
 *   - batchCount and the host pointer arrays are checked (MAGMA reads them
 *     unchecked); dipiv_array may be NULL in gesv and getrf (no pivots
 *     stored).
 *   - dinfo_array[s] = k > 0 when column k had no candidate pivot of
 *     magnitude at least the smallest normal number (MAGMA and LAPACK:
 *     exactly zero): a subnormal pivot is reported rather than divided by.
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

/* MAGMA's own types when its header is reachable: declaring ours first would
 * make a later magma_v2.h redefine them (invalid C99, and the enumerators in
 * any C). */
#if !defined(MAGMA_TYPES_H) && !defined(TDLS_MAGMA_OWN_TYPES) && defined(__has_include)
#if __has_include(<magma_types.h>)
#include <magma_types.h>
#endif
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
/* In C++ with a fixed underlying type, so that any int a C caller passes is
 * a value of it (and refused as -1), as in C. */
#ifdef __cplusplus
#define TDLS_MAGMA_ENUM_BASE : int
#else
#define TDLS_MAGMA_ENUM_BASE
#endif
typedef enum TDLS_MAGMA_ENUM_BASE {
    MagmaNoTrans = 111,
    MagmaTrans = 112,
    MagmaConjTrans = 113,
    Magma_ConjTrans = MagmaConjTrans
} magma_trans_t;
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

/* ---- magma_?gesv_batched: factor and solve -------------------------------
 *  @param[in]     n           order
 *  @param[in]     nrhs        right-hand sides per system
 *  @param[in,out] dA_array    batchCount pointers to n x n matrices (ldda); LU factors on return
 *  @param[in]     ldda        leading dimension of every A_s
 *  @param[out]    dipiv_array batchCount pointers to n pivots (1-based), or NULL
 *  @param[in,out] dB_array    batchCount pointers to n x nrhs matrices (lddb); X_s where info is 0
 *  @param[in]     lddb        leading dimension of every B_s
 *  @param[out]    dinfo_array batchCount verdicts: 0, or the first singular column (1-based)
 *  @param[in]     batchCount  number of systems
 *  @param[in]     queue       NULL: host arrays, CPU backend; else MAGMA's queue
 *  @return 0, or a negative code (above) */
TDLS_MAGMA_API magma_int_t magma_sgesv_batched(magma_int_t n, magma_int_t nrhs, float** dA_array, magma_int_t ldda,
                                               magma_int_t** dipiv_array, float** dB_array, magma_int_t lddb,
                                               magma_int_t* dinfo_array, magma_int_t batchCount,
                                               magma_queue_t queue);
TDLS_MAGMA_API magma_int_t magma_dgesv_batched(magma_int_t n, magma_int_t nrhs, double** dA_array,
                                               magma_int_t ldda, magma_int_t** dipiv_array, double** dB_array,
                                               magma_int_t lddb, magma_int_t* dinfo_array, magma_int_t batchCount,
                                               magma_queue_t queue);
TDLS_MAGMA_API magma_int_t magma_cgesv_batched(magma_int_t n, magma_int_t nrhs, magmaFloatComplex** dA_array,
                                               magma_int_t ldda, magma_int_t** dipiv_array,
                                               magmaFloatComplex** dB_array, magma_int_t lddb,
                                               magma_int_t* dinfo_array, magma_int_t batchCount,
                                               magma_queue_t queue);
TDLS_MAGMA_API magma_int_t magma_zgesv_batched(magma_int_t n, magma_int_t nrhs, magmaDoubleComplex** dA_array,
                                               magma_int_t ldda, magma_int_t** dipiv_array,
                                               magmaDoubleComplex** dB_array, magma_int_t lddb,
                                               magma_int_t* dinfo_array, magma_int_t batchCount,
                                               magma_queue_t queue);

/* ---- magma_?gesv_batched_small: the same arguments and results ---------- */
TDLS_MAGMA_API magma_int_t magma_sgesv_batched_small(magma_int_t n, magma_int_t nrhs, float** dA_array,
                                                     magma_int_t ldda, magma_int_t** dipiv_array,
                                                     float** dB_array, magma_int_t lddb,
                                                     magma_int_t* dinfo_array, magma_int_t batchCount,
                                                     magma_queue_t queue);
TDLS_MAGMA_API magma_int_t magma_dgesv_batched_small(magma_int_t n, magma_int_t nrhs, double** dA_array,
                                                     magma_int_t ldda, magma_int_t** dipiv_array,
                                                     double** dB_array, magma_int_t lddb,
                                                     magma_int_t* dinfo_array, magma_int_t batchCount,
                                                     magma_queue_t queue);
TDLS_MAGMA_API magma_int_t magma_cgesv_batched_small(magma_int_t n, magma_int_t nrhs,
                                                     magmaFloatComplex** dA_array, magma_int_t ldda,
                                                     magma_int_t** dipiv_array, magmaFloatComplex** dB_array,
                                                     magma_int_t lddb, magma_int_t* dinfo_array,
                                                     magma_int_t batchCount, magma_queue_t queue);
TDLS_MAGMA_API magma_int_t magma_zgesv_batched_small(magma_int_t n, magma_int_t nrhs,
                                                     magmaDoubleComplex** dA_array, magma_int_t ldda,
                                                     magma_int_t** dipiv_array, magmaDoubleComplex** dB_array,
                                                     magma_int_t lddb, magma_int_t* dinfo_array,
                                                     magma_int_t batchCount, magma_queue_t queue);

/* ---- magma_?getrf_batched: factor (libtdls serves m == n) ---------------
 *  @param[in]     m, n        rows and columns of every A_s
 *  @param[in,out] dA_array    batchCount pointers to m x n matrices (ldda); LU factors on return
 *  @param[in]     ldda        leading dimension, >= max(1, m)
 *  @param[out]    ipiv_array  batchCount pointers to min(m, n) pivots, or NULL
 *  @param[out]    info_array  batchCount verdicts
 *  @param[in]     batchCount, queue  as gesv */
TDLS_MAGMA_API magma_int_t magma_sgetrf_batched(magma_int_t m, magma_int_t n, float** dA_array, magma_int_t ldda,
                                                magma_int_t** ipiv_array, magma_int_t* info_array,
                                                magma_int_t batchCount, magma_queue_t queue);
TDLS_MAGMA_API magma_int_t magma_dgetrf_batched(magma_int_t m, magma_int_t n, double** dA_array,
                                                magma_int_t ldda, magma_int_t** ipiv_array,
                                                magma_int_t* info_array, magma_int_t batchCount,
                                                magma_queue_t queue);
TDLS_MAGMA_API magma_int_t magma_cgetrf_batched(magma_int_t m, magma_int_t n, magmaFloatComplex** dA_array,
                                                magma_int_t ldda, magma_int_t** ipiv_array,
                                                magma_int_t* info_array, magma_int_t batchCount,
                                                magma_queue_t queue);
TDLS_MAGMA_API magma_int_t magma_zgetrf_batched(magma_int_t m, magma_int_t n, magmaDoubleComplex** dA_array,
                                                magma_int_t ldda, magma_int_t** ipiv_array,
                                                magma_int_t* info_array, magma_int_t batchCount,
                                                magma_queue_t queue);

/* ---- magma_?getrs_batched: solve op(A_s) X_s = B_s from getrf's factors ----
 *  @param[in]     trans       MagmaNoTrans (A), MagmaTrans (A^T), MagmaConjTrans (A^H)
 *  @param[in]     n, nrhs     order, right-hand sides
 *  @param[in]     dA_array    the factors (ldda), read only
 *  @param[in]     dipiv_array the pivots, required, read only
 *  @param[in,out] dB_array    right-hand sides (lddb); X_s on return (a singular U gives infinities or NaNs)
 *  @param[in]     batchCount, queue  as gesv */
TDLS_MAGMA_API magma_int_t magma_sgetrs_batched(magma_trans_t trans, magma_int_t n, magma_int_t nrhs,
                                                float** dA_array, magma_int_t ldda, magma_int_t** dipiv_array,
                                                float** dB_array, magma_int_t lddb, magma_int_t batchCount,
                                                magma_queue_t queue);
TDLS_MAGMA_API magma_int_t magma_dgetrs_batched(magma_trans_t trans, magma_int_t n, magma_int_t nrhs,
                                                double** dA_array, magma_int_t ldda, magma_int_t** dipiv_array,
                                                double** dB_array, magma_int_t lddb, magma_int_t batchCount,
                                                magma_queue_t queue);
TDLS_MAGMA_API magma_int_t magma_cgetrs_batched(magma_trans_t trans, magma_int_t n, magma_int_t nrhs,
                                                magmaFloatComplex** dA_array, magma_int_t ldda,
                                                magma_int_t** dipiv_array, magmaFloatComplex** dB_array,
                                                magma_int_t lddb, magma_int_t batchCount, magma_queue_t queue);
TDLS_MAGMA_API magma_int_t magma_zgetrs_batched(magma_trans_t trans, magma_int_t n, magma_int_t nrhs,
                                                magmaDoubleComplex** dA_array, magma_int_t ldda,
                                                magma_int_t** dipiv_array, magmaDoubleComplex** dB_array,
                                                magma_int_t lddb, magma_int_t batchCount, magma_queue_t queue);

#ifdef __cplusplus
}
#endif

/* A program's references bound to its width's symbol version (see WIDTHS). */
#if defined(__ELF__) && (defined(__GNUC__) || defined(__clang__)) && !defined(TDLS_BUILDING_MAGMA) &&            \
    !defined(TDLS_MAGMA_UNVERSIONED) && !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
#if defined(MAGMA_ILP64) || defined(MKL_ILP64)
#define TDLS_MAGMA_VERSION_NODE "TDLS_MAGMA_ILP64"
#else
#define TDLS_MAGMA_VERSION_NODE "TDLS_MAGMA_LP64"
#endif
#define TDLS_MAGMA_BIND_(f) __asm__(".symver " #f "," #f "@" TDLS_MAGMA_VERSION_NODE);
#define TDLS_MAGMA_BIND(p)                                                                                       \
    TDLS_MAGMA_BIND_(magma_##p##gesv_batched)                                                                    \
    TDLS_MAGMA_BIND_(magma_##p##gesv_batched_small)                                                              \
    TDLS_MAGMA_BIND_(magma_##p##getrf_batched)                                                                   \
    TDLS_MAGMA_BIND_(magma_##p##getrs_batched)
TDLS_MAGMA_BIND(s)
TDLS_MAGMA_BIND(d)
TDLS_MAGMA_BIND(c)
TDLS_MAGMA_BIND(z)
#undef TDLS_MAGMA_BIND
#undef TDLS_MAGMA_BIND_
#endif

#endif /* TDLS_MAGMA_H */
