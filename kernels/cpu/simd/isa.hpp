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

/// The order from which real systems of `real_bytes` per element go to the
/// blocked kernel, below max_order, where the runtime says so
/// (tdls::runtime::blocked_from_order: not on AMD family 19h, where the
/// tiles were measured against the older one-level blocked kernel only).
/// With packed products (2026-12-05) and side-by-side groups (2026-12-06)
/// the blocked kernel overtook the tiles on the AVX-512 Xeon host in every
/// form from 192 in double and 224 in float; with float's panels of U moved
/// through register transposes (2026-12-06, model-207 Xeon), from 160 in
/// double (strided 1.10-1.15x, interleaved 1.00-1.08x; 1.53x / 1.04-1.06x
/// at 176; at 128-144 the tiles stay ahead) and 192 in float (strided
/// 1.08-1.22x, interleaved 0.99-1.03x at 192, 1.00x at 208; at 160-176 the
/// interleaved form lost 8-13%) (docs/cpu_blocked.md, "From n = 192").
/// With the tiles' deferred exchanges (tile_lu.hpp, 2026-12-06) float's
/// tiles took 192 and 208 back (strided 1.17x, interleaved 1.19-1.39x in
/// blocks of 16 and 64); at 224 the blocked kernel stays ahead in the
/// interleaved form (the tiles 0.75-0.93x; strided 1.03x), and in double
/// it stays ahead at 160-208 (the tiles 0.80-0.93x strided).
constexpr int blocked_from(int real_bytes) noexcept {
    return real_bytes == 8 ? 160 : 224;
}

/// The bytes of a cache line: the systems of an interleaved block whose
/// elements share one are loaded and stored together by the blocked kernel
/// (blocked_lu.hpp; the registry's CpuKernel::side_by_side).
inline constexpr int line_bytes = 64;

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
