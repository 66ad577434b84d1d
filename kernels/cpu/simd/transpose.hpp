// libtdls: W x W transposes between "one system per vector" (how the caller
// stores a system: its elements side by side) and "one system per lane" (how
// a tile holds it), for moving whole tiles with vector loads and stores.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>

#include "lanes.hpp"

namespace tdls::kernels::cpu::simd::TDLS_SIMD_ISA {

/// Shuffle indices of one butterfly stage of half-width H: the low result
/// interleaves the first H of each 2H-block of a with those of b, the high
/// result the last H (index W + k: element k of b).
constexpr int butterfly_index(int W, int H, int p, bool high) noexcept {
    const int base = p / (2 * H) * (2 * H), within = p % (2 * H);
    const int offset = high ? H : 0;
    return within < H ? base + offset + within : W + base + offset + within - H;
}

template <typename T, int W, int H, std::size_t... P>
inline void butterfly(typename Lanes<T, W>::V& a, typename Lanes<T, W>::V& b,
                      std::index_sequence<P...>) noexcept {
    const auto low = __builtin_shufflevector(a, b, butterfly_index(W, H, int(P), false)...);
    const auto high = __builtin_shufflevector(a, b, butterfly_index(W, H, int(P), true)...);
    a = low;
    b = high;
}

/// v[r][c] becomes v[c][r]: log2(W) stages of W shuffles.
template <typename T, int W, int H = 1>
inline void transpose(typename Lanes<T, W>::V (&v)[W]) noexcept {
    if constexpr (H < W) {
        for (int i = 0; i < W; ++i)
            if ((i & H) == 0) butterfly<T, W, H>(v[i], v[i + H], std::make_index_sequence<W>{});
        transpose<T, W, 2 * H>(v);
    }
}

/// Elements [0, elements) of each lane's contiguous run src[l] into tile
/// vectors tile[e*W]; elements >= W. The last group overlaps the one before
/// it rather than read past a run's end.
template <typename T, int W>
inline void gather_runs(T* tile, const T* const (&src)[W], int elements) noexcept {
    using L = Lanes<T, W>;
    for (int e = 0; e < elements; e += W) {
        const int first = std::min(e, elements - W);
        typename L::V v[W];
        for (int l = 0; l < W; ++l) v[l] = L::load(src[l] + first);
        transpose<T, W>(v);
        for (int r = 0; r < W; ++r) L::store(tile + std::int64_t(first + r) * W, v[r]);
    }
}

/// The inverse of gather_runs, into the lanes marked in `written` only.
template <typename T, int W>
inline void scatter_runs(const T* tile, T* const (&dst)[W], int elements, const bool (&written)[W]) noexcept {
    using L = Lanes<T, W>;
    for (int e = 0; e < elements; e += W) {
        const int first = std::min(e, elements - W);
        typename L::V v[W];
        for (int r = 0; r < W; ++r) v[r] = L::load(tile + std::int64_t(first + r) * W);
        transpose<T, W>(v);
        for (int l = 0; l < W; ++l)
            if (written[l]) L::store(dst[l] + first, v[l]);
    }
}

/// Even elements of a then b (odd: the odd ones), for a split by two.
template <typename T, int W, std::size_t... P>
inline typename Lanes<T, W>::V pick(typename Lanes<T, W>::V a, typename Lanes<T, W>::V b, int parity,
                                    std::index_sequence<P...>) noexcept {
    return parity == 0 ? __builtin_shufflevector(a, b, int(2 * P)...)
                       : __builtin_shufflevector(a, b, int(2 * P + 1)...);
}

/// First (second) half of a and b interleaved element by element.
template <typename T, int W, std::size_t... P>
inline typename Lanes<T, W>::V zip(typename Lanes<T, W>::V a, typename Lanes<T, W>::V b, int half,
                                   std::index_sequence<P...>) noexcept {
    return half == 0 ? __builtin_shufflevector(a, b, int(P % 2 ? W + P / 2 : P / 2)...)
                     : __builtin_shufflevector(a, b, int(P % 2 ? W + W / 2 + P / 2 : W / 2 + P / 2)...);
}

/// W systems of E < W elements each, back to back in E vectors, to E vectors
/// of W lanes (element e of lane l from flat[l*E + e]): log2(E) stages of
/// splitting pairs of vectors into their even and odd elements.
template <typename T, int W, int E>
inline void deinterleave(typename Lanes<T, W>::V (&v)[E]) noexcept {
    static_assert(E >= 1 && E < W && (E & (E - 1)) == 0);
    using V = typename Lanes<T, W>::V;
    for (int stage = 1; stage < E; stage *= 2) {
        V next[E];
        for (int m = 0; m < E / 2; ++m) {
            next[m] = pick<T, W>(v[2 * m], v[2 * m + 1], 0, std::make_index_sequence<W>{});
            next[m + E / 2] = pick<T, W>(v[2 * m], v[2 * m + 1], 1, std::make_index_sequence<W>{});
        }
        for (int e = 0; e < E; ++e) v[e] = next[e];
    }
}

/// The inverse of deinterleave.
template <typename T, int W, int E>
inline void interleave(typename Lanes<T, W>::V (&v)[E]) noexcept {
    static_assert(E >= 1 && E < W && (E & (E - 1)) == 0);
    using V = typename Lanes<T, W>::V;
    for (int stage = 1; stage < E; stage *= 2) {
        V next[E];
        for (int m = 0; m < E / 2; ++m) {
            next[2 * m] = zip<T, W>(v[m], v[m + E / 2], 0, std::make_index_sequence<W>{});
            next[2 * m + 1] = zip<T, W>(v[m], v[m + E / 2], 1, std::make_index_sequence<W>{});
        }
        for (int e = 0; e < E; ++e) v[e] = next[e];
    }
}

} // namespace tdls::kernels::cpu::simd::TDLS_SIMD_ISA
