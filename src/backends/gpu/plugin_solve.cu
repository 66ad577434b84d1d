// libtdls GPU plugin: the compute entry. Turns the core's call into a launch:
// the device's plan, the register kernel compiled for it when there is one,
// else the warp kernel (up to two rows per lane), else the block kernel, the
// grid, and the runtime's errors as statuses.
#include "plugin_solve.hpp"

#include <cstdarg>
#include <cstdio>
#include <exception>
#include <iterator>
#include <new>
#include <string>

#include <tdls/core/target.hpp>
#include <tdls/generated/instances.hpp>
#include <tdls/tdls.h>

#include "common/scalar_type.hpp"
#include "device_info.hpp"
#include "gpu/launchers.hpp"

namespace tdls::gpu_plugin {

namespace {

using kernels::gpu::GpuLaunch;
using kernels::gpu::Launcher;

struct RegisterInstance {
    tdls_dtype_t dtype;
    bool row_major;
    int order;
    int rows_per_thread;
    Launcher launch;
};

#define TDLS_GPU_TABLE_ENTRY(T, N, ROW_MAJOR)                                                                \
    RegisterInstance{kernels::dtype_of<T>, ROW_MAJOR, N, kernels::gpu::compiled_rows_per_thread<T, N>,               \
                     &kernels::gpu::launch_register<T, N, ROW_MAJOR>},
#if TDLS_COMPILER_HIP
constexpr RegisterInstance register_instances[] = {TDLS_GPU_HIP_INSTANCES(TDLS_GPU_TABLE_ENTRY)};
#else
constexpr RegisterInstance register_instances[] = {TDLS_GPU_CUDA_INSTANCES(TDLS_GPU_TABLE_ENTRY)};
#endif
#undef TDLS_GPU_TABLE_ENTRY

/// The block kernel of each type the plugin takes (TDLS_GPU_TYPES) and layout.
struct BlockInstance {
    tdls_dtype_t dtype;
    bool row_major;
    Launcher launch;
};
#define TDLS_GPU_BLOCK_ENTRIES(T)                                                                            \
    BlockInstance{kernels::dtype_of<T>, false, &kernels::gpu::launch_block<T, false>},                       \
        BlockInstance{kernels::dtype_of<T>, true, &kernels::gpu::launch_block<T, true>},
constexpr BlockInstance block_instances[] = {TDLS_GPU_TYPES(TDLS_GPU_BLOCK_ENTRIES)};
#undef TDLS_GPU_BLOCK_ENTRIES

Launcher block_launcher(tdls_dtype_t dtype, bool row_major) {
    for (const BlockInstance& i : block_instances)
        if (i.dtype == dtype && i.row_major == row_major) return i.launch;
    return nullptr;
}

/// The warp kernels of each type and layout (one and two rows per lane each).
#define TDLS_GPU_WARP_ENTRIES(T)                                                                             \
    BlockInstance{kernels::dtype_of<T>, false, &kernels::gpu::launch_warp<T, false>},                        \
        BlockInstance{kernels::dtype_of<T>, true, &kernels::gpu::launch_warp<T, true>},
constexpr BlockInstance warp_instances[] = {TDLS_GPU_TYPES(TDLS_GPU_WARP_ENTRIES)};
#undef TDLS_GPU_WARP_ENTRIES

/// The warp kernel for `plan`, or null: the plan must exist and its warps be
/// those the plugin was compiled for (the deduced barrier's groups live in one).
Launcher warp_launcher(tdls_dtype_t dtype, bool row_major, const runtime::WarpPlan& plan) {
    if (!plan.supported || plan.groups.warp_size != TDLS_GPU_WARP_SIZE) return nullptr;
    for (const BlockInstance& i : warp_instances)
        if (i.dtype == dtype && i.row_major == row_major) return i.launch;
    return nullptr;
}

/// The register kernel that runs `plan` exactly as the device's plan says, or null.
Launcher register_launcher(tdls_dtype_t dtype, bool row_major, std::int64_t n, const runtime::Plan& plan) {
    if (!plan.supported || plan.warp_size != TDLS_GPU_WARP_SIZE) return nullptr;
    for (const RegisterInstance& i : register_instances)
        if (i.dtype == dtype && i.row_major == row_major && i.order == n && i.rows_per_thread == plan.rows_per_thread)
            return i.launch;
    return nullptr;
}

kernels::BatchCall batch_call_of(const tdls_plugin_call& c) {
    kernels::BatchCall call;
    call.operation = c.operation == TDLS_PLUGIN_GETRS   ? kernels::Operation::Getrs
                     : c.operation == TDLS_PLUGIN_GETRF ? kernels::Operation::Getrf
                     : c.operation == TDLS_PLUGIN_SOLVE ? kernels::Operation::Solve
                                                        : kernels::Operation::Gesv;
    call.pivot_threshold = c.pivot_threshold;
    kernels::BatchOperands& o = call.operands;
    o.form = c.form == TDLS_PLUGIN_POINTERS      ? kernels::BatchForm::Pointers
             : c.form == TDLS_PLUGIN_INTERLEAVED ? kernels::BatchForm::Interleaved
                                                 : kernels::BatchForm::Strided;
    o.row_major = c.row_major != 0;
    o.n = c.n;
    o.nrhs = c.nrhs;
    o.batch = c.batch;
    o.A = c.A;
    o.A_array = c.A_array;
    o.lda = c.lda;
    o.strideA = c.strideA;
    o.ipiv = c.ipiv;
    o.ipiv_array = c.ipiv_array;
    o.strideIpiv = c.strideIpiv;
    o.B = c.B;
    o.B_array = c.B_array;
    o.ldb = c.ldb;
    o.strideB = c.strideB;
    o.info = c.info;
    o.block = c.block;
    return call;
}

/// Writes a sentence to the caller's buffer and returns the status.
int report(char* message, std::size_t size, tdls_status_t status, const char* format, ...) {
    if (message != nullptr && size > 0) {
        va_list args;
        va_start(args, format);
        std::vsnprintf(message, size, format, args);
        va_end(args);
    }
    return int(status);
}

/// Makes `device` current for the call and restores the caller's device after.
class CurrentDevice {
  public:
    explicit CurrentDevice(int device) {
        if (gpu_runtime::get_device(&previous_) != gpu_runtime::success) previous_ = -1;
        error_ = previous_ == device ? gpu_runtime::success : gpu_runtime::set_device(device);
    }
    ~CurrentDevice() {
        int now = -1;
        if (previous_ >= 0 && gpu_runtime::get_device(&now) == gpu_runtime::success && now != previous_)
            (void)gpu_runtime::set_device(previous_);
    }
    gpu_runtime::Error error() const { return error_; }

  private:
    int previous_ = -1;
    gpu_runtime::Error error_ = gpu_runtime::success;
};

/// The call's pointer arrays, copied on the stream into device memory of the
/// plugin's own before the kernel runs, which then reads only the copies.
/// The kernels read each system's entries when that system starts, after
/// other systems' outputs were written: arrays stored inside an operand (a
/// contract violation, which the host cannot see in device memory) would
/// hand later systems garbage addresses. Copied first, every entry is the
/// one the caller passed. The copy is stream-ordered (allocated, filled, read
/// and freed on the caller's stream), so the call stays asynchronous.
class StagedArrays {
  public:
    explicit StagedArrays(gpu_runtime::Stream stream) : stream_(stream) {}
    StagedArrays(const StagedArrays&) = delete;
    StagedArrays& operator=(const StagedArrays&) = delete;
    ~StagedArrays() {
        if (copy_ != nullptr) (void)gpu_runtime::free_async(copy_, stream_);
    }

    /// Points o's arrays at copies of the entries the kernel reads (B's only
    /// where B is used); returns the runtime's first error, `what` naming the
    /// step that failed (the call is then refused, nothing launched).
    gpu_runtime::Error stage(kernels::BatchOperands& o, bool uses_b, const char** what) {
        if (!uses_b) o.B_array = nullptr; // not read: the kernel's view then has no B
        void* const* arrays[] = {o.A_array, reinterpret_cast<void* const*>(o.ipiv_array), o.B_array};
        int count = 0;
        for (void* const* a : arrays) count += a != nullptr ? 1 : 0;
        // validate.cpp proved batch * sizeof(void*) addressable; three of them fit in size_t.
        const std::size_t bytes = std::size_t(o.batch) * sizeof(void*);
        *what = "allocating device memory for the pointer arrays' copies";
        gpu_runtime::Error e = gpu_runtime::malloc_async(&copy_, bytes * std::size_t(count), stream_);
        if (e != gpu_runtime::success) {
            copy_ = nullptr;
            return e;
        }
        void** next = static_cast<void**>(copy_);
        void** copies[3] = {};
        *what = "copying the pointer arrays";
        for (int i = 0; i < 3; ++i) {
            if (arrays[i] == nullptr) continue;
            e = gpu_runtime::copy_async(next, arrays[i], bytes, stream_);
            if (e != gpu_runtime::success) return e;
            copies[i] = next;
            next += o.batch;
        }
        o.A_array = copies[0];
        o.ipiv_array = reinterpret_cast<std::int32_t* const*>(copies[1]);
        o.B_array = copies[2];
        return gpu_runtime::success;
    }

  private:
    gpu_runtime::Stream stream_;
    void* copy_ = nullptr;
};

int solve_on_device(const tdls_plugin_call& c, char* message, std::size_t size) {
    const int count = devices();
    if (c.device < 0 || c.device >= count)
        return report(message, size, TDLS_ERROR_INVALID_VALUE, "device (%d) is not a %s device (0..%d)", c.device,
                      gpu_runtime::runtime_name, count - 1);
    const DeviceInfo& info = device_info(c.device);
    if (!info.valid)
        return report(message, size, TDLS_ERROR_EXECUTION, "cannot read the properties of %s device %d: %s",
                      gpu_runtime::runtime_name, c.device, info.problem.c_str());
    const CurrentDevice current(c.device);
    if (current.error() != gpu_runtime::success)
        return report(message, size, TDLS_ERROR_EXECUTION, "cannot make %s device %d current: %s",
                      gpu_runtime::runtime_name, c.device, gpu_runtime::error_string(current.error()));
    const auto stream = static_cast<gpu_runtime::Stream>(c.stream);

    if (c.n == 0) { // every system is empty and nonsingular
        if (c.info == nullptr) return int(TDLS_SUCCESS);
        const gpu_runtime::Error e =
            gpu_runtime::memset_async(c.info, 0, std::size_t(c.batch) * sizeof(std::int32_t), stream);
        if (e != gpu_runtime::success)
            return report(message, size, TDLS_ERROR_EXECUTION, "clearing info: %s", gpu_runtime::error_string(e));
        return int(TDLS_SUCCESS);
    }

    const auto dtype = tdls_dtype_t(c.dtype);
    const bool row_major = c.row_major != 0;
    // Every type of TDLS_GPU_TYPES has a block kernel here; a type without one
    // (a plugin built from a shorter list than the core's) is refused before
    // anything is enqueued.
    if (block_launcher(dtype, row_major) == nullptr)
        return report(message, size, TDLS_ERROR_NOT_SUPPORTED,
                      "dtype (%d) has no kernels in this plugin; the CPU backend solves it, from host memory",
                      int(c.dtype));
    const runtime::DeviceProperties& device = info.properties;
    GpuLaunch launch{};
    launch.call = batch_call_of(c);
    launch.plan = runtime::make_plan(c.n, dtype, row_major ? TDLS_ROW_MAJOR : TDLS_COL_MAJOR, device);
    runtime::Grid grid{};
    Launcher launcher = register_launcher(dtype, row_major, c.n, launch.plan);
    const char* kind = "register";
    if (launcher == nullptr) {
        // No register kernel: up to two rows per lane, the warp kernel, several systems per block.
        launch.warp_plan = runtime::make_warp_plan(c.n, dtype, device);
        launcher = warp_launcher(dtype, row_major, launch.warp_plan);
        if (launcher != nullptr) {
            grid = runtime::make_grid(launch.warp_plan.groups, c.batch, device);
            kind = "warp";
        }
    } else {
        grid = runtime::make_grid(launch.plan, c.batch, device);
    }
    if (launcher == nullptr) {
        // The in-place fallback factors the caller's matrix: never for a solve, whose A is read-only.
        const bool solve = c.operation == TDLS_PLUGIN_SOLVE;
        const bool packed = !solve && (c.form == TDLS_PLUGIN_INTERLEAVED || c.lda == c.n);
        launch.block_plan = runtime::make_block_plan(c.n, dtype, device, packed);
        if (!launch.block_plan.supported && solve)
            return report(message, size, TDLS_ERROR_NOT_SUPPORTED,
                          "n (%lld) does not fit %s for a solve with A read-only (%lld bytes of shared memory "
                          "per block, %d threads): use tdls_batched_gesv on a copy, or the CPU backend",
                          (long long)c.n, info.name.c_str(), (long long)device.shared_memory_per_block,
                          device.max_threads_per_block);
        if (!launch.block_plan.supported)
            return report(message, size, TDLS_ERROR_NOT_SUPPORTED,
                          "n (%lld) with lda (%lld) does not fit %s (%lld bytes of shared memory per block, %d "
                          "threads): store the matrices packed (lda = n) or use the CPU backend",
                          (long long)c.n, (long long)c.lda, info.name.c_str(),
                          (long long)device.shared_memory_per_block, device.max_threads_per_block);
        launcher = block_launcher(dtype, row_major);
        grid = runtime::make_block_grid(launch.block_plan, c.batch, device);
        kind = "block";
    }
    StagedArrays staged(stream);
    if (c.form == TDLS_PLUGIN_POINTERS) {
        const bool uses_b = c.operation != TDLS_PLUGIN_GETRF && c.nrhs > 0;
        const char* what = "";
        const gpu_runtime::Error e = staged.stage(launch.call.operands, uses_b, &what);
        if (e != gpu_runtime::success) {
            (void)gpu_runtime::last_error();
            const bool memory = e == gpu_runtime::out_of_memory;
            return report(message, size, memory ? TDLS_ERROR_ALLOCATION : TDLS_ERROR_EXECUTION, "%s on %s: %s (%s)",
                          what, info.name.c_str(), gpu_runtime::error_name(e), gpu_runtime::error_string(e));
        }
    }
    const kernels::gpu::LaunchSite site{stream, c.device, device.shared_memory_per_block};
    const gpu_runtime::Error e = launcher(launch, grid, site);
    if (e != gpu_runtime::success)
        return report(message, size, TDLS_ERROR_EXECUTION, "launching the %s kernel for n = %lld on %s: %s (%s)",
                      kind, (long long)c.n, info.name.c_str(), gpu_runtime::error_name(e),
                      gpu_runtime::error_string(e));
    return int(TDLS_SUCCESS);
}

} // namespace

int solve(const tdls_plugin_call* call, char* message, std::size_t message_size) noexcept {
    try {
        if (call == nullptr) return report(message, message_size, TDLS_ERROR_INTERNAL, "no call");
        return solve_on_device(*call, message, message_size);
    } catch (const std::bad_alloc&) {
        return report(message, message_size, TDLS_ERROR_ALLOCATION, "out of host memory in the %s plugin",
                      gpu_runtime::name);
    } catch (const std::exception& e) {
        return report(message, message_size, TDLS_ERROR_INTERNAL, "%s plugin: %s", gpu_runtime::name, e.what());
    } catch (...) {
        return report(message, message_size, TDLS_ERROR_INTERNAL, "%s plugin: unknown exception", gpu_runtime::name);
    }
}

} // namespace tdls::gpu_plugin
