// MAGMA's argument codes for the four routines: first the checks MAGMA
// itself makes, in its order and with its codes, then those libtdls adds,
// numbered by the argument's position (MAGMA's and LAPACK's convention).
#pragma once

#include <tdls/magma.h>
#include <tdls/tdls.h>

#include <algorithm>

namespace tdls::magma {

/// What the scalars decide before any array is looked at.
struct ScalarVerdict {
    magma_int_t code = 0; // a negative argument code, or 0
    bool quick = false;   // valid, and nothing to do: touch nothing
};

inline constexpr ScalarVerdict refuse(int position) {
    return {-magma_int_t(position), false};
}

/// The batch count, libtdls's own check after MAGMA's: negative is its
/// position's code, zero a quick return.
inline ScalarVerdict check_batch(magma_int_t batch, int position) {
    if (batch < 0) return refuse(position);
    return {0, batch == 0};
}

/// magma_?gesv_batched_small: n, nrhs, MAGMA's quick return for n == 0 or
/// nrhs == 0 (nothing written, not even info), then ldda (-4), lddb (-7) and
/// the batch count (-9), which MAGMA leaves unchecked.
inline ScalarVerdict check_gesv_small(magma_int_t n, magma_int_t nrhs, magma_int_t ldda, magma_int_t lddb,
                                      magma_int_t batch) {
    if (n < 0) return refuse(1);
    if (nrhs < 0) return refuse(2);
    if (n == 0 || nrhs == 0) return {0, true};
    if (ldda < n) return refuse(4);
    if (lddb < n) return refuse(7);
    return check_batch(batch, 9);
}

/// magma_?gesv_batched: MAGMA checks the leading dimensions against
/// max(1, n) before its quick return, and reports lddb as -6.
inline ScalarVerdict check_gesv(magma_int_t n, magma_int_t nrhs, magma_int_t ldda, magma_int_t lddb,
                                magma_int_t batch) {
    if (n < 0) return refuse(1);
    if (nrhs < 0) return refuse(2);
    if (ldda < std::max<magma_int_t>(1, n)) return refuse(4);
    if (lddb < std::max<magma_int_t>(1, n)) return refuse(6);
    if (n == 0 || nrhs == 0) return {0, true};
    return check_batch(batch, 9);
}

/// magma_?getrf_batched(m, n, dA_array, ldda, ipiv_array, info_array, batchCount, queue).
inline ScalarVerdict check_getrf(magma_int_t m, magma_int_t n, magma_int_t ldda, magma_int_t batch) {
    if (m < 0) return refuse(1);
    if (n < 0) return refuse(2);
    if (ldda < std::max<magma_int_t>(1, m)) return refuse(4);
    if (m == 0 || n == 0) return {0, true};
    return check_batch(batch, 7);
}

inline bool valid_trans(magma_trans_t trans) {
    return trans == MagmaNoTrans || trans == MagmaTrans || trans == MagmaConjTrans;
}

/// magma_?getrs_batched(trans, n, nrhs, dA_array, ldda, dipiv_array, dB_array, lddb, batchCount, queue).
inline ScalarVerdict check_getrs(magma_trans_t trans, magma_int_t n, magma_int_t nrhs, magma_int_t ldda,
                                 magma_int_t lddb, magma_int_t batch) {
    if (!valid_trans(trans)) return refuse(1);
    if (n < 0) return refuse(2);
    if (nrhs < 0) return refuse(3);
    if (ldda < std::max<magma_int_t>(1, n)) return refuse(5);
    if (lddb < std::max<magma_int_t>(1, n)) return refuse(8);
    if (n == 0 || nrhs == 0) return {0, true};
    return check_batch(batch, 9);
}

/// Where a routine's pointer arguments sit (1-based; 0 = not an argument),
/// and whether it requires the pivot array.
struct ArrayPositions {
    int A = 0, ipiv = 0, B = 0, info = 0;
    bool ipiv_required = false;
};

inline constexpr ArrayPositions gesv_arrays{.A = 3, .ipiv = 5, .B = 6, .info = 8};
inline constexpr ArrayPositions getrf_arrays{.A = 3, .ipiv = 5, .info = 6};
inline constexpr ArrayPositions getrs_arrays{.A = 4, .ipiv = 6, .B = 7, .ipiv_required = true};

/// Host pointer arrays, in argument order: an array or one of its entries
/// NULL is that argument's code. A pivot array that is not required may
/// itself be NULL (no pivots stored), but not have a NULL entry.
template <typename T>
magma_int_t check_host_arrays(const ArrayPositions& at, T* const* A, magma_int_t* const* ipiv, T* const* B,
                              const magma_int_t* info, magma_int_t batch) {
    const auto any_null = [batch](const auto* array) {
        return std::any_of(array, array + batch, [](const auto* entry) { return entry == nullptr; });
    };
    if (A == nullptr || any_null(A)) return -magma_int_t(at.A);
    if (ipiv == nullptr ? at.ipiv_required : any_null(ipiv)) return -magma_int_t(at.ipiv);
    if (at.B != 0 && (B == nullptr || any_null(B))) return -magma_int_t(at.B);
    if (at.info != 0 && info == nullptr) return -magma_int_t(at.info);
    return 0;
}

/// A libtdls status after the arguments passed the checks above.
inline magma_int_t code_of(tdls_status_t status) {
    if (status == TDLS_SUCCESS) return MAGMA_SUCCESS;
    if (status == TDLS_ERROR_ALLOCATION) return MAGMA_ERR_HOST_ALLOC;
    return MAGMA_ERR;
}

} // namespace tdls::magma
