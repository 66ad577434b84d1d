// MAGMA's argument codes for magma_?gesv_batched_small: the checks MAGMA
// makes (n, nrhs), then those libtdls adds, numbered by the argument's
// position as MAGMA and LAPACK do (-4 is ldda, the fourth argument).
#pragma once

#include <tdls/magma.h>
#include <tdls/tdls.h>

namespace tdls::magma {

/// Positions of the arguments of magma_?gesv_batched_small, 1-based.
enum Argument : int { n_arg = 1, nrhs_arg, A_arg, ldda_arg, ipiv_arg, B_arg, lddb_arg, info_arg, batch_arg };

inline constexpr magma_int_t code_of(Argument a) {
    return -magma_int_t(a);
}

/// What the scalars decide before any array is looked at.
struct ScalarVerdict {
    magma_int_t code = 0; // a negative argument code, or 0
    bool quick = false;   // valid, and nothing to do
};

/// MAGMA's order: n, nrhs, then its quick return for n == 0 or nrhs == 0
/// (nothing written, not even info), then the leading dimensions and the
/// batch count, which MAGMA leaves unchecked.
inline ScalarVerdict check_scalars(magma_int_t n, magma_int_t nrhs, magma_int_t ldda, magma_int_t lddb,
                                   magma_int_t batch) {
    if (n < 0) return {code_of(n_arg), false};
    if (nrhs < 0) return {code_of(nrhs_arg), false};
    if (n == 0 || nrhs == 0) return {0, true};
    if (ldda < n) return {code_of(ldda_arg), false};
    if (lddb < n) return {code_of(lddb_arg), false};
    if (batch < 0) return {code_of(batch_arg), false};
    return {0, batch == 0};
}

/// Host pointer arrays, in argument order: an array or one of its entries
/// NULL is that argument's code. dipiv_array itself may be NULL (no pivots
/// stored), but not a NULL entry of a given one.
template <typename T>
magma_int_t check_host_arrays(T* const* A, magma_int_t* const* ipiv, T* const* B, const magma_int_t* info,
                              magma_int_t batch) {
    if (A == nullptr) return code_of(A_arg);
    for (magma_int_t s = 0; s < batch; ++s)
        if (A[s] == nullptr) return code_of(A_arg);
    if (ipiv != nullptr)
        for (magma_int_t s = 0; s < batch; ++s)
            if (ipiv[s] == nullptr) return code_of(ipiv_arg);
    if (B == nullptr) return code_of(B_arg);
    for (magma_int_t s = 0; s < batch; ++s)
        if (B[s] == nullptr) return code_of(B_arg);
    if (info == nullptr) return code_of(info_arg);
    return 0;
}

/// A libtdls status after the arguments passed the checks above.
inline magma_int_t code_of(tdls_status_t status) {
    if (status == TDLS_SUCCESS) return MAGMA_SUCCESS;
    if (status == TDLS_ERROR_ALLOCATION) return MAGMA_ERR_HOST_ALLOC;
    return MAGMA_ERR;
}

} // namespace tdls::magma
