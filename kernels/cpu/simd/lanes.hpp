// libtdls: W systems side by side in one SIMD register, one system per lane,
// through GCC/Clang vector extensions. The width and instruction set come from
// the flags of the translation unit, so the same source serves every ISA; all
// code sits in a namespace named after that ISA (TDLS_SIMD_ISA), so that the
// copies compiled with different flags can never be merged by the linker.
#pragma once

#include <cstdint>
#include <type_traits>

#ifndef TDLS_SIMD_ISA
#error "TDLS_SIMD_ISA must name the instruction set of this translation unit"
#endif

namespace tdls::kernels::cpu::simd {

/// The vector type of Bytes / sizeof(E) elements of E. GCC ignores a
/// vector_size attribute on a dependent type, hence one specialization per
/// (element, width): types only, no code.
template <typename E, int Bytes>
struct VectorOf;

#define TDLS_SIMD_VECTOR_OF(E, BYTES)                                                                        \
    template <>                                                                                              \
    struct VectorOf<E, BYTES> {                                                                              \
        typedef E type __attribute__((vector_size(BYTES)));                                                  \
    };
#define TDLS_SIMD_VECTORS_OF(BYTES)                                                                          \
    TDLS_SIMD_VECTOR_OF(float, BYTES)                                                                        \
    TDLS_SIMD_VECTOR_OF(double, BYTES)                                                                       \
    TDLS_SIMD_VECTOR_OF(std::int32_t, BYTES)                                                                 \
    TDLS_SIMD_VECTOR_OF(std::int64_t, BYTES)
TDLS_SIMD_VECTORS_OF(16)
TDLS_SIMD_VECTORS_OF(32)
TDLS_SIMD_VECTORS_OF(64)
#undef TDLS_SIMD_VECTORS_OF
#undef TDLS_SIMD_VECTOR_OF

/// The lane index type of T: as wide as T, so that masks and indices of the
/// same lane share its bits.
template <typename T>
using LaneIndex = std::conditional_t<sizeof(T) == 8, std::int64_t, std::int32_t>;

} // namespace tdls::kernels::cpu::simd

namespace tdls::kernels::cpu::simd::TDLS_SIMD_ISA {

/// W lanes of T (a value vector V) and of its index type (an index or mask
/// vector M, lanes all ones or all zeros after a comparison).
template <typename T, int W>
struct Lanes {
    using Index = LaneIndex<T>;
    using V = typename VectorOf<T, int(sizeof(T)) * W>::type;
    using M = typename VectorOf<Index, int(sizeof(T)) * W>::type;
    static constexpr int width = W;

    // memcpy: unaligned, and free of any aliasing question between a tile's
    // scalar elements and its vectors; each compiles to one vector move.
    static V load(const T* p) noexcept {
        V v;
        __builtin_memcpy(&v, p, sizeof v);
        return v;
    }
    static void store(T* p, V v) noexcept { __builtin_memcpy(p, &v, sizeof v); }
    static M load(const Index* p) noexcept {
        M m;
        __builtin_memcpy(&m, p, sizeof m);
        return m;
    }
    static void store(Index* p, M m) noexcept { __builtin_memcpy(p, &m, sizeof m); }

    static V splat(T x) noexcept { return V{} + x; }
    /// *x in every lane by one broadcast from memory, for inner loops
    /// (blocked_lu.hpp, packed_product.hpp): splat's V{} + x compiles to an
    /// addition of 0 before the broadcast (0 + -0 is +0), and a lane-by-lane
    /// fill let GCC 12 load a kernel's 8 broadcast values as one vector and
    /// spread each with a permute.
    static V broadcast(const T* x) noexcept {
        V v;
#if defined(__AVX__)
        if constexpr (sizeof(T) == 8)
            asm("vbroadcastsd %1, %0" : "=v"(v) : "m"(*x));
        else
            asm("vbroadcastss %1, %0" : "=v"(v) : "m"(*x));
#else
        for (int l = 0; l < W; ++l) v[l] = *x;
#endif
        return v;
    }
    static M splat_index(Index x) noexcept { return M{} + x; }

    /// |v| bit for bit as fabs: the sign bit cleared, NaNs kept.
    static V magnitude(V v) noexcept {
        constexpr Index all_but_sign = ~(Index(1) << (8 * sizeof(T) - 1));
        return (V)((M)v & all_but_sign);
    }
};

} // namespace tdls::kernels::cpu::simd::TDLS_SIMD_ISA
