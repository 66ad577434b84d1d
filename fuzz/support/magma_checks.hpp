// libtdls fuzzing: the MAGMA harnesses' checks of one system a call factored
// (gesv_batched_small, gesv_batched, getrf_batched) or solved (the two
// gesv), on the one-allocation-per-system operands of pointer_arrays.hpp.
#pragma once

#include <tdls/magma.h>

#include <cstdint>

#include "batch.hpp"
#include "oracle.hpp"
#include "system_checks.hpp"

namespace tdls_fuzz {

/// System s's A written only inside its n x n (ldda), its pivots untouched
/// when no dipiv_array was given, and the verdict and pivots the contract
/// asks for. Returns the factors' view.
template <typename T>
Strided<T> check_magma_factored(const char* where, std::int64_t s, std::int64_t n, magma_int_t ldda, Operand<T>& A,
                                Operand<magma_int_t>& ipiv, bool pivots_given, std::int64_t info) {
    TDLS_FUZZ_CHECK(outside_unchanged(A, 1, 0, n, n, ldda), "%s: dA_array[%lld] changed outside its matrix", where,
                    (long long)s);
    if (!pivots_given) TDLS_FUZZ_CHECK(ipiv.unchanged(), "%s: pivots written without dipiv_array", where);
    const Strided<T> factors{A.memory.data(), 1, ldda};
    check_factor_verdict(where, s, n, info, pivots_given ? ipiv.memory.data() : nullptr, 1, factors, true);
    return factors;
}

/// System s's B after a gesv: written only inside its n x nrhs (lddb), and
/// the solution of A as it was before the call (B kept where singular).
template <typename T>
void check_magma_solved(const char* where, std::int64_t s, std::int64_t batch, std::int64_t n, std::int64_t nrhs,
                        magma_int_t ldda, magma_int_t lddb, Operand<T>& A, Operand<T>& B,
                        std::int64_t info, Strided<T> factors) {
    TDLS_FUZZ_CHECK(outside_unchanged(B, 1, 0, n, nrhs, lddb), "%s: dB_array[%lld] changed outside its matrix", where,
                    (long long)s);
    const Strided<T> X{B.memory.data(), 1, lddb};
    const Strided<T> B0{B.before.data(), 1, lddb};
    const Strided<T> A0{A.before.data(), 1, ldda};
    check_solution(where, s, batch, n, nrhs, info, factors, B0, X, [&] { return dense(A0, n); });
}

} // namespace tdls_fuzz
