// libtdls: the instruction sets the SIMD CPU kernels are compiled for, and
// the declarations of their range kernels. Each ISA's instances live in a
// namespace of its own (simd/lanes.hpp says why); this header is plain host
// code, included where kernels are picked, never compiled with ISA flags.
#pragma once

#include <cstdint>

#include "../../common/batch_call.hpp"

namespace tdls::kernels::cpu::simd {

/// Ordered from the narrowest: a machine that runs one runs those before it.
enum class Isa { Generic, Avx2, Avx512 };

/// Bytes of one vector: SSE2 / NEON, AVX2 + FMA, AVX-512 (F, DQ, VL, BW).
constexpr int vector_bytes(Isa isa) noexcept {
    return isa == Isa::Avx512 ? 64 : isa == Isa::Avx2 ? 32 : 16;
}

constexpr const char* name(Isa isa) noexcept {
    return isa == Isa::Avx512 ? "avx512" : isa == Isa::Avx2 ? "avx2" : "generic";
}

/// The largest order the SIMD kernels serve: a tile of 64 x 64 vectors is
/// 256 KiB, at home in L2; past it the per-system solver takes over.
inline constexpr int max_order = 64;

} // namespace tdls::kernels::cpu::simd

#define TDLS_SIMD_DECLARE_RANGE_KERNEL(ISA)                                                                  \
    namespace tdls::kernels::cpu::simd::ISA {                                                                \
    template <typename T, int StaticN, bool RowMajor>                                                        \
    void solve_range(const BatchCall& call, std::int64_t begin, std::int64_t end);                           \
    }
TDLS_SIMD_DECLARE_RANGE_KERNEL(generic)
TDLS_SIMD_DECLARE_RANGE_KERNEL(avx2)
TDLS_SIMD_DECLARE_RANGE_KERNEL(avx512)
#undef TDLS_SIMD_DECLARE_RANGE_KERNEL
