// libtdls fuzzing: the matrix LAPACK-format factors stand for, the oracle of
// the getrs harnesses (fuzz_getrs, fuzz_magma_family).
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>

#include "oracle.hpp"

namespace tdls_fuzz {

/// The matrix the factors of one system stand for, dense: A = P^T L U
/// (column-major), or its transpose (row-major memory is read column-major,
/// as the factors of A^T; MAGMA's MagmaTrans solves with it). P: the
/// pivots' type (int32, or magma_int_t in the MAGMA shim); every pivot must
/// lie in 1..n.
template <typename T, typename P>
Dense<T> matrix_of_factors(Strided<T> factors, const P* ipiv, std::int64_t n, bool transpose) {
    Dense<T> lu(std::size_t(n * n), Wide<T>(0));
    for (std::int64_t j = 0; j < n; ++j)
        for (std::int64_t i = 0; i < n; ++i) {
            Wide<T> sum = 0;
            for (std::int64_t p = 0; p <= std::min(i, j); ++p)
                sum += (p == i ? Wide<T>(1) : widen(factors(i, p))) * widen(factors(p, j));
            lu[std::size_t(i + j * n)] = sum;
        }
    for (std::int64_t k = n - 1; k >= 0; --k) { // undo the interchanges, last first
        const std::int64_t r = std::int64_t(ipiv[k]) - 1;
        if (r != k)
            for (std::int64_t j = 0; j < n; ++j)
                std::swap(lu[std::size_t(k + j * n)], lu[std::size_t(r + j * n)]);
    }
    if (!transpose) return lu;
    Dense<T> transposed(lu.size());
    for (std::int64_t j = 0; j < n; ++j)
        for (std::int64_t i = 0; i < n; ++i) transposed[std::size_t(j + i * n)] = lu[std::size_t(i + j * n)];
    return transposed;
}

} // namespace tdls_fuzz
