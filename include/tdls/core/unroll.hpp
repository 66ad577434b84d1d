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

/// fn(Index<First + J>) for each J in order; a function, not a lambda, so that
/// GPU compilers inline it however large the expanded body grows.
template <int First, typename Fn, int... J>
TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU constexpr void expand_up(Fn& fn, std::integer_sequence<int, J...>) {
    (fn(Index<First + J>{}), ...);
}
/// fn(Index<Last - J>) for each J in order.
template <int Last, typename Fn, int... J>
TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU constexpr void expand_down(Fn& fn, std::integer_sequence<int, J...>) {
    (fn(Index<Last - J>{}), ...);
}

/// Compile-time iteration over the row slots K = 0 .. R-1 of a thread. Inside
/// fn, K is a constant expression: slot classification uses if constexpr and
/// register rows are indexed at compile time. The solver passes it only
/// lambdas that never call the barrier, the one operation that may throw.
template <int R, typename Fn>
TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU constexpr void unroll_K(Fn&& fn) noexcept {
    expand_up<0>(fn, std::make_integer_sequence<int, R>{});
}

/// Index arithmetic that stays compile-time: Index<A> + Index<B> is Index<A + B>.
/// Mixed with an int, an Index converts and the result is a plain int.
template <int A, int B>
TDLS_HOST_DEVICE constexpr Index<A + B> operator+(Index<A>, Index<B>) noexcept {
    return {};
}
template <int A, int B>
TDLS_HOST_DEVICE constexpr Index<A - B> operator-(Index<A>, Index<B>) noexcept {
    return {};
}

template <typename I>
inline constexpr bool is_index_v = false;
template <int K>
inline constexpr bool is_index_v<Index<K>> = true;

inline constexpr Index<0> zero{};
inline constexpr Index<1> one{};

/// for (i = begin; i < end; ++i) fn(i). When Unroll is set and both bounds are
/// compile-time Index values, the loop is expanded here, at compile time, and
/// fn receives each i as an Index: every column index into a thread's register
/// rows is then a constant before any optimization runs, which is what keeps
/// the rows in registers on GPUs (compilers fail to unroll these triangular
/// loops reliably from a pragma). Otherwise it is a plain loop over int. Both
/// forms execute the same operations in the same order.
template <bool Unroll, typename Begin, typename End, typename Fn>
TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU constexpr void for_range(Begin begin, End end, Fn&& fn) {
    if constexpr (Unroll && is_index_v<Begin> && is_index_v<End>) {
        constexpr int count = End::value > Begin::value ? End::value - Begin::value : 0;
        expand_up<Begin::value>(fn, std::make_integer_sequence<int, count>{});
    } else {
        for (int i = begin; i < int(end); ++i) fn(i);
    }
}

/// The same loop walked downwards: fn(end - 1), ..., fn(begin).
template <bool Unroll, typename Begin, typename End, typename Fn>
TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU constexpr void for_range_down(Begin begin, End end, Fn&& fn) {
    if constexpr (Unroll && is_index_v<Begin> && is_index_v<End>) {
        constexpr int count = End::value > Begin::value ? End::value - Begin::value : 0;
        expand_down<End::value - 1>(fn, std::make_integer_sequence<int, count>{});
    } else {
        for (int i = int(end) - 1; i >= int(begin); --i) fn(i);
    }
}

/// fn(i - 1) when i > 0: decided at compile time for an Index, so that no
/// out-of-range constant index is ever formed.
template <typename I, typename Fn>
TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU constexpr void with_previous(I i, Fn&& fn) {
    if constexpr (is_index_v<I>) {
        if constexpr (I::value > 0) fn(Index<I::value - 1>{});
    } else {
        if (i > 0) fn(i - 1);
    }
}

/// fn(i + 1) when i + 1 < end, likewise.
template <typename I, typename End, typename Fn>
TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU constexpr void with_next(I i, End end, Fn&& fn) {
    if constexpr (is_index_v<I> && is_index_v<End>) {
        if constexpr (I::value + 1 < End::value) fn(Index<I::value + 1>{});
    } else {
        if (int(i) + 1 < int(end)) fn(int(i) + 1);
    }
}

} // namespace tdls::detail
