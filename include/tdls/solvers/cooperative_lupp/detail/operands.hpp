// libtdls: how the cooperative LU-pp solver addresses its operands.
//
// Every operand has two residencies. External: the whole object of one system,
// in memory every thread of the group reaches, walked with a stride (runtime,
// or a compile-time template argument). Internal: the slice of the calling
// thread, a plain local array holding only its rows, stride ignored.
#pragma once

#include <cstdint>

#include <tdls/core/macros.hpp>

namespace tdls::detail::coop {

/// A stride known at compile time (Ct) or at run time (Ct == dynamic_stride).
template <std::int64_t Ct>
struct Stride {
    std::int64_t runtime;
    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU constexpr std::int64_t value() const noexcept {
        if constexpr (Ct == dynamic_stride)
            return runtime;
        else
            return Ct;
    }
};

/// A vector operand (pivots, right-hand side, solution). External entry v at
/// data[v * stride]; the internal slice holds the entry of slot K at data[K].
template <typename P, bool Internal, std::int64_t Ct>
struct VectorOperand {
    P* data;
    Stride<Ct> stride;

    /// Entry of row v, held in slot K of the calling thread.
    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU constexpr P& operator()(int K, int v) const noexcept {
        if constexpr (Internal)
            return data[K];
        else
            return data[TDLS_STRIDED(v, stride.value())];
    }
};

/// The canonical vector e_col as a right-hand side: entry v is 1 at v = col,
/// 0 elsewhere, whatever the residency (substitute_canonical).
template <typename T>
struct CanonicalVector {
    int col;
    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU constexpr T operator()(int, int v) const noexcept {
        return v == col ? T(1) : T(0);
    }
};

/// The stored matrix S read column-major (A under ColMajor, A^T under
/// RowMajor): element (v, c) of S at data[(c * n + v) * stride]. The internal
/// slice keeps element c of the row of slot K at data[c * R + K].
template <typename P, int R, bool Internal, std::int64_t Ct>
struct MatrixOperand {
    P* data;
    Stride<Ct> stride;

    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU constexpr P& operator()(int K, int v, int c,
                                                                   int n) const noexcept {
        if constexpr (Internal)
            return data[c * R + K];
        else
            return data[TDLS_STRIDED(c * n + v, stride.value())];
    }
};

/// Rows of a thread held in local arrays: registers on GPU once every index is
/// a constant. Used by the static solver, which loads them on entry and stores
/// them on exit.
template <typename T, int R, int N>
struct RegisterRows {
    T v[R][N];
    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU constexpr T& operator()(int K, int c) noexcept { return v[K][c]; }
};

/// Rows of a thread left where the caller keeps them, worked on in place. Used
/// by the dynamic solver, whose order is not a compile-time constant.
template <typename Matrix>
struct OperandRows {
    Matrix matrix;
    int n;
    int threads;
    int tx;
    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU constexpr auto& operator()(int K, int c) const noexcept {
        return matrix(K, tx + K * threads, c, n);
    }
};

} // namespace tdls::detail::coop
