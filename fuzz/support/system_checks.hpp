// libtdls fuzzing: the checks every solving harness runs in the same way
// once the library has answered: the status against the contract, an empty
// batch, and one solved system's B. What differs between the entry points
// (where a system's elements lie, which operands exist) stays in the
// harness, which hands these the system's views.
#pragma once

#include <tdls/tdls.h>

#include <cstdint>

#include "batch.hpp"
#include "oracle.hpp"

namespace tdls_fuzz {

/// The status equals the contract's; a refused call names its function in
/// tdls_last_error() and changes no operand (`unchanged` compares every
/// operand with its copy; only called on refusal, the comparison is not
/// free). True when the call succeeded and its results are to be checked.
template <typename Unchanged>
bool check_status(const char* function, tdls_status_t status, tdls_status_t expected, Unchanged&& unchanged) {
    TDLS_FUZZ_CHECK(status == expected, "%s returned %s, the contract says %s (\"%s\")", function,
                    tdls_status_name(status), tdls_status_name(expected),
                    status == TDLS_SUCCESS ? "" : tdls_last_error());
    if (status == TDLS_SUCCESS) return true;
    check_last_error(function);
    TDLS_FUZZ_CHECK(unchanged(), "%s failed (%s) but changed an operand", function, tdls_status_name(status));
    return false;
}

/// A batch with no system or n = 0 solves nothing: A, B and ipiv
/// (`others_unchanged`) keep their bits and each of the batch's verdicts is
/// 0. info: NULL when the call was given none.
inline void check_empty_batch(const char* where, std::int64_t batch, std::int64_t n, bool others_unchanged,
                              const std::int32_t* info) {
    TDLS_FUZZ_CHECK(others_unchanged, "%s: an empty batch (batch %lld, n %lld) changed an operand", where,
                    (long long)batch, (long long)n);
    for (std::int64_t s = 0; s < batch && info != nullptr; ++s)
        TDLS_FUZZ_CHECK(info[s] == 0, "%s: n = 0 but info[%lld] = %d", where, (long long)s, info[s]);
}

/// One solved system's B: bitwise unchanged when info says it is singular,
/// else (for the sampled systems) within the backward-error bound of the
/// matrix `matrix_of()` returns (dense, built only for a sampled system: it
/// is cubic for getrs). X: the solution where B was; B0: B from before.
template <typename T, typename MatrixOf>
void check_solution(const char* where, std::int64_t s, std::int64_t batch, std::int64_t n, std::int64_t nrhs,
                    std::int64_t info, Strided<T> factors, Strided<T> B0, Strided<T> X,
                    MatrixOf&& matrix_of) {
    if (info > 0) {
        TDLS_FUZZ_CHECK(same_bits(X, B0, n, nrhs), "%s: system %lld is singular (info %lld) but B changed",
                        where, (long long)s, (long long)info);
        return;
    }
    if (!residual_sampled(s, batch, n)) return;
    plant_wrong_answer(X, n);
    check_backward_error(where, s, n, nrhs, matrix_of(), factors, B0, X);
}

} // namespace tdls_fuzz
