// libtdls runtime: the launch plan, a pure function of (n, dtype, layout,
// device properties) that sizes the group of threads of one system, the block,
// the workspace and the grid, and the lane-to-system mapping of the GPU driver.
//
// Copyright (c) 2026, the libtdls developers. BSD 3-Clause License (LICENSE).
//
// Nothing here queries a device: the backends fill DeviceProperties from their
// runtime (or cpu_properties), so that every rule can be unit-tested on the CPU
// against the published properties of real GPUs. The mapping functions are
// constexpr and host-device, so that the GPU driver calls the very code the
// tests enumerate.
#pragma once

#include <cstdint>

#include <tdls/core/macros.hpp>
#include <tdls/tdls.h>

namespace tdls::runtime {

/// Who made the device; decides between the CPU plan and the GPU plan.
enum class Vendor { Cpu, Nvidia, Amd };

/// What the plan needs to know of a device. A field that does not apply to the
/// device (anything but cpu_threads and max_grid_x on the CPU) is 0.
struct DeviceProperties {
    Vendor vendor;                                 ///< Cpu, Nvidia or Amd
    const char* name;                              ///< marketing name, for messages only
    int warp_size;                                 ///< lanes of a warp or wavefront; 1 on the CPU
    int max_threads_per_block;                     ///< largest block (work-group) in threads
    std::int64_t shared_memory_per_block;          ///< shared memory (LDS) one block may use, opt-in included
    std::int64_t shared_memory_per_multiprocessor; ///< shared memory of one SM or CU
    int registers_per_multiprocessor;              ///< 32-bit registers of one SM or CU
    int max_registers_per_thread;                  ///< 32-bit registers one thread may address
    int multiprocessors;                           ///< SMs or CUs
    std::int64_t max_grid_x;                       ///< most blocks along x in one launch
    std::int64_t max_grid_y;                       ///< most blocks along y in one launch
    int cpu_threads;                               ///< worker threads of the CPU backend
};

/// The CPU as a device: one thread is one "warp", and a launch has no limit.
DeviceProperties cpu_properties(int threads);

/// How one call is laid out on a device. Unsupported plans have every other
/// field zero.
struct Plan {
    bool supported;                   ///< false: no instance of this shape can run on the device
    int rows_per_thread;              ///< rows of the system each thread holds
    int threads_per_system;           ///< threads of a group: ceil(n / rows_per_thread)
    int groups_per_warp;              ///< groups packed in one warp: warp_size / threads_per_system
    int systems_per_block;            ///< groups (systems) of one block
    int block_size;                   ///< threads of one block, a multiple of warp_size
    int workspace_elements;           ///< workspace of one system, in elements (physical interchanges)
    std::int64_t shared_memory_bytes; ///< shared memory of one block; 0 on the CPU
    int element_bytes;                ///< bytes of one scalar (kernels::element_bytes: 4, 8 or 16)
    int warp_size;                    ///< lanes of a warp of the device; 1 on the CPU

    friend constexpr bool operator==(const Plan&, const Plan&) = default;
};

/// Alignment of each system's workspace in shared memory, so that every
/// workspace starts on a boundary that vector loads and any scalar accept.
inline constexpr int workspace_alignment_bytes = 16;

/// Threads per block the GPU plan aims at: enough warps for the scheduler to
/// hide barrier and memory latency, few enough that blocks of several
/// instances share a multiprocessor.
inline constexpr int target_block_threads = 256;

/// A warp counts as well used when at least this fraction (numerator over
/// denominator) of its row slots (lanes times rows_per_thread) holds real rows.
inline constexpr int well_used_numerator = 3;
inline constexpr int well_used_denominator = 4;

/// 32-bit registers the rows of one thread may take: half of what a thread may
/// address (rounded up) for a real type, which leaves the other half to the
/// right-hand side, pivot bookkeeping, addresses and temporaries without
/// spilling; a quarter for a complex type, whose products and quotients need
/// about twice the temporaries. Measured with ptxas (sm_90, 255 registers,
/// column-major, nvcc 13): double n = 21 at 3 rows per thread (126 row
/// registers) used 222 registers, no spill; complex double n = 16 (64 row
/// registers) 255, no spill, but n = 20 (80) spilled 184 bytes, and complex
/// float n = 21 at 3 rows (126) 856 bytes; complex float n = 32 (64) used 232.
TDLS_HOST_DEVICE constexpr int register_budget_for_rows(int max_registers_per_thread, bool complex = false) noexcept {
    return complex ? (max_registers_per_thread + 1) / 4 : (max_registers_per_thread + 1) / 2;
}

/// 32-bit registers taken by rows_per_thread rows of n scalars of element_bytes.
TDLS_HOST_DEVICE constexpr std::int64_t registers_for_rows(int rows_per_thread, std::int64_t n,
                                                           int element_bytes) noexcept {
    return std::int64_t(rows_per_thread) * n * ((element_bytes + 3) / 4);
}

/// The rows per thread of the GPU plan, 0 when none fits. Valid values keep
/// the group inside one warp (ceil(n / r) <= warp_size) and the rows within the
/// register budget (of a complex type when `complex`). Among them: the smallest whose warp is well used (fewer
/// registers, shorter groups' critical path); failing that, the best-used one
/// (ties to the smaller), since slot use is proportional to systems solved per
/// warp per unit of work. constexpr so that an instance generator can
/// static_assert that it compiled the rows_per_thread the runtime will pick.
TDLS_HOST_DEVICE constexpr int choose_rows_per_thread(int n, int element_bytes, int warp_size,
                                                      int max_registers_per_thread, bool complex = false) noexcept {
    if (n < 1 || element_bytes < 1 || warp_size < 1) return 0;
    const std::int64_t budget = register_budget_for_rows(max_registers_per_thread, complex);
    int best = 0;
    int best_groups = 0;
    for (int rows = 1; rows <= n; ++rows) {
        // Registers only grow with rows: no larger value can fit either.
        if (registers_for_rows(rows, n, element_bytes) > budget) break;
        const int threads = (n + rows - 1) / rows;
        if (threads > warp_size) continue;
        const int groups = warp_size / threads;
        // Used fraction n * groups / (warp_size * rows), compared without division.
        if (std::int64_t(well_used_denominator) * n * groups >=
            std::int64_t(well_used_numerator) * warp_size * rows)
            return rows;
        if (best == 0 || std::int64_t(groups) * best > std::int64_t(best_groups) * rows) {
            best = rows;
            best_groups = groups;
        }
    }
    return best;
}

/// The plan of a call of order n, scalar dtype and storage layout on a device.
/// The layout changes no size today; it is an argument because precompiled
/// instances differ by layout, and a rule may come to depend on it.
Plan make_plan(std::int64_t n, tdls_dtype_t dtype, tdls_layout_t layout, const DeviceProperties& device);

/// The launches that cover a batch. Block b of a launch (b = blockIdx.y *
/// blocks_x + blockIdx.x) covers systems first + b * systems_per_block onward,
/// where launch L starts at first = L * systems_per_launch. Every launch uses
/// the same grid; lanes past the batch are inactive (see map_lane).
struct Grid {
    std::int64_t blocks_x;           ///< blocks along x of each launch
    std::int64_t blocks_y;           ///< blocks along y of each launch
    std::int64_t launches;           ///< launches, one after the other
    std::int64_t systems_per_launch; ///< systems between the first systems of two launches (batch if one)
};

/// The grid of a batch of `batch` systems under `plan`; all zero for an empty
/// batch or an unsupported plan. Never overflows, up to batch = INT64_MAX.
Grid make_grid(const Plan& plan, std::int64_t batch, const DeviceProperties& device);

/// bytes rounded up to a multiple of workspace_alignment_bytes: where the
/// next piece of a block's shared memory may start.
TDLS_HOST_DEVICE constexpr std::int64_t aligned_bytes(std::int64_t bytes) noexcept {
    return (bytes + workspace_alignment_bytes - 1) / workspace_alignment_bytes * workspace_alignment_bytes;
}

/// Bytes between the workspaces of two consecutive groups of a block.
TDLS_HOST_DEVICE constexpr std::int64_t workspace_stride_bytes(const Plan& plan) noexcept {
    return aligned_bytes(std::int64_t(plan.workspace_elements) * plan.element_bytes);
}

/// Element offset of the workspace of group group_in_block in the block's
/// shared memory; each workspace starts on a 16-byte boundary.
TDLS_HOST_DEVICE constexpr std::int64_t workspace_offset(const Plan& plan, int group_in_block) noexcept {
    if (plan.element_bytes <= 0) return 0;
    return std::int64_t(group_in_block) * (workspace_stride_bytes(plan) / plan.element_bytes);
}

/// What one thread of a block does: solve system `system` as thread tx of its
/// group, or (active false, system -1) nothing.
struct LaneMapping {
    std::int64_t system; ///< index of the system in the batch; -1 when inactive
    int tx;              ///< rank of the thread in its group; 0 when inactive
    bool active;         ///< false: lanes past the warp's groups, or systems past the batch
    int group_in_block;  ///< index of the thread's group in its block (its workspace slot); 0 when inactive
};

/// The system and rank of thread thread_in_block of block `block` (linear in
/// the launch) of the launch whose first system is first_system_of_launch. A
/// group is threads_per_system consecutive lanes of one warp, as the deduced
/// warp barrier requires: lane l of warp w belongs to group
/// w * groups_per_warp + l / threads_per_system, as rank l % threads_per_system.
/// Whole groups are active or inactive together, so a group's barrier never
/// waits for an absent lane.
TDLS_HOST_DEVICE constexpr LaneMapping map_lane(const Plan& plan, std::int64_t block, int thread_in_block,
                                                std::int64_t first_system_of_launch,
                                                std::int64_t batch) noexcept {
    constexpr LaneMapping inactive{-1, 0, false, 0};
    if (!plan.supported || block < 0 || thread_in_block < 0 || thread_in_block >= plan.block_size)
        return inactive;
    const int warp = thread_in_block / plan.warp_size;
    const int lane = thread_in_block % plan.warp_size;
    const int group_in_warp = lane / plan.threads_per_system;
    if (group_in_warp >= plan.groups_per_warp) return inactive;
    const std::int64_t group_in_block = std::int64_t(warp) * plan.groups_per_warp + group_in_warp;
    // Compare against what remains of the batch rather than forming first + offset,
    // which may pass INT64_MAX for the padding lanes of the last block.
    const std::int64_t remaining = batch - first_system_of_launch;
    if (remaining <= 0 || block > (remaining - 1) / plan.systems_per_block) return inactive;
    const std::int64_t first_of_block = block * plan.systems_per_block;
    if (group_in_block >= remaining - first_of_block) return inactive;
    return {first_system_of_launch + first_of_block + group_in_block, lane % plan.threads_per_system, true,
            int(group_in_block)};
}

/// Most rows per thread of a warp kernel (kernels/gpu/warp_driver.hpp, one
/// instance per value): orders up to twice the warp size.
inline constexpr int max_warp_rows_per_thread = 2;

/// The plan of the warp kernels, for the orders of up to two rows per lane
/// that no register kernel serves (n <= 64 on NVIDIA, 128 on a wavefront of
/// 64): groups of ceil(n / R) consecutive lanes of one warp, R = ceil(n /
/// warp_size) rows per thread, several groups per warp and several warps per
/// block, each group synchronised by the deduced warp barrier and working on
/// its own region of the block's shared memory: the solver's workspace, the
/// pivot order (n + 1 ints) and a packed copy of its matrix, each on a
/// 16-byte boundary. Unlike the block plan, a system takes one warp or less
/// (n = 33 used two warps, one lane in the second) and a block several
/// systems. `groups` sizes lanes and grid as a register plan does (map_lane,
/// make_grid; its workspace_elements is the solver's); the regions follow one
/// another every group_bytes.
struct WarpPlan {
    bool supported;                   ///< false: more than two rows per lane, or a region larger than a block's memory
    Plan groups;                      ///< rows per thread, group and block sizes, block shared memory
    std::int64_t group_bytes;         ///< shared memory of one group's region
    std::int64_t order_offset_bytes;  ///< offset of the pivot order in the region
    std::int64_t matrix_offset_bytes; ///< offset of the packed matrix in the region

    friend constexpr bool operator==(const WarpPlan&, const WarpPlan&) = default;
};

/// Blocks one multiprocessor holds at most (32 on NVIDIA since Maxwell; AMD
/// allows more, so the bound is safe for both).
inline constexpr std::int64_t max_resident_blocks = 32;

/// Shared memory the CUDA runtime reserves for each resident block on
/// compute capability 8.0 and later (cudaDeviceProp::reservedSharedMemPerBlock).
inline constexpr std::int64_t reserved_shared_bytes_per_block = 1024;

/// Registers per thread the residency estimate assumes for a warp kernel:
/// ptxas gave 60-122 on sm_90 (docs/gpu.md), rounded up to 128.
inline constexpr int warp_kernel_registers = 128;

/// The warp plan of order n on a device (unsupported on the CPU, past two
/// rows per lane, or where one region does not fit a block's shared memory).
/// A block holds at most target_block_threads and its shared memory fits
/// the block's limit; among those sizes, the number of warps that keeps the
/// most systems resident per multiprocessor (its shared memory divided into
/// whole blocks, each with the runtime's reserve on NVIDIA; its registers at
/// warp_kernel_registers a thread; at most max_resident_blocks), ties to
/// more warps.
WarpPlan make_warp_plan(std::int64_t n, tdls_dtype_t dtype, const DeviceProperties& device);

/// Where the block plan keeps the matrix of its system.
enum class MatrixPlace {
    Shared,  ///< a packed copy in shared memory, written back at the end
    InPlace, ///< the caller's memory, which must be packed (one element step between rows)
};

/// The most threads a block kernel of a type with element_bytes-byte scalars
/// is compiled for (its launch bound). The bound fixes the registers a thread
/// may use: 65536 / 1024 = 64 at 1024 threads, which complex double does not
/// fit (ptxas spilled 4-16 bytes in its block kernel on three of the four
/// architectures of the full build, docs/gpu.md); at 512 it has 128. Smaller
/// scalars fit 64 registers with no spill.
TDLS_HOST_DEVICE constexpr int block_kernel_threads(int element_bytes) noexcept {
    return element_bytes >= 16 ? 512 : 1024;
}

/// Rows per thread of the block kernels: one, or two where n exceeds the
/// block kernel's bound (complex double past 512).
inline constexpr int max_block_rows_per_thread = 2;

/// The plan for orders the register plan cannot hold (or that have no static
/// instance): one system per block, its group the whole block (ceil(n / R)
/// threads of R rows each, R the smallest of 1 and 2 that fits the block
/// kernel's bound and the device's largest block), synchronised by the
/// block barrier; the dynamic solver works on the matrix in shared memory when
/// it fits, else in place in device memory. Shared memory holds, in order and
/// each on a 16-byte boundary: the solver's workspace, the pivot order (n + 1
/// ints), and the packed matrix (n * n elements) under MatrixPlace::Shared.
struct BlockPlan {
    bool supported;                   ///< false: the order does not fit the device this way
    MatrixPlace matrix;               ///< where the dynamic solver finds the matrix
    int threads;                      ///< threads of the block = of the group = ceil(n / R)
    int workspace_elements;           ///< solver workspace (physical interchanges, group of `threads`)
    std::int64_t order_offset_bytes;  ///< offset of the pivot order in shared memory
    std::int64_t matrix_offset_bytes; ///< offset of the packed matrix (MatrixPlace::Shared)
    std::int64_t shared_memory_bytes; ///< dynamic shared memory of one block
    int element_bytes;                ///< bytes of one scalar: 4, 8 or 16
    int rows_per_thread;              ///< R: 1, or 2 past the block kernel's bound (last: in the padding, so
                                      ///< sizeof and every offset are unchanged)

    friend constexpr bool operator==(const BlockPlan&, const BlockPlan&) = default;
};

/// The block plan of order n on a device. matrix_packed says whether the
/// caller's matrices have one element step between rows of a column and n
/// between columns (lda == n, or the interleaved form), which the in-place
/// fallback needs; with it false, an order whose matrix does not fit shared
/// memory is unsupported.
BlockPlan make_block_plan(std::int64_t n, tdls_dtype_t dtype, const DeviceProperties& device, bool matrix_packed);

/// The grid of a block plan: one system per block.
Grid make_block_grid(const BlockPlan& plan, std::int64_t batch, const DeviceProperties& device);

/// The system of block `block` of the launch whose first system is
/// first_system_of_launch; -1 when the block lies past the batch.
TDLS_HOST_DEVICE constexpr std::int64_t block_system(std::int64_t block, std::int64_t first_system_of_launch,
                                                     std::int64_t batch) noexcept {
    if (block < 0 || block >= batch - first_system_of_launch) return -1;
    return first_system_of_launch + block;
}

} // namespace tdls::runtime
