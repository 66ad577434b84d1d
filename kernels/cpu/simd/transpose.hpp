// libtdls: W x W transposes between "one system per vector" (how the caller
// stores a system: its elements side by side) and "one system per lane" (how
// a tile holds it), for moving whole tiles with vector loads and stores.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>

#if defined(__AVX2__)
#include <immintrin.h>
#endif

#include "force_inline.hpp"
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
TDLS_SIMD_FORCE_INLINE void butterfly(typename Lanes<T, W>::V& a, typename Lanes<T, W>::V& b,
                      std::index_sequence<P...>) noexcept {
    const auto low = __builtin_shufflevector(a, b, butterfly_index(W, H, int(P), false)...);
    const auto high = __builtin_shufflevector(a, b, butterfly_index(W, H, int(P), true)...);
    a = low;
    b = high;
}

/// v[r][c] becomes v[c][r]: log2(W) stages of W shuffles. Always inlined:
/// out of line, its W vectors go through memory (GCC did so in float order
/// 4 and 5's range kernels once they also moved right-hand sides and
/// pivots by transposes).
template <typename T, int W, int H = 1>
TDLS_SIMD_FORCE_INLINE void transpose(typename Lanes<T, W>::V (&v)[W]) noexcept {
    if constexpr (H < W) {
        for (int i = 0; i < W; ++i)
            if ((i & H) == 0) butterfly<T, W, H>(v[i], v[i + H], std::make_index_sequence<W>{});
        transpose<T, W, 2 * H>(v);
    }
}

/// Where a tile keeps element e of a lane's run: at e (a column, or a packed
/// matrix in a tile whose columns are as tall as the order). The placements
/// unroll their loop so that every r indexing the transpose's vectors is a
/// constant (GCC unrolled it without the pragma too: the library was the
/// same; double 24's 0.97x was register pressure, see tile_io.hpp's
/// gather_padded).
struct Contiguous {
    template <int W, typename F>
    void each(int first, const F& f) const noexcept {
#pragma GCC unroll 16
        for (int r = 0; r < W; ++r) f(r, std::int64_t(first) + r);
    }
};

/// A packed matrix of `rows`-element columns in a tile whose columns are `ld`
/// rows apart (the static orders 9..15 and every dynamic one pad them):
/// element e at (e / rows) * ld + e % rows. One run moved this way takes
/// n*n/W transposes; column by column, ceil(n/W) per column (float orders
/// 9..15 have columns shorter than W and were gathered element by element).
struct PaddedColumns {
    int rows;
    int ld;
    template <int W, typename F>
    void each(int first, const F& f) const noexcept {
        int row = first % rows;
        std::int64_t at = std::int64_t(first / rows) * ld + row;
#pragma GCC unroll 16
        for (int r = 0; r < W; ++r) {
            f(r, at);
            const bool wraps = ++row == rows;
            row = wraps ? 0 : row;
            at += wraps ? ld - rows + 1 : 1;
        }
    }
};

/// Elements [0, elements) of each lane's contiguous run src[l] into tile
/// vectors tile[place(e)*W]; elements >= W. The last group overlaps the one
/// before it rather than read past a run's end. The moves of this file are
/// always inlined: with the short-run moves beside them GCC kept them out of
/// line in the static orders' range kernels, and double order 3 ran 0.77x.
template <typename T, int W, typename Place = Contiguous>
TDLS_SIMD_FORCE_INLINE void gather_runs(T* tile, const T* const (&src)[W], int elements, const Place& place = {}) noexcept {
    using L = Lanes<T, W>;
    for (int e = 0; e < elements; e += W) {
        const int first = std::min(e, elements - W);
        typename L::V v[W];
        for (int l = 0; l < W; ++l) v[l] = L::load(src[l] + first);
        transpose<T, W>(v);
        place.template each<W>(first, [&](int r, std::int64_t at) { L::store(tile + at * W, v[r]); });
    }
}

/// The inverse of gather_runs, into the lanes marked in `written` only.
template <typename T, int W, typename Place = Contiguous>
TDLS_SIMD_FORCE_INLINE void scatter_runs(const T* tile, T* const (&dst)[W], int elements, const bool (&written)[W],
                         const Place& place = {}) noexcept {
    using L = Lanes<T, W>;
    for (int e = 0; e < elements; e += W) {
        const int first = std::min(e, elements - W);
        typename L::V v[W];
        place.template each<W>(first, [&](int r, std::int64_t at) { v[r] = L::load(tile + at * W); });
        transpose<T, W>(v);
        for (int l = 0; l < W; ++l)
            if (written[l]) L::store(dst[l] + first, v[l]);
    }
}

#if defined(__AVX2__) && !defined(__AVX512F__)
/// AVX2's mask of masked moves: lanes below count all ones.
template <typename E, int W>
inline typename VectorOf<LaneIndex<E>, int(sizeof(E)) * W>::type first_lanes(int count) noexcept {
    typename VectorOf<LaneIndex<E>, int(sizeof(E)) * W>::type lane;
    for (int l = 0; l < W; ++l) lane[l] = l;
    return lane < LaneIndex<E>(count);
}
#endif

/// The first `count` elements at p (0 < count <= W) in a vector whose other
/// lanes are zero, or back to p: masked moves that touch no byte past the
/// count-th element (AVX-512 and AVX2 suppress faults in masked-off lanes),
/// for runs shorter than a vector that end where a buffer may end.
template <typename E, int W>
inline typename VectorOf<E, int(sizeof(E)) * W>::type load_first(const E* p, int count) noexcept {
    using V = typename VectorOf<E, int(sizeof(E)) * W>::type;
    [[maybe_unused]] constexpr int bytes = int(sizeof(E)) * W;
#if defined(__AVX512F__) && defined(__AVX512VL__)
    if constexpr (bytes == 64 || bytes == 32 || bytes == 16) {
        const unsigned k = (1u << count) - 1;
        if constexpr (bytes == 64 && sizeof(E) == 4) return (V)_mm512_maskz_loadu_epi32(__mmask16(k), p);
        if constexpr (bytes == 64 && sizeof(E) == 8) return (V)_mm512_maskz_loadu_epi64(__mmask8(k), p);
        if constexpr (bytes == 32 && sizeof(E) == 4) return (V)_mm256_maskz_loadu_epi32(__mmask8(k), p);
        if constexpr (bytes == 32 && sizeof(E) == 8) return (V)_mm256_maskz_loadu_epi64(__mmask8(k), p);
        if constexpr (bytes == 16 && sizeof(E) == 4) return (V)_mm_maskz_loadu_epi32(__mmask8(k), p);
        if constexpr (bytes == 16 && sizeof(E) == 8) return (V)_mm_maskz_loadu_epi64(__mmask8(k), p);
    }
#elif defined(__AVX2__)
    if constexpr (bytes == 32 || bytes == 16) {
        const auto on = first_lanes<E, W>(count);
        if constexpr (bytes == 32 && sizeof(E) == 4)
            return (V)_mm256_maskload_epi32(reinterpret_cast<const int*>(p), (__m256i)on);
        if constexpr (bytes == 32 && sizeof(E) == 8)
            return (V)_mm256_maskload_epi64(reinterpret_cast<const long long*>(p), (__m256i)on);
        if constexpr (bytes == 16 && sizeof(E) == 4)
            return (V)_mm_maskload_epi32(reinterpret_cast<const int*>(p), (__m128i)on);
        if constexpr (bytes == 16 && sizeof(E) == 8)
            return (V)_mm_maskload_epi64(reinterpret_cast<const long long*>(p), (__m128i)on);
    }
#endif
    V v{};
    for (int l = 0; l < count && l < W; ++l) std::memcpy(reinterpret_cast<char*>(&v) + l * sizeof(E), p + l, sizeof(E));
    return v;
}

template <typename E, int W>
inline void store_first(E* p, typename VectorOf<E, int(sizeof(E)) * W>::type v, int count) noexcept {
    [[maybe_unused]] constexpr int bytes = int(sizeof(E)) * W;
#if defined(__AVX512F__) && defined(__AVX512VL__)
    if constexpr (bytes == 64 || bytes == 32 || bytes == 16) {
        const unsigned k = (1u << count) - 1;
        if constexpr (bytes == 64 && sizeof(E) == 4) return _mm512_mask_storeu_epi32(p, __mmask16(k), (__m512i)v);
        if constexpr (bytes == 64 && sizeof(E) == 8) return _mm512_mask_storeu_epi64(p, __mmask8(k), (__m512i)v);
        if constexpr (bytes == 32 && sizeof(E) == 4) return _mm256_mask_storeu_epi32(p, __mmask8(k), (__m256i)v);
        if constexpr (bytes == 32 && sizeof(E) == 8) return _mm256_mask_storeu_epi64(p, __mmask8(k), (__m256i)v);
        if constexpr (bytes == 16 && sizeof(E) == 4) return _mm_mask_storeu_epi32(p, __mmask8(k), (__m128i)v);
        if constexpr (bytes == 16 && sizeof(E) == 8) return _mm_mask_storeu_epi64(p, __mmask8(k), (__m128i)v);
    }
#elif defined(__AVX2__)
    if constexpr (bytes == 32 || bytes == 16) {
        const auto on = first_lanes<E, W>(count);
        if constexpr (bytes == 32 && sizeof(E) == 4)
            return _mm256_maskstore_epi32(reinterpret_cast<int*>(p), (__m256i)on, (__m256i)v);
        if constexpr (bytes == 32 && sizeof(E) == 8)
            return _mm256_maskstore_epi64(reinterpret_cast<long long*>(p), (__m256i)on, (__m256i)v);
        if constexpr (bytes == 16 && sizeof(E) == 4)
            return _mm_maskstore_epi32(reinterpret_cast<int*>(p), (__m128i)on, (__m128i)v);
        if constexpr (bytes == 16 && sizeof(E) == 8)
            return _mm_maskstore_epi64(reinterpret_cast<long long*>(p), (__m128i)on, (__m128i)v);
    }
#endif
    for (int l = 0; l < count && l < W; ++l) std::memcpy(p + l, reinterpret_cast<const char*>(&v) + l * sizeof(E), sizeof(E));
}

/// Runs of 0 < elements < W: each lane's run src[l] by a masked load into a
/// vector, a W x W transpose and its first `elements` rows into the tile
/// (one gather per element took twice as long for float order 12's
/// right-hand side on the model-207 Xeon host).
template <typename T, int W>
TDLS_SIMD_FORCE_INLINE void gather_short_runs(T* tile, const T* const (&src)[W], int elements) noexcept {
    using L = Lanes<T, W>;
    typename L::V v[W];
    for (int l = 0; l < W; ++l) v[l] = load_first<T, W>(src[l], elements);
    transpose<T, W>(v);
    for (int r = 0; r < elements && r < W; ++r) L::store(tile + std::int64_t(r) * W, v[r]);
}

/// The inverse, into the lanes marked in `written` only, by masked stores
/// (element by element, the stores of float order 12's solution and pivots
/// held a sixth of the call).
template <typename T, int W>
TDLS_SIMD_FORCE_INLINE void scatter_short_runs(const T* tile, T* const (&dst)[W], int elements, const bool (&written)[W]) noexcept {
    using L = Lanes<T, W>;
    typename L::V v[W];
    for (int r = 0; r < W; ++r) v[r] = r < elements ? L::load(tile + std::int64_t(r) * W) : typename L::V{};
    transpose<T, W>(v);
    for (int l = 0; l < W; ++l)
        if (written[l]) store_first<T, W>(dst[l], v[l], elements);
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
