// libtdls: backend availability and the CPU dispatch table.
#include "registry.hpp"

#include <type_traits>

#include <tdls/generated/instances.hpp>

#include "status.hpp"

namespace tdls::runtime {

namespace {

template <typename T>
constexpr tdls_dtype_t dtype_of() {
    return std::is_same_v<T, float> ? TDLS_FLOAT32 : TDLS_FLOAT64;
}

struct CpuInstance {
    tdls_dtype_t dtype;
    bool row_major;
    int order; ///< 0: the dynamic solver
    kernels::cpu::RangeKernel kernel;
};

#define TDLS_CPU_TABLE_ENTRY(T, N, ROW_MAJOR)                                                                \
    CpuInstance{dtype_of<T>(), ROW_MAJOR, N, &kernels::cpu::solve_range<T, N, ROW_MAJOR>},
constexpr CpuInstance cpu_instances[] = {TDLS_CPU_INSTANCES(TDLS_CPU_TABLE_ENTRY)};
#undef TDLS_CPU_TABLE_ENTRY

} // namespace

bool backend_available(tdls_backend_t backend) noexcept {
    // The CUDA and HIP plugins are not built yet: only the CPU can run.
    return backend == TDLS_BACKEND_AUTO || backend == TDLS_BACKEND_CPU;
}

tdls_backend_t resolve_backend(const char* function, tdls_backend_t requested) {
    switch (requested) {
    case TDLS_BACKEND_AUTO: // without a GPU plugin, every pointer is host memory
    case TDLS_BACKEND_CPU:
        return TDLS_BACKEND_CPU;
    case TDLS_BACKEND_CUDA:
    case TDLS_BACKEND_HIP:
        break;
    }
    fail(TDLS_ERROR_BACKEND_UNAVAILABLE, function, "backend (", int(requested),
         ") has no plugin in this build; only the CPU backend is available");
}

kernels::cpu::RangeKernel cpu_kernel(tdls_dtype_t dtype, bool row_major, std::int64_t n) noexcept {
    kernels::cpu::RangeKernel dynamic = nullptr;
    for (const CpuInstance& instance : cpu_instances) {
        if (instance.dtype != dtype || instance.row_major != row_major) continue;
        if (instance.order == n) return instance.kernel;
        if (instance.order == 0) dynamic = instance.kernel;
    }
    return n <= TDLS_MAX_ORDER ? dynamic : nullptr;
}

} // namespace tdls::runtime
