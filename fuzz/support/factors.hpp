// libtdls fuzzing: the matrix LAPACK-format factors stand for, the oracle of
// the getrs harnesses (fuzz_getrs, fuzz_magma_family).
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <utility>

#include "input.hpp"
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

/// A pivot of row k from one byte: mostly a valid swap target, sometimes
/// one outside 1..n. P: the pivots' type; with 8-byte pivots (the ILP64
/// MAGMA shim) also a value past int32 whose low 32 bits are valid, which a
/// narrowing must not wrap into range.
template <typename P>
P pivot_value(std::uint8_t b, std::int64_t k, std::int64_t n, Input& in) {
    if (b < 0xE0) return P(k + 1 + b % (n - k));
    switch (b & 7) {
    case 0:
        return 0;
    case 1:
        return -1;
    case 2:
        return P(n + 1);
    case 3:
        return std::numeric_limits<P>::min();
    case 4:
        return std::numeric_limits<P>::max();
    case 5:
        return P(1 + b % n); // valid, possibly upwards
    case 6:
        if constexpr (sizeof(P) == 8) return P((std::int64_t(1) << 32) + k + 1);
        return in.raw<P>();
    default:
        return in.raw<P>();
    }
}

} // namespace tdls_fuzz
