// libtdls runtime: the launch plan and the grid (see plan.hpp).
//
// Copyright (c) 2026, the libtdls developers. BSD 3-Clause License (LICENSE).
#include "plan.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>

#include <tdls/solvers/cooperative_lupp/detail/engine.hpp>

#include "scalar_type.hpp"

namespace tdls::runtime {

namespace {

bool known_layout(tdls_layout_t layout) {
    return layout == TDLS_COL_MAJOR || layout == TDLS_ROW_MAJOR;
}

Plan unsupported() {
    return Plan{};
}

/// The CPU runs one system per thread: no group to synchronize, rows in the
/// thread's own memory, the workspace on its stack.
Plan make_cpu_plan(int n, int element_bytes) {
    Plan plan{};
    plan.supported = true;
    plan.rows_per_thread = n;
    plan.threads_per_system = 1;
    plan.groups_per_warp = 1;
    plan.systems_per_block = 1;
    plan.block_size = 1;
    // The runtime instantiates the solver with physical interchanges: LAPACK's row order in place.
    plan.workspace_elements = tdls::detail::coop::workspace_elements<true>(n, 1);
    plan.shared_memory_bytes = 0;
    plan.element_bytes = element_bytes;
    plan.warp_size = 1;
    return plan;
}

Plan make_gpu_plan(int n, int element_bytes, bool complex, const DeviceProperties& device) {
    const int warp_size = device.warp_size;
    if (warp_size < 1 || device.max_threads_per_block < warp_size) return unsupported();

    // The group lives in one warp (its barrier is a warp barrier) and its rows in registers.
    const int rows_per_thread =
        choose_rows_per_thread(n, element_bytes, warp_size, device.max_registers_per_thread, complex);
    if (rows_per_thread == 0) return unsupported();

    Plan plan{};
    plan.supported = true;
    plan.rows_per_thread = rows_per_thread;
    plan.threads_per_system = (n + rows_per_thread - 1) / rows_per_thread;
    plan.groups_per_warp = warp_size / plan.threads_per_system;
    plan.workspace_elements = tdls::detail::coop::workspace_elements<true>(n, plan.threads_per_system);
    plan.element_bytes = element_bytes;
    plan.warp_size = warp_size;

    // Aim at target_block_threads, within the device's largest block.
    int warps_per_block = std::max(1, target_block_threads / warp_size);
    warps_per_block = std::min(warps_per_block, device.max_threads_per_block / warp_size);
    // A block must launch even if the compiler gives every thread all the registers it may address.
    const std::int64_t registers_per_warp = std::int64_t(warp_size) * device.max_registers_per_thread;
    if (device.registers_per_multiprocessor > 0 && registers_per_warp > 0) {
        const std::int64_t warps_by_registers = device.registers_per_multiprocessor / registers_per_warp;
        warps_per_block =
            int(std::min<std::int64_t>(warps_per_block, std::max<std::int64_t>(1, warps_by_registers)));
    }
    // The workspaces of the block's groups must fit its shared memory.
    const std::int64_t bytes_per_warp = std::int64_t(plan.groups_per_warp) * workspace_stride_bytes(plan);
    const std::int64_t warps_by_shared_memory = device.shared_memory_per_block / bytes_per_warp;
    if (warps_by_shared_memory < 1) return unsupported();
    warps_per_block = int(std::min<std::int64_t>(warps_per_block, warps_by_shared_memory));

    plan.block_size = warps_per_block * warp_size;
    plan.systems_per_block = warps_per_block * plan.groups_per_warp;
    plan.shared_memory_bytes = std::int64_t(plan.systems_per_block) * workspace_stride_bytes(plan);
    return plan;
}

} // namespace

DeviceProperties cpu_properties(int threads) {
    DeviceProperties device{};
    device.vendor = Vendor::Cpu;
    device.name = "CPU";
    device.warp_size = 1;
    device.max_grid_x = std::numeric_limits<std::int64_t>::max();
    device.cpu_threads = threads;
    return device;
}

Plan make_plan(std::int64_t n, tdls_dtype_t dtype, tdls_layout_t layout, const DeviceProperties& device) {
    // Orders beyond TDLS_MAX_ORDER have no instance, and the int arithmetic below relies on the bound.
    if (n < 1 || n > TDLS_MAX_ORDER) return unsupported();
    const int element_bytes = kernels::element_bytes(dtype);
    if (element_bytes == 0) return unsupported();
    // Instances exist per layout, so an unknown layout has none.
    if (!known_layout(layout)) return unsupported();
    if (device.vendor == Vendor::Cpu) return make_cpu_plan(int(n), element_bytes);
    const kernels::DtypeInfo* info = kernels::find_dtype(dtype);
    return make_gpu_plan(int(n), element_bytes, info != nullptr && info->complex, device);
}

namespace {

Grid grid_of(std::int64_t systems_per_block, std::int64_t batch, const DeviceProperties& device) {
    const std::int64_t max_x = std::max<std::int64_t>(1, device.max_grid_x);
    const std::int64_t max_y = std::max<std::int64_t>(1, device.max_grid_y);
    // (batch - 1) / s + 1 is ceil(batch / s) without forming batch + s - 1.
    const std::int64_t blocks_needed = (batch - 1) / systems_per_block + 1;

    if (blocks_needed <= max_x) return Grid{blocks_needed, 1, 1, batch};

    const std::int64_t rows = (blocks_needed - 1) / max_x + 1;
    if (rows <= max_y) {
        // Spread the blocks evenly over the rows: fewer than `rows` padding blocks instead of up to max_x.
        const std::int64_t columns = (blocks_needed - 1) / rows + 1;
        return Grid{columns, rows, 1, batch};
    }

    // Full grids, one launch after the other; max_x * max_y < blocks_needed, so no product overflows.
    const std::int64_t blocks_per_launch = max_x * max_y;
    const std::int64_t launches = (blocks_needed - 1) / blocks_per_launch + 1;
    return Grid{max_x, max_y, launches, blocks_per_launch * systems_per_block};
}

} // namespace

Grid make_grid(const Plan& plan, std::int64_t batch, const DeviceProperties& device) {
    if (!plan.supported || batch <= 0 || plan.systems_per_block < 1) return Grid{0, 0, 0, 0};
    return grid_of(plan.systems_per_block, batch, device);
}

WarpPlan make_warp_plan(std::int64_t n, tdls_dtype_t dtype, const DeviceProperties& device) {
    const int element_bytes = kernels::element_bytes(dtype);
    const int warp = device.warp_size;
    if (n < 1 || n > TDLS_MAX_ORDER || element_bytes == 0 || device.vendor == Vendor::Cpu || warp < 1)
        return WarpPlan{};
    const int rows = int((n - 1) / warp + 1);
    if (rows > max_warp_rows_per_thread) return WarpPlan{};
    const int threads = int((n - 1) / rows + 1);
    WarpPlan plan{};
    Plan& g = plan.groups;
    g.rows_per_thread = rows;
    g.threads_per_system = threads;
    g.groups_per_warp = warp / threads;
    g.workspace_elements = tdls::detail::coop::workspace_elements<true>(int(n), threads);
    g.element_bytes = element_bytes;
    g.warp_size = warp;
    plan.order_offset_bytes = aligned_bytes(std::int64_t(g.workspace_elements) * element_bytes);
    plan.matrix_offset_bytes = plan.order_offset_bytes + aligned_bytes((n + 1) * 4);
    plan.group_bytes = plan.matrix_offset_bytes + aligned_bytes(n * n * element_bytes);
    const std::int64_t regions = device.shared_memory_per_block / plan.group_bytes;
    if (regions < 1) return WarpPlan{};
    const int max_warps = std::max(1, std::min(target_block_threads, device.max_threads_per_block) / warp);
    int warps = int(std::min<std::int64_t>(max_warps, regions / g.groups_per_warp));
    if (warps == 0) { // not even one warp's groups fit: one warp, as many groups as fit
        warps = 1;
        g.groups_per_warp = int(regions);
    }
    // Shared memory is allocated per block: a big block leaves the rest of the multiprocessor's
    // memory unused (n = 64 float, 8 regions of 17 KiB: one block of 8 systems per SM, where blocks
    // of one hold 13). The number of warps that keeps the most systems resident, ties to more warps.
    const std::int64_t per_multiprocessor =
        device.shared_memory_per_multiprocessor > 0 ? device.shared_memory_per_multiprocessor
                                                    : device.shared_memory_per_block;
    const std::int64_t reserved = device.vendor == Vendor::Nvidia ? reserved_shared_bytes_per_block : 0;
    std::int64_t most_resident = -1;
    int best_warps = warps;
    for (int w = warps; w >= 1; --w) {
        const std::int64_t block_bytes = std::int64_t(w) * g.groups_per_warp * plan.group_bytes + reserved;
        const std::int64_t by_registers =
            device.registers_per_multiprocessor > 0
                ? device.registers_per_multiprocessor / (std::int64_t(w) * warp * warp_kernel_registers)
                : max_resident_blocks;
        const std::int64_t blocks =
            std::min({per_multiprocessor / block_bytes, max_resident_blocks, by_registers});
        const std::int64_t resident = blocks * w * g.groups_per_warp;
        if (resident > most_resident) {
            most_resident = resident;
            best_warps = w;
        }
    }
    warps = best_warps;
    g.systems_per_block = warps * g.groups_per_warp;
    g.block_size = warps * warp;
    g.shared_memory_bytes = std::int64_t(g.systems_per_block) * plan.group_bytes;
    g.supported = true;
    plan.supported = true;
    return plan;
}

BlockPlan make_block_plan(std::int64_t n, tdls_dtype_t dtype, const DeviceProperties& device, bool matrix_packed) {
    const int element_bytes = kernels::element_bytes(dtype);
    if (n < 1 || n > TDLS_MAX_ORDER || element_bytes == 0 || device.vendor == Vendor::Cpu) return BlockPlan{};
    // The whole block is the group: one row per thread, or two where one
    // would need more threads than the kernel's bound or the device allows.
    const std::int64_t most_threads = std::min<std::int64_t>(device.max_threads_per_block,
                                                             block_kernel_threads(element_bytes));
    if (most_threads < 1) return BlockPlan{};
    const std::int64_t rows = (n + most_threads - 1) / most_threads;
    if (rows > max_block_rows_per_thread) return BlockPlan{};
    BlockPlan plan{};
    plan.rows_per_thread = int(rows);
    plan.threads = int((n + rows - 1) / rows);
    plan.element_bytes = element_bytes;
    plan.workspace_elements = tdls::detail::coop::workspace_elements<true>(int(n), plan.threads);
    plan.order_offset_bytes = aligned_bytes(std::int64_t(plan.workspace_elements) * element_bytes);
    plan.matrix_offset_bytes = plan.order_offset_bytes + aligned_bytes((n + 1) * 4);
    const std::int64_t with_matrix = plan.matrix_offset_bytes + aligned_bytes(n * n * element_bytes);
    if (with_matrix <= device.shared_memory_per_block) {
        plan.matrix = MatrixPlace::Shared;
        plan.shared_memory_bytes = with_matrix;
    } else if (matrix_packed && plan.matrix_offset_bytes <= device.shared_memory_per_block) {
        plan.matrix = MatrixPlace::InPlace;
        plan.shared_memory_bytes = plan.matrix_offset_bytes;
    } else {
        return BlockPlan{};
    }
    plan.supported = true;
    return plan;
}

Grid make_block_grid(const BlockPlan& plan, std::int64_t batch, const DeviceProperties& device) {
    if (!plan.supported || batch <= 0) return Grid{0, 0, 0, 0};
    return grid_of(1, batch, device);
}

} // namespace tdls::runtime
