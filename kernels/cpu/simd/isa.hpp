// libtdls: what the SIMD CPU kernels of every instruction set share: their
// largest order and the declarations of their range kernels. Each ISA's
// instances live in a namespace of its own (simd/lanes.hpp says why); the
// ISAs, their flags and vector widths are listed once, in
// kernels/instances.cmake (the widths reach C++ through the generated
// <tdls/generated/instances.hpp>). Plain host code.
#pragma once

#include <cstdint>

#include "../../common/batch_call.hpp"

namespace tdls::kernels::cpu::simd {

/// The largest order the SIMD tiles serve. Up to here, W systems side by
/// side beat one system per thread by the blocked kernel on whole batches:
/// on Zen 4, 1.3-2.3x in double and 1.6-3.3x in float at n = 65-256, 1.1x
/// and 1.3x at 320 (docs/cpu_simd.md), though a tile of 256 x 256 vectors
/// (4.1 MiB with AVX-512) is far past L2. Past it each ISA's blocked kernel
/// takes one system per thread (blocked_lu.hpp).
inline constexpr int max_order = 256;

} // namespace tdls::kernels::cpu::simd

#define TDLS_SIMD_DECLARE_RANGE_KERNEL(ISA)                                                                  \
    namespace tdls::kernels::cpu::simd::ISA {                                                                \
    template <typename T, int StaticN, bool RowMajor>                                                        \
    void solve_range(const BatchCall& call, std::int64_t begin, std::int64_t end);                           \
    template <typename T, bool RowMajor>                                                                     \
    void blocked_range(const BatchCall& call, std::int64_t begin, std::int64_t end);                         \
    }
TDLS_SIMD_DECLARE_RANGE_KERNEL(generic)
TDLS_SIMD_DECLARE_RANGE_KERNEL(avx2)
TDLS_SIMD_DECLARE_RANGE_KERNEL(avx512)
#undef TDLS_SIMD_DECLARE_RANGE_KERNEL
