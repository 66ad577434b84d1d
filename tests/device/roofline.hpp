// The GPU performance model of docs/gpu.md: for one order and type, the
// kernel the plugin's plan picks, its shape and estimated occupancy, the bytes
// and flops of one system (gesv, one right-hand side), and the systems per
// second that the device's memory bandwidth and arithmetic peak allow. The
// benchmark prints measured / predicted next to it, so that a first run
// shows at once where a kernel falls short; `tdls_device_suite --model`
// prints the table for the H200 without a GPU.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <tdls/tdls.h>

#include "common/plan.hpp"

namespace tdls_device {

/// The peaks the bound is computed from. H200 SXM (NVIDIA datasheet): HBM3e
/// 4.8 TB/s; 67 TFLOP/s FP32 and 67 TFLOP/s FP64 through the tensor cores
/// (34 TFLOP/s FP64 on the CUDA cores, which is what an LU of FMAs uses).
struct Peaks {
    const char* name;
    double bytes_per_second;
    double float_flops_per_second;
    double double_flops_per_second;
};
inline constexpr Peaks h200_peaks{"H200 (4.8 TB/s, 67 TFLOP/s)", 4.8e12, 67e12, 67e12};

/// Bytes of one system: A read and written, B read and written, ipiv and
/// info written (nrhs = 1).
double bytes_per_system(std::int64_t n, std::size_t element);
/// Flops of one gesv, nrhs = 1: 2/3 n^3 for the factorization, 2 n^2 for
/// the two triangular solves; 4 times that for a complex type (LAPACK's
/// count: a complex multiply-add is 4 real multiplies and 4 real adds).
double flops_per_system(std::int64_t n, tdls_dtype_t dtype);

struct KernelModel {
    std::int64_t n = 0;
    const char* type = "";
    std::string kernel;            // "register R=..", "warp R=.. (shared)", "block (shared)", "block (in place)", "none"
    int threads_per_system = 0;
    int systems_per_block = 0;
    int block_threads = 0;
    std::int64_t shared_bytes = 0; // per block
    int row_registers = 0;         // 32-bit registers of one thread's rows (register kernels)
    int blocks_per_multiprocessor = 0;
    double occupancy = 0;          // resident warps / the multiprocessor's 64
    double bytes = 0, flops = 0;   // per system
    double bound = 0;              // systems/s the peaks allow
    const char* limit = "";        // "memory" or "compute"
};

/// The orders with a register kernel: in the plugin this suite was built
/// with (this build's instance profile), and in the `full` profile users
/// build (kernels/instances.cmake, passed in by tests/device/CMakeLists.txt).
const std::vector<int>& built_register_orders();
const std::vector<int>& full_register_orders();

/// The model of gesv at order n, type dtype (column-major, packed) on
/// `device`, with register kernels for `register_orders`.
KernelModel model(std::int64_t n, tdls_dtype_t dtype, const tdls::runtime::DeviceProperties& device,
                  const Peaks& peaks, const std::vector<int>& register_orders);

/// The markdown table of docs/gpu.md: n = 1..64, 128, 256, both types, with
/// the full profile's register kernels.
std::string model_table(const tdls::runtime::DeviceProperties& device, const Peaks& peaks);

} // namespace tdls_device
