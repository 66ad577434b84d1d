// libtdls: the CPU driver's entry point, one per precompiled instance: solves
// systems [begin, end) of a call on the calling thread. The CPU backend hands
// ranges of systems to oneTBB workers; the dispatch table holds one of these
// per (order, type, layout), generated from kernels/instances.cmake.
#pragma once

#include <cstdint>

#include "../common/batch_call.hpp"

namespace tdls::kernels::cpu {

using RangeKernel = void (*)(const BatchCall& call, std::int64_t begin, std::int64_t end);

/// A range kernel and the systems it solves together (its SIMD lanes; 1 for
/// the one-system-per-thread solver): ranges start at multiples of it, so
/// that only the last range of a call has a partial tile. `side_by_side`:
/// the systems of an interleaved call a range should hold together where
/// that is more than `lanes` (the blocked kernel loads and stores the
/// systems sharing a cache line in one pass).
struct CpuKernel {
    RangeKernel run = nullptr;
    int lanes = 1;
    int side_by_side = 1;
};

/// StaticN > 0: the static solver of that order; 0: the dynamic solver, any
/// order up to TDLS_MAX_ORDER. Fused: the updates as fused multiply-adds, the
/// GPU kernels' arithmetic (the gpu_reference family, gpu_reference.cpp).
/// Instantiated only by the generated sources and gpu_reference.cpp.
template <typename T, int StaticN, bool RowMajor, bool Fused = false>
void solve_range(const BatchCall& call, std::int64_t begin, std::int64_t end);

} // namespace tdls::kernels::cpu
