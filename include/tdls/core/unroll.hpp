// libtdls: compile-time and pragma-driven loops.
//
// The rows of a thread live in registers only if every index into them is a
// compile-time constant once the code is inlined. Loops over the row slots of a
// thread (a handful) are therefore expanded by unroll_K, which hands the body a
// constant; loops over columns follow the configuration's unroll policy.
#pragma once

#include <type_traits>
#include <utility>

#include <tdls/core/macros.hpp>

namespace tdls::detail {

/// A compile-time index, convertible to int in host and device code
/// (std::integral_constant's conversion is a host-only function for nvcc).
template <int K>
struct Index {
    static constexpr int value = K;
    TDLS_HOST_DEVICE constexpr operator int() const noexcept { return K; }
};

/// Calls fn once per index of the sequence, in increasing order, with the index
/// as an Index.
template <typename Fn, int... Ks>
TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU constexpr void unroll_K_impl(
    Fn& fn, std::integer_sequence<int, Ks...>) noexcept {
    (fn(Index<Ks>{}), ...);
}

/// Compile-time iteration over the row slots K = 0 .. R-1 of a thread. Inside
/// fn, K is a constant expression: slot classification uses if constexpr and
/// register rows are indexed at compile time. The solver passes it only
/// lambdas that never call the barrier, the one operation that may throw.
template <int R, typename Fn>
TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU constexpr void unroll_K(Fn&& fn) noexcept {
    unroll_K_impl(fn, std::make_integer_sequence<int, R>{});
}

/// for (i = begin; i < end; ++i) fn(i), fully unrolled when Unroll is set
/// (where the compiler knows the trip count), left to the compiler otherwise.
/// Both forms execute the same operations in the same order.
template <bool Unroll, typename Fn>
TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU constexpr void for_range(int begin, int end, Fn&& fn) {
    if constexpr (Unroll) {
        TDLS_PRAGMA_UNROLL
        for (int i = begin; i < end; ++i) fn(i);
    } else {
        for (int i = begin; i < end; ++i) fn(i);
    }
}

/// Same loop walked downwards: fn(end - 1), ..., fn(begin).
template <bool Unroll, typename Fn>
TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU constexpr void for_range_down(int begin, int end, Fn&& fn) {
    if constexpr (Unroll) {
        TDLS_PRAGMA_UNROLL
        for (int i = end - 1; i >= begin; --i) fn(i);
    } else {
        for (int i = end - 1; i >= begin; --i) fn(i);
    }
}

} // namespace tdls::detail
