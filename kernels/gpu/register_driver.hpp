// libtdls: the GPU batch driver of the register kernels. Several groups per
// warp (runtime::map_lane), one system per group, each thread holding
// rows_per_thread rows of its system in registers; the workspace of each group
// carved from the block's shared memory (runtime::workspace_offset); rows,
// right-hand sides and pivots read and written through the batch accessor, so
// that one kernel serves the strided, pointer-array and interleaved forms.
// Results in LAPACK's format: factors in pivoted row order, 1-based swap
// sequence pivots, B written only for a nonsingular system.
//
// Host-device: the plugin's kernels call run() once per thread; the tests call
// it from CPU threads, one per lane of a block, with the barrier the solver
// deduces there, to check everything but the launch itself.
#pragma once

#include <cstdint>

#include <tdls/core/group.hpp>
#include <tdls/solvers/cooperative_lupp/config.hpp>
#include <tdls/solvers/cooperative_lupp/detail/driver.hpp>

#include "../common/pivots.hpp"
#include "launch.hpp"

namespace tdls::kernels::gpu {

template <typename T, int N, int R, bool RowMajor>
struct RegisterDriver {
    static_assert(N >= 1 && R >= 1 && R <= N, "an order and a number of rows per thread");
    /// Physical interchanges: the rows end in LAPACK's order.
    static constexpr CooperativeLUppConfig<T> config{
        .rows_per_thread = R,
        .row_interchange = RowInterchange::Physical,
        .unroll_loops = true,
        .layout = RowMajor ? MatrixLayout::RowMajor : MatrixLayout::ColMajor,
        .runtime_pivot_threshold = true,
        .fused_multiply_add = true, // the GPUs' native operation; reproduced by TDLS_CPU_KERNEL=gpu_reference
    };
    using Driver = detail::coop::Driver<T, config, N>;
    static constexpr int threads = (N + R - 1) / R;
    static constexpr std::int64_t any = dynamic_stride; // internal operands ignore strides

    /// One thread of a block: thread `thread` of block `block` (linear in the
    /// launch), shared the block's dynamic shared memory.
    TDLS_HOST_DEVICE static void run(const GpuLaunch& launch, std::int64_t block, int thread,
                                     unsigned char* shared) {
        const BatchCall& call = launch.call;
        const BatchOperands& ops = call.operands;
        const runtime::LaneMapping lane =
            runtime::map_lane(launch.plan, block, thread, launch.first_system, ops.batch);
        if (!lane.active) return; // whole groups only: no barrier misses a lane
        const std::int64_t s = lane.system;
        T* work = reinterpret_cast<T*>(shared) + runtime::workspace_offset(launch.plan, lane.group_in_block);
        const SystemView<T> v = view_of<T>(ops, s);
        if (missing_operand(call, v)) {
            if (lane.tx == 0 && ops.info != nullptr) ops.info[s] = -1;
            return;
        }
        if (call.operation == Operation::Getrs) {
            getrs(v, ops.nrhs, lane.tx, work);
            return;
        }
        const std::int64_t nrhs = call.operation == Operation::Getrf ? 0 : ops.nrhs;
        const int info =
            factor_and_solve(v, nrhs, writes_factors(call.operation),
                             static_cast<real_type_t<T>>(call.pivot_threshold), lane.tx, work);
        if (lane.tx == 0) ops.info[s] = info;
    }

  private:
    /// Row of the system held in slot K of thread tx (>= N: a phantom slot).
    TDLS_HOST_DEVICE static constexpr int row_of(int tx, int K) noexcept { return tx + K * threads; }

    /// Consecutive threads read consecutive rows of a column: coalesced for
    /// column-major and interleaved storage.
    TDLS_HOST_DEVICE static void load_rows(const SystemView<T>& v, int tx, T* rows) {
        TDLS_GPU_UNROLL
        for (int c = 0; c < N; ++c) {
            TDLS_GPU_UNROLL
            for (int K = 0; K < R; ++K) {
                const int row = row_of(tx, K);
                rows[c * R + K] = row < N ? v.A[row * v.a_row + c * v.a_col] : T(0);
            }
        }
    }

    TDLS_HOST_DEVICE static void store_rows(const SystemView<T>& v, int tx, const T* rows) {
        TDLS_GPU_UNROLL
        for (int c = 0; c < N; ++c) {
            TDLS_GPU_UNROLL
            for (int K = 0; K < R; ++K) {
                const int row = row_of(tx, K);
                if (row < N) v.A[row * v.a_row + c * v.a_col] = rows[c * R + K];
            }
        }
    }

    /// Entry i of a right-hand side column at column[i * step].
    TDLS_HOST_DEVICE static void load_rhs(const T* column, std::int64_t step, int tx, T* rhs) {
        TDLS_GPU_UNROLL
        for (int K = 0; K < R; ++K) {
            const int row = row_of(tx, K);
            rhs[K] = row < N ? column[row * step] : T(0);
        }
    }

    TDLS_HOST_DEVICE static void store_rhs(T* column, std::int64_t step, int tx, const T* rhs) {
        TDLS_GPU_UNROLL
        for (int K = 0; K < R; ++K) {
            const int row = row_of(tx, K);
            if (row < N) column[row * step] = rhs[K];
        }
    }

    /// Factors the system and solves its nrhs right-hand sides (none: factor
    /// only); returns LAPACK's info, the same in every thread of the group.
    /// store_factors false (tdls_batched_solve): the factors die in the
    /// registers, A and the pivots are only read.
    TDLS_HOST_DEVICE static int factor_and_solve(SystemView<T> v, std::int64_t nrhs, bool store_factors,
                                                 real_type_t<T> tau, int tx, T* work) {
        T rows[N * R];
        T rhs[R];
        int order[R]; // original index of the row at each of this thread's positions
        AutoSync sync;
        load_rows(v, tx, rows);
        int info;
        if (nrhs == 1) {
            // The first triangular solve rides along with the factorization.
            load_rhs(v.B, v.b_row, tx, rhs);
            info = Driver::template solve<true, true, true, any, any, any>(N, tx, rows, 0, order, 0, rhs, rhs,
                                                                           0, work, sync, tau)
                       .info;
            if (info == 0) store_rhs(v.B, v.b_row, tx, rhs);
        } else {
            info = Driver::template factorize<true, true, any, any>(N, tx, rows, 0, order, 0, work, sync, tau)
                       .info;
            if (info == 0) {
                for (std::int64_t k = 0; k < nrhs; ++k) {
                    T* column = v.B + k * v.b_col;
                    load_rhs(column, v.b_row, tx, rhs);
                    Driver::template substitute<true, true, true, any, any, any>(N, tx, rows, 0, order, 0,
                                                                                 rhs, rhs, 0, work, sync);
                    store_rhs(column, v.b_row, tx, rhs);
                }
            }
        }
        if (!store_factors) return info;
        store_rows(v, tx, rows);
        if (v.ipiv != nullptr) write_pivots(v, tx, order, work);
        return info;
    }

    /// The group writes the order of its rows into the caller's pivots, then
    /// its first thread turns it into LAPACK's swap sequence in place, with
    /// the (now free) workspace as scratch. What it reads back is caller
    /// memory: swap_sequence_in_place never uses an entry outside 0..N-1 as
    /// an index (pivots overlapping another system's B could have changed).
    TDLS_HOST_DEVICE static void write_pivots(const SystemView<T>& v, int tx, const int* order, T* work) {
        TDLS_GPU_UNROLL
        for (int K = 0; K < R; ++K) {
            const int row = row_of(tx, K);
            if (row < N) v.ipiv[row * v.ipiv_step] = order[K];
        }
        auto barrier = tdls::detail::deduced_sync<threads>(tdls::detail::GroupJoin::ByRank, tx, work);
        barrier();
        if (tx != 0) return;
        int* position_of = reinterpret_cast<int*>(work + barrier_workspace_elements);
        swap_sequence_in_place(v.ipiv, v.ipiv_step, N, position_of, position_of + N);
    }

    /// Solves from LAPACK-format factors and pivots. The host cannot read
    /// device pivots to refuse a call, so a system whose pivots leave 1..N is
    /// left untouched here instead.
    TDLS_HOST_DEVICE static void getrs(SystemView<T> v, std::int64_t nrhs, int tx, T* work) {
        auto barrier = tdls::detail::deduced_sync<threads>(tdls::detail::GroupJoin::ByRank, tx, work);
        int* scratch = reinterpret_cast<int*>(work + barrier_workspace_elements); // order[N], then validity
        if (tx == 0) getrs_order(v.ipiv, v.ipiv_step, N, scratch);
        barrier();
        const bool valid = scratch[N] != 0;
        int order[R];
        TDLS_GPU_UNROLL
        for (int K = 0; K < R; ++K) {
            const int row = row_of(tx, K);
            order[K] = valid && row < N ? scratch[row] : row;
        }
        barrier(); // the substitution reuses the workspace
        if (!valid) return;
        T rows[N * R];
        T rhs[R];
        AutoSync sync;
        load_rows(v, tx, rows);
        for (std::int64_t k = 0; k < nrhs; ++k) {
            T* column = v.B + k * v.b_col;
            load_rhs(column, v.b_row, tx, rhs);
            Driver::template substitute<true, true, true, any, any, any>(N, tx, rows, 0, order, 0, rhs, rhs,
                                                                         0, work, sync);
            store_rhs(column, v.b_row, tx, rhs);
        }
    }
};

} // namespace tdls::kernels::gpu
