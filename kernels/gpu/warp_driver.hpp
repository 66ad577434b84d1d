// libtdls: the GPU batch driver of the warp kernels (runtime::WarpPlan), for
// the orders of up to two rows per lane that no register kernel serves: one
// system per group of ceil(n / R) lanes of one warp, several groups per warp
// and per block, each group's matrix packed in its own region of shared
// memory, the dynamic solver with R rows per thread working on it, the
// deduced warp barrier between the group's lanes. Where the block kernel gave
// a system of 33 rows two warps (one lane in the second) and a block to
// itself, this one gives it 17 lanes of one warp and a block of several. Same
// results and conventions as the register and block drivers.
//
// Its body after the staging is block_driver.hpp's (see there why it is not
// shared). Host-device: the plugin's kernels call run() once per thread; the tests call
// it from CPU threads, one per lane of a block, with the barrier the solver
// deduces there.
#pragma once

#include <cstdint>

#include <tdls/core/group.hpp>
#include <tdls/solvers/cooperative_lupp/config.hpp>
#include <tdls/solvers/cooperative_lupp/detail/driver.hpp>

#include "../common/pivots.hpp"
#include "launch.hpp"
#include "packed_copy.hpp"

namespace tdls::kernels::gpu {

template <typename T, int R, bool RowMajor>
struct WarpDriver {
    static_assert(R >= 1 && R <= runtime::max_warp_rows_per_thread, "one or two rows per lane");
    static constexpr CooperativeLUppConfig<T> config{
        .rows_per_thread = R,
        .row_interchange = RowInterchange::Physical,
        .unroll_loops = false,
        .layout = RowMajor ? MatrixLayout::RowMajor : MatrixLayout::ColMajor,
        .runtime_pivot_threshold = true,
        .fused_multiply_add = true, // the GPUs' native operation; reproduced by TDLS_CPU_KERNEL=gpu_reference
    };
    using Driver = detail::coop::Driver<T, config, 0>;
    static constexpr std::int64_t any = dynamic_stride;

    /// One thread of a block: thread `thread` of block `block` (linear in the
    /// launch), `shared` the block's dynamic shared memory.
    TDLS_HOST_DEVICE static void run(const GpuLaunch& launch, std::int64_t block, int thread,
                                     unsigned char* shared) {
        const BatchCall& call = launch.call;
        const BatchOperands& ops = call.operands;
        const runtime::WarpPlan& plan = launch.warp_plan;
        const runtime::LaneMapping lane =
            runtime::map_lane(plan.groups, block, thread, launch.first_system, ops.batch);
        if (!lane.active) return; // whole groups only: no barrier misses a lane
        const std::int64_t s = lane.system;
        const int n = int(ops.n);
        const int tx = lane.tx;
        const int threads = plan.groups.threads_per_system;
        unsigned char* region = shared + std::int64_t(lane.group_in_block) * plan.group_bytes;
        T* work = reinterpret_cast<T*>(region);
        int* order = reinterpret_cast<int*>(region + plan.order_offset_bytes); // n entries, then a flag
        T* matrix = reinterpret_cast<T*>(region + plan.matrix_offset_bytes);
        const SystemView<T> v = view_of<T>(ops, s);
        if (missing_operand(call, v)) {
            if (tx == 0 && ops.info != nullptr) ops.info[s] = -1;
            return;
        }
        // The group's own barriers in this driver; the solver deduces the same one (AutoSync).
        detail::DeducedBarrier<T> barrier(detail::GroupJoin::ByRank, tx, threads, work);
        AutoSync sync;

        if (call.operation == Operation::Getrs) {
            if (tx == 0) getrs_order(v.ipiv, v.ipiv_step, n, order);
            copy_packed(v, n, tx, threads, matrix, true);
            barrier();
            if (order[n] == 0) return; // pivots outside 1..n: the system is left untouched
            for (std::int64_t k = 0; k < ops.nrhs; ++k) {
                T* column = v.B + k * v.b_col;
                Driver::template substitute<false, false, false, any, any, any>(n, tx, matrix, 1, order, 1, column,
                                                                                column, v.b_row, work, sync);
            }
            return;
        }

        copy_packed(v, n, tx, threads, matrix, true);
        barrier();
        const real_type_t<T> tau = static_cast<real_type_t<T>>(call.pivot_threshold);
        const std::int64_t nrhs = call.operation == Operation::Getrf ? 0 : ops.nrhs;
        int info;
        if (nrhs == 1) {
            info = Driver::template solve<false, false, false, any, any, any>(n, tx, matrix, 1, order, 1, v.B, v.B,
                                                                              v.b_row, work, sync, tau)
                       .info;
        } else {
            info = Driver::template factorize<false, false, any, any>(n, tx, matrix, 1, order, 1, work, sync, tau)
                       .info;
            if (info == 0) {
                for (std::int64_t k = 0; k < nrhs; ++k) {
                    T* column = v.B + k * v.b_col;
                    Driver::template substitute<false, false, false, any, any, any>(
                        n, tx, matrix, 1, order, 1, column, column, v.b_row, work, sync);
                }
            }
        }
        // Every entry point ends with a barrier: the factors and the order are complete.
        // A solve (tdls_batched_solve) drops them: A and the pivots are only read.
        const bool store_factors = writes_factors(call.operation);
        if (store_factors) copy_packed(v, n, tx, threads, matrix, false);
        if (tx != 0) return;
        ops.info[s] = info;
        if (store_factors && v.ipiv != nullptr) {
            // From the order in shared memory: each pivot written once, none read back.
            int* position_of = reinterpret_cast<int*>(work + barrier_workspace_elements);
            swap_sequence_from_order(order, n, v.ipiv, v.ipiv_step, position_of, position_of + n);
        }
    }
};

} // namespace tdls::kernels::gpu
