// libtdls: what one GPU launch passes to every thread, by value, as the
// kernel's only argument. Plain data, host-device: the plugin fills it on the
// host; the same structure drives the kernels on the device and their
// emulation on CPU threads in the tests.
#pragma once

#include <cstdint>

#include "../common/batch_call.hpp"
#include "../common/pivots.hpp"
#include "common/plan.hpp"

/// Loops over a compile-time range that the GPU compilers must unroll, so that
/// register rows are indexed by constants; the host compiler decides itself.
#if defined(TDLS_COMPILER_GPU)
#define TDLS_GPU_UNROLL _Pragma("unroll")
#else
#define TDLS_GPU_UNROLL
#endif

namespace tdls::kernels::gpu {

struct GpuLaunch {
    BatchCall call;                ///< device operands, operation, pivot threshold
    runtime::Plan plan;            ///< register kernels: groups, warps, workspaces
    runtime::BlockPlan block_plan; ///< block kernels: one system per block
    runtime::WarpPlan warp_plan;   ///< warp kernels: groups in warps, matrices in shared memory
    std::int64_t first_system;     ///< first system of this launch
};

/// Whether system s needs no work beyond reporting: a NULL entry of a device
/// pointer array (the host cannot read device arrays to refuse the call, so
/// the kernel leaves that system untouched and reports info = -1, LAPACK's
/// "illegal argument").
template <typename T>
TDLS_HOST_DEVICE constexpr bool missing_operand(const BatchCall& call, const SystemView<T>& v) noexcept {
    if (call.operands.form != BatchForm::Pointers) return false;
    const bool needs_b = call.operation != Operation::Getrf && call.operands.nrhs > 0;
    const bool needs_ipiv = call.operation == Operation::Getrs || call.operands.ipiv_array != nullptr;
    return v.A == nullptr || (needs_b && v.B == nullptr) || (needs_ipiv && v.ipiv == nullptr);
}

/// getrs's pivots, read on the device by one thread of the group: the order
/// they build into order[0..n), and order[n] = 1 when they all lie in 1..n
/// (0 otherwise, order then meaningless: the host cannot refuse the call, so
/// the drivers leave such a system untouched). Each entry is read once and
/// checked as it is used: pivots overlapping another system's B (a contract
/// violation) may change between two reads.
TDLS_HOST_DEVICE inline void getrs_order(const std::int32_t* ipiv, std::int64_t step, int n, int* order) noexcept {
    order[n] = order_from_checked_swap_sequence(ipiv, step, n, order) ? 1 : 0;
}

} // namespace tdls::kernels::gpu
