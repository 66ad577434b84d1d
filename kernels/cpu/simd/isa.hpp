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

/// The largest order the SIMD tiles serve: a tile of 64 x 64 vectors is
/// 256 KiB, at home in L2; past it each ISA's blocked kernel takes one
/// system per thread (blocked_lu.hpp).
inline constexpr int max_order = 64;

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
