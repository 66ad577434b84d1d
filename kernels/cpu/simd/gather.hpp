// libtdls: one element of each of W systems into one vector, read straight
// from the caller's memory: the move for a full tile whose systems cannot be
// moved as runs of W elements (tile_io.hpp). Element by element, each lane
// of the tile was written by a scalar store and the tile's next vector load
// of that element waited for all W of them to leave the store buffer (a
// failed store forward): at n = 3 in double, the first exchange of B held a
// third of the range kernel's samples on the model-207 Xeon host. A gather
// writes the vector whole.
#pragma once

#include <cstdint>
#include <cstring>
#include <utility>

#if defined(__AVX2__)
#include <immintrin.h>
#endif

#include "lanes.hpp"

namespace tdls::kernels::cpu::simd::TDLS_SIMD_ISA {

/// The byte addresses of lane 0..W-1's operand: the gathers' indices, with
/// a base of zero, so that the lanes' operands need not share an allocation
/// or an alignment.
template <int W>
struct LaneAddresses {
    alignas(64) std::int64_t at[W];
};

/// Lane l: the T at address base.at[l] + offset (bytes).
template <typename T, int W>
inline typename Lanes<T, W>::V gather_lanes(const LaneAddresses<W>& base, std::int64_t offset) noexcept {
    using V = typename Lanes<T, W>::V;
    [[maybe_unused]] V v;
#if defined(__AVX512F__)
    if constexpr (W * sizeof(T) == 64) {
        const __m512i shift = _mm512_set1_epi64(offset);
        if constexpr (sizeof(T) == 8) {
            const __m512i a = _mm512_add_epi64(_mm512_load_si512(base.at), shift);
            v = (V)_mm512_mask_i64gather_pd(_mm512_setzero_pd(), 0xff, a, nullptr, 1);
        } else {
            const __m512i lo = _mm512_add_epi64(_mm512_load_si512(base.at), shift);
            const __m512i hi = _mm512_add_epi64(_mm512_load_si512(base.at + 8), shift);
            const __m256 zero = _mm256_setzero_ps();
            v = (V)_mm512_insertf32x8(_mm512_castps256_ps512(_mm512_mask_i64gather_ps(zero, 0xff, lo, nullptr, 1)),
                                      _mm512_mask_i64gather_ps(zero, 0xff, hi, nullptr, 1), 1);
        }
        return v;
    }
#endif
#if defined(__AVX2__)
    if constexpr (W * sizeof(T) == 32) {
        const __m256i shift = _mm256_set1_epi64x(offset);
        const auto* at = reinterpret_cast<const __m256i*>(base.at);
        if constexpr (sizeof(T) == 8) {
            v = (V)_mm256_i64gather_pd(nullptr, _mm256_add_epi64(_mm256_load_si256(at), shift), 1);
        } else {
            const __m128 lo = _mm256_i64gather_ps(nullptr, _mm256_add_epi64(_mm256_load_si256(at), shift), 1);
            const __m128 hi = _mm256_i64gather_ps(nullptr, _mm256_add_epi64(_mm256_load_si256(at + 1), shift), 1);
            v = (V)_mm256_set_m128(hi, lo);
        }
        return v;
    }
#endif
    // No gather (the generic family): the W scalars built into a vector in
    // registers.
    return [&]<std::size_t... l>(std::index_sequence<l...>) {
        const auto element = [&](std::size_t lane) {
            T x;
            std::memcpy(&x, reinterpret_cast<const char*>(base.at[lane] + offset), sizeof(T));
            return x;
        };
        return V{element(l)...};
    }(std::make_index_sequence<W>{});
}

} // namespace tdls::kernels::cpu::simd::TDLS_SIMD_ISA
