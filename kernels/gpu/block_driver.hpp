// libtdls: the GPU batch driver of the block kernels, for the orders neither
// the register kernels nor the warp kernels serve (past two rows per lane,
// or a region larger than a block's shared memory): one system per block, the whole block its group (R rows per
// thread, R = 1 but for complex double past 512, runtime::BlockPlan), the dynamic solver working on a packed copy of
// the matrix in shared memory, or in place in device memory when the copy does
// not fit and the caller's matrix is packed (never for a solve, whose A is
// read-only). Same results and conventions as the register driver.
//
// Host-device, with the block barrier as an argument: BlockGroupBarrier
// (pivot_search.hpp) over __syncthreads and warp shuffles on the device, over
// a std::barrier of CPU threads and shuffles emulated in memory in the tests.
//
// Its body after the staging is warp_driver.hpp's but for the barrier and the
// in-place case. Kept apart on purpose: one shared function, inlined or not,
// made ptxas spill 16 bytes in this kernel (complex double, row-major, sm_90,
// under the 64 registers its former 1024-thread bound left), where the two
// copies spilled nothing.
#pragma once

#include <cstdint>

#include <tdls/solvers/cooperative_lupp/config.hpp>
#include <tdls/solvers/cooperative_lupp/detail/driver.hpp>

#include "../common/pivots.hpp"
#include "launch.hpp"
#include "packed_copy.hpp"

namespace tdls::kernels::gpu {

template <typename T, int R, bool RowMajor>
struct BlockDriver {
    static_assert(R >= 1 && R <= runtime::max_block_rows_per_thread);
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

    /// One thread of a block; every thread of the block calls it, and calls
    /// block_barrier the same number of times.
    template <typename BlockBarrier>
    TDLS_HOST_DEVICE static void run(const GpuLaunch& launch, std::int64_t block, int thread,
                                     unsigned char* shared, BlockBarrier& block_barrier) {
        const BatchCall& call = launch.call;
        const BatchOperands& ops = call.operands;
        const runtime::BlockPlan& plan = launch.block_plan;
        const std::int64_t s = runtime::block_system(block, launch.first_system, ops.batch);
        if (s < 0 || thread >= plan.threads) return; // whole blocks only
        const int n = int(ops.n);
        T* work = reinterpret_cast<T*>(shared);
        int* order = reinterpret_cast<int*>(shared + plan.order_offset_bytes); // n entries, then a flag
        const SystemView<T> v = view_of<T>(ops, s);
        if (missing_operand(call, v) || plan.rows_per_thread != R) { // launch_block picks R from the plan
            if (thread == 0 && ops.info != nullptr) ops.info[s] = -1;
            return;
        }
        const bool staged = plan.matrix == runtime::MatrixPlace::Shared;
        if (!staged && call.operation == Operation::Solve) {
            // A solve would factor the caller's read-only A: the plugin never
            // plans one in place (make_block_plan with matrix_packed false).
            if (thread == 0) ops.info[s] = -1;
            return;
        }
        T* matrix = staged ? reinterpret_cast<T*>(shared + plan.matrix_offset_bytes) : v.A;
        const std::int64_t step = staged ? 1 : v.a_row; // packed: column c starts at c * n * step

        if (call.operation == Operation::Getrs) {
            if (thread == 0) getrs_order(v.ipiv, v.ipiv_step, n, order);
            if (staged) copy_packed(v, n, thread, plan.threads, matrix, true);
            block_barrier();
            if (order[n] == 0) return; // pivots outside 1..n: the system is left untouched
            for (std::int64_t k = 0; k < ops.nrhs; ++k) {
                T* column = v.B + k * v.b_col;
                Driver::template substitute<false, false, false, any, any, any>(
                    n, thread, matrix, step, order, 1, column, column, v.b_row, work, block_barrier);
            }
            return;
        }

        if (staged) {
            copy_packed(v, n, thread, plan.threads, matrix, true);
            block_barrier();
        }
        const real_type_t<T> tau = static_cast<real_type_t<T>>(call.pivot_threshold);
        const std::int64_t nrhs = call.operation == Operation::Getrf ? 0 : ops.nrhs;
        int info;
        if (nrhs == 1) {
            info = Driver::template solve<false, false, false, any, any, any>(
                       n, thread, matrix, step, order, 1, v.B, v.B, v.b_row, work, block_barrier, tau)
                       .info;
        } else {
            info = Driver::template factorize<false, false, any, any>(n, thread, matrix, step, order, 1, work,
                                                                      block_barrier, tau)
                       .info;
            if (info == 0) {
                for (std::int64_t k = 0; k < nrhs; ++k) {
                    T* column = v.B + k * v.b_col;
                    Driver::template substitute<false, false, false, any, any, any>(
                        n, thread, matrix, step, order, 1, column, column, v.b_row, work, block_barrier);
                }
            }
        }
        // Every entry point ends with a barrier: the factors and the order are complete.
        // A solve (which the plugin runs staged only) drops them.
        const bool store_factors = writes_factors(call.operation);
        if (staged && store_factors) copy_packed(v, n, thread, plan.threads, matrix, false);
        if (thread != 0) return;
        ops.info[s] = info;
        if (store_factors && v.ipiv != nullptr) {
            // From the order in shared memory: each pivot written once, none read back.
            int* position_of = reinterpret_cast<int*>(work + barrier_workspace_elements);
            swap_sequence_from_order(order, n, v.ipiv, v.ipiv_step, position_of, position_of + n);
        }
    }
};

} // namespace tdls::kernels::gpu
