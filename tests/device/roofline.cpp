// The GPU performance model (see roofline.hpp).
#include "roofline.hpp"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "dtypes.hpp"

namespace tdls_device {

namespace {

/// Resident warps of one NVIDIA multiprocessor (compute capability 8.0-12.0
/// allow 64 but 8.6/8.9/12.x allow 48; the H200's 9.0 allows 64), and blocks.
constexpr int max_warps_per_multiprocessor = 64;
constexpr int max_blocks_per_multiprocessor = 32;
/// Registers a thread needs besides its rows: right-hand side, pivot
/// bookkeeping, addresses, loop state (an estimate; ptxas decides).
constexpr int other_registers = 40;

int blocks_resident(const tdls::runtime::DeviceProperties& d, int block_threads, int registers_per_thread,
                    std::int64_t shared_bytes) {
    const int warps = (block_threads + d.warp_size - 1) / d.warp_size;
    // Registers are allocated per warp in units of 256.
    const int warp_registers = (registers_per_thread * d.warp_size + 255) / 256 * 256;
    int blocks = std::min(max_blocks_per_multiprocessor, max_warps_per_multiprocessor / std::max(1, warps));
    blocks = std::min(blocks, d.registers_per_multiprocessor / std::max(1, warp_registers * warps));
    if (shared_bytes > 0)
        blocks = std::min<std::int64_t>(blocks, d.shared_memory_per_multiprocessor / shared_bytes);
    return std::max(0, blocks);
}

} // namespace

const std::vector<int>& built_register_orders() {
    static const std::vector<int> orders{TDLS_DEVICE_BUILT_REGISTER_ORDERS};
    return orders;
}

const std::vector<int>& full_register_orders() {
    static const std::vector<int> orders{TDLS_DEVICE_FULL_REGISTER_ORDERS};
    return orders;
}

double bytes_per_system(std::int64_t n, std::size_t element) {
    return double(2 * n * n * std::int64_t(element) + 2 * n * std::int64_t(element) + 4 * n + 4);
}

double flops_per_system(std::int64_t n, tdls_dtype_t dtype) {
    return (is_complex(dtype) ? 4.0 : 1.0) * (2.0 / 3.0 * double(n * n * n) + 2.0 * double(n * n));
}

KernelModel model(std::int64_t n, tdls_dtype_t dtype, const tdls::runtime::DeviceProperties& device,
                  const Peaks& peaks, const std::vector<int>& register_orders) {
    KernelModel m;
    m.n = n;
    const std::size_t element = element_bytes(dtype);
    m.type = type_name(dtype);
    m.bytes = bytes_per_system(n, element);
    m.flops = flops_per_system(n, dtype);
    const double peak_flops =
        real_bytes(dtype) == 4 ? peaks.float_flops_per_second : peaks.double_flops_per_second;
    const double memory_bound = peaks.bytes_per_second / m.bytes;
    const double compute_bound = peak_flops / m.flops;
    m.bound = std::min(memory_bound, compute_bound);
    m.limit = memory_bound <= compute_bound ? "memory" : "compute";

    const tdls::runtime::Plan plan = tdls::runtime::make_plan(n, dtype, TDLS_COL_MAJOR, device);
    int registers = 0;
    const bool compiled = std::find(register_orders.begin(), register_orders.end(), int(n)) != register_orders.end();
    if (plan.supported && compiled) {
        m.kernel = "register R=" + std::to_string(plan.rows_per_thread);
        m.threads_per_system = plan.threads_per_system;
        m.systems_per_block = plan.systems_per_block;
        m.block_threads = plan.block_size;
        m.shared_bytes = plan.shared_memory_bytes;
        m.row_registers = int((std::int64_t(plan.rows_per_thread) * n * std::int64_t(element) + 3) / 4);
        registers = std::min(device.max_registers_per_thread, m.row_registers + other_registers);
    } else if (const tdls::runtime::WarpPlan warp = tdls::runtime::make_warp_plan(n, dtype, device); warp.supported) {
        // As the plugin: the warp kernel where no register kernel serves and the rows fit two per lane.
        const tdls::runtime::Plan& g = warp.groups;
        m.kernel = "warp R=" + std::to_string(g.rows_per_thread) + " (shared)";
        m.threads_per_system = g.threads_per_system;
        m.systems_per_block = g.systems_per_block;
        m.block_threads = g.block_size;
        m.shared_bytes = g.shared_memory_bytes;
        registers = tdls::runtime::warp_kernel_registers; // the plan's estimate (ptxas: 60-122 on sm_90)
    } else {
        const tdls::runtime::BlockPlan block = tdls::runtime::make_block_plan(n, dtype, device, true);
        if (!block.supported) {
            m.kernel = "none (refused)";
            return m;
        }
        m.kernel = std::string(block.rows_per_thread == 1 ? "block" : "block R=2") +
                   (block.matrix == tdls::runtime::MatrixPlace::Shared ? " (shared)" : " (in place)");
        m.threads_per_system = block.threads;
        m.systems_per_block = 1;
        m.block_threads = block.threads;
        m.shared_bytes = block.shared_memory_bytes;
        registers = other_registers + 8;
    }
    m.blocks_per_multiprocessor = blocks_resident(device, m.block_threads, registers, m.shared_bytes);
    const int warps = (m.block_threads + device.warp_size - 1) / device.warp_size;
    m.occupancy = double(m.blocks_per_multiprocessor * warps) / max_warps_per_multiprocessor;
    return m;
}

std::string model_table(const tdls::runtime::DeviceProperties& device, const Peaks& peaks) {
    std::string text = std::string("Model on ") + (device.name ? device.name : "the device") + ", peaks " +
                       peaks.name + "; gesv, nrhs = 1, column-major, packed.\n\n" +
                       "| n | type | kernel | threads/system | systems/block | block | shared B/block | row regs | "
                       "blocks/SM | occupancy | bytes/system | flops/system | bound systems/s | limit |\n"
                       "|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n";
    std::vector<std::int64_t> orders;
    for (std::int64_t n = 1; n <= 64; ++n) orders.push_back(n);
    orders.push_back(128);
    orders.push_back(256);
    for (std::int64_t n : orders)
        for (tdls_dtype_t dtype : {TDLS_FLOAT32, TDLS_FLOAT64, TDLS_COMPLEX64, TDLS_COMPLEX128}) {
            const KernelModel m = model(n, dtype, device, peaks, full_register_orders());
            char line[512];
            std::snprintf(line, sizeof line,
                          "| %lld | %s | %s | %d | %d | %d | %lld | %d | %d | %.0f%% | %.0f | %.0f | %.3g | %s |\n",
                          (long long)m.n, m.type, m.kernel.c_str(), m.threads_per_system, m.systems_per_block,
                          m.block_threads, (long long)m.shared_bytes, m.row_registers, m.blocks_per_multiprocessor,
                          100 * m.occupancy, m.bytes, m.flops, m.bound, m.limit);
            text += line;
        }
    return text;
}

} // namespace tdls_device
