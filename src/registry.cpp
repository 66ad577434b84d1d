// libtdls: backend availability and the CPU dispatch table.
#include "registry.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <optional>
#include <span>
#include <type_traits>

#include <tdls/generated/instances.hpp>

#include "common/scalar_type.hpp"
#include "cpu/processor.hpp"
#include "cpu/simd/isa.hpp"
#include "backends/plugin/loader.hpp"
#include "status.hpp"

namespace tdls::runtime {

namespace {

struct CpuInstance {
    tdls_dtype_t dtype;
    bool row_major;
    int order; ///< 0: the dynamic kernel
    kernels::cpu::RangeKernel kernel;
};

// One table per family; each ends with an empty entry, so that a family
// left out of the build is an empty table rather than a zero-sized array.
#define TDLS_CPU_TABLE_ENTRY(T, N, ROW_MAJOR)                                                                \
    CpuInstance{kernels::dtype_of<T>, ROW_MAJOR, N, &kernels::cpu::solve_range<T, N, ROW_MAJOR>},
#define TDLS_SIMD_TABLE_ENTRY(ISA, T, N, ROW_MAJOR)                                                          \
    CpuInstance{kernels::dtype_of<T>, ROW_MAJOR, N, &kernels::cpu::simd::ISA::solve_range<T, N, ROW_MAJOR>},
#define TDLS_SIMD_GENERIC_ENTRY(T, N, ROW_MAJOR) TDLS_SIMD_TABLE_ENTRY(generic, T, N, ROW_MAJOR)
#define TDLS_SIMD_AVX2_ENTRY(T, N, ROW_MAJOR) TDLS_SIMD_TABLE_ENTRY(avx2, T, N, ROW_MAJOR)
#define TDLS_SIMD_AVX512_ENTRY(T, N, ROW_MAJOR) TDLS_SIMD_TABLE_ENTRY(avx512, T, N, ROW_MAJOR)
constexpr CpuInstance scalar_instances[] = {TDLS_CPU_INSTANCES(TDLS_CPU_TABLE_ENTRY) CpuInstance{}};
constexpr CpuInstance generic_instances[] = {TDLS_SIMD_GENERIC_INSTANCES(TDLS_SIMD_GENERIC_ENTRY)
                                                 CpuInstance{}};
constexpr CpuInstance avx2_instances[] = {TDLS_SIMD_AVX2_INSTANCES(TDLS_SIMD_AVX2_ENTRY) CpuInstance{}};
constexpr CpuInstance avx512_instances[] = {TDLS_SIMD_AVX512_INSTANCES(TDLS_SIMD_AVX512_ENTRY) CpuInstance{}};
// The GPU kernels' arithmetic (kernels/cpu/gpu_reference.cpp): the dynamic
// solver, fused, for every type of the GPU plugins.
#define TDLS_GPU_REFERENCE_ENTRIES(T)                                                                        \
    CpuInstance{kernels::dtype_of<T>, false, 0, &kernels::cpu::solve_range<T, 0, false, true>},              \
        CpuInstance{kernels::dtype_of<T>, true, 0, &kernels::cpu::solve_range<T, 0, true, true>},
constexpr CpuInstance gpu_reference_instances[] = {TDLS_GPU_TYPES(TDLS_GPU_REFERENCE_ENTRIES) CpuInstance{}};
#undef TDLS_GPU_REFERENCE_ENTRIES
#undef TDLS_SIMD_AVX512_ENTRY
#undef TDLS_SIMD_AVX2_ENTRY
#undef TDLS_SIMD_GENERIC_ENTRY
#undef TDLS_SIMD_TABLE_ENTRY
#undef TDLS_CPU_TABLE_ENTRY

/// A family's blocked kernel of the orders past the tiles, for one type and
/// layout; the scalar family and an ISA left out of the build have none.
struct BlockedInstance {
    tdls_dtype_t dtype;
    bool row_major;
    kernels::cpu::RangeKernel kernel;
};
#define TDLS_BLOCKED_ENTRIES(ISA, T)                                                                         \
    BlockedInstance{kernels::dtype_of<T>, false, &kernels::cpu::simd::ISA::blocked_range<T, false>},         \
        BlockedInstance{kernels::dtype_of<T>, true, &kernels::cpu::simd::ISA::blocked_range<T, true>},
#define TDLS_GENERIC_BLOCKED(T) TDLS_BLOCKED_ENTRIES(generic, T)
#define TDLS_AVX2_BLOCKED(T) TDLS_BLOCKED_ENTRIES(avx2, T)
#define TDLS_AVX512_BLOCKED(T) TDLS_BLOCKED_ENTRIES(avx512, T)
constexpr BlockedInstance no_blocked[] = {BlockedInstance{}};
#if TDLS_SIMD_GENERIC_BYTES > 0
constexpr BlockedInstance generic_blocked[] = {TDLS_BLOCKED_TYPES(TDLS_GENERIC_BLOCKED) BlockedInstance{}};
#else
constexpr const auto& generic_blocked = no_blocked;
#endif
#if TDLS_SIMD_AVX2_BYTES > 0
constexpr BlockedInstance avx2_blocked[] = {TDLS_BLOCKED_TYPES(TDLS_AVX2_BLOCKED) BlockedInstance{}};
#else
constexpr const auto& avx2_blocked = no_blocked;
#endif
#if TDLS_SIMD_AVX512_BYTES > 0
constexpr BlockedInstance avx512_blocked[] = {TDLS_BLOCKED_TYPES(TDLS_AVX512_BLOCKED) BlockedInstance{}};
#else
constexpr const auto& avx512_blocked = no_blocked;
#endif
#undef TDLS_AVX512_BLOCKED
#undef TDLS_AVX2_BLOCKED
#undef TDLS_GENERIC_BLOCKED
#undef TDLS_BLOCKED_ENTRIES

template <typename Entry, std::size_t Size>
constexpr std::span<const Entry> entries(const Entry (&table)[Size]) {
    return {table, Size - 1};
}

/// What the registry knows of each family, in CpuFamily's order: its name
/// (the value of TDLS_CPU_KERNEL), its vector bytes (0: one system per
/// thread) and its instances.
struct FamilyTraits {
    const char* name;
    int vector_bytes;
    std::span<const CpuInstance> instances;
    std::span<const BlockedInstance> blocked; ///< past the tiles; none: the scalar family's dynamic kernel
};
constexpr FamilyTraits family_traits[] = {
    {"scalar", 0, entries(scalar_instances), entries(no_blocked)},
    {"generic", TDLS_SIMD_GENERIC_BYTES, entries(generic_instances), entries(generic_blocked)},
    {"avx2", TDLS_SIMD_AVX2_BYTES, entries(avx2_instances), entries(avx2_blocked)},
    {"avx512", TDLS_SIMD_AVX512_BYTES, entries(avx512_instances), entries(avx512_blocked)},
    {"gpu_reference", 0, entries(gpu_reference_instances), entries(no_blocked)},
};
/// The families the library chooses among, by width.
constexpr CpuFamily all_families[] = {CpuFamily::Scalar, CpuFamily::SimdGeneric, CpuFamily::SimdAvx2,
                                      CpuFamily::SimdAvx512};
static_assert(std::size(family_traits) == std::size(all_families) + 1); // + GpuReference

constexpr const FamilyTraits& traits(CpuFamily family) noexcept {
    return family_traits[int(family)];
}

/// Whether this machine executes the instructions of the family's build
/// flags (kernels/instances.cmake), the operating system's support of the
/// wider registers included.
bool machine_runs(CpuFamily family) noexcept {
#if defined(__x86_64__) || defined(_M_X64)
    __builtin_cpu_init();
    const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    switch (family) {
    case CpuFamily::SimdAvx512:
        return avx2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
               __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw");
    case CpuFamily::SimdAvx2:
        return avx2;
    default:
        return true;
    }
#else
    return family == CpuFamily::Scalar || family == CpuFamily::SimdGeneric;
#endif
}

bool usable(CpuFamily family) noexcept {
    return (family == CpuFamily::Scalar || !traits(family).instances.empty()) && machine_runs(family);
}

/// The family TDLS_CPU_KERNEL names; none when it is unset, "auto" or an
/// unknown name.
std::optional<CpuFamily> requested_family() noexcept {
    const char* requested = std::getenv("TDLS_CPU_KERNEL");
    if (requested == nullptr) return std::nullopt;
    for (CpuFamily f : all_families)
        if (std::strcmp(requested, name(f)) == 0) return f;
    if (std::strcmp(requested, name(CpuFamily::GpuReference)) == 0) return CpuFamily::GpuReference;
    return std::nullopt;
}

/// AMD family 19h (Zen 3, Zen 4) with AVX-512 is Zen 4, whose 512-bit
/// instructions run as two 256-bit halves; CPUID has no flag for it.
bool detect_split_512() noexcept {
    return kernels::cpu::amd_family_19h() && machine_runs(CpuFamily::SimdAvx512);
}

CpuFamily choose_family() noexcept {
    CpuFamily widest = CpuFamily::Scalar;
    for (CpuFamily f : all_families)
        if (usable(f)) widest = f;
    const std::optional<CpuFamily> requested = requested_family();
    if (!requested) return widest;
    if (*requested == CpuFamily::GpuReference) return *requested; // plain C++: runs anywhere
    // Narrower than the widest usable: honoured if usable; wider: capped.
    CpuFamily f = *requested;
    while (!usable(f)) f = CpuFamily(int(f) - 1);
    return int(f) < int(widest) ? f : widest;
}

int lanes_of(CpuFamily family, tdls_dtype_t dtype) noexcept {
    const int bytes = traits(family).vector_bytes;
    // A complex tile splits each element into a vector of real parts and
    // one of imaginary parts: as many systems as lanes of the real type.
    const kernels::DtypeInfo* info = kernels::find_dtype(dtype);
    return bytes == 0 || info == nullptr ? 1 : bytes / info->real_bytes;
}

/// Systems of an interleaved block whose elements share a cache line: the
/// blocked kernel loads and stores them together (blocked_lu.hpp).
int systems_per_line(tdls_dtype_t dtype) noexcept {
    const kernels::DtypeInfo* info = kernels::find_dtype(dtype);
    return info == nullptr ? 1 : std::max(1, kernels::cpu::simd::line_bytes / info->bytes);
}

/// Whether the family has kernels of the type (the SIMD families take the
/// types of TDLS_SIMD_TYPES, the scalar family those of TDLS_CPU_TYPES; the
/// blocked kernels past the tiles, TDLS_BLOCKED_TYPES).
bool takes(CpuFamily family, tdls_dtype_t dtype) noexcept {
    for (const CpuInstance& instance : traits(family).instances)
        if (instance.dtype == dtype) return true;
    return false;
}

} // namespace

bool backend_available(tdls_backend_t backend) noexcept {
    switch (backend) {
    case TDLS_BACKEND_AUTO:
    case TDLS_BACKEND_CPU:
        return true;
    case TDLS_BACKEND_CUDA:
    case TDLS_BACKEND_HIP:
        try {
            return plugin::plugin(backend).usable();
        } catch (...) { // out of memory while loading: not available now
            return false;
        }
    }
    return false;
}

std::string unavailable_reason(tdls_backend_t backend) {
    if (backend != TDLS_BACKEND_CUDA && backend != TDLS_BACKEND_HIP) return "";
    return plugin::plugin(backend).reason;
}

int device_count(tdls_backend_t backend) {
    if (backend != TDLS_BACKEND_CUDA && backend != TDLS_BACKEND_HIP) return 0;
    const plugin::Plugin& p = plugin::plugin(backend);
    return p.usable() ? p.devices : 0;
}

const char* name(CpuFamily family) noexcept {
    return traits(family).name;
}

CpuFamily cpu_family() noexcept {
    static const CpuFamily family = choose_family(); // thread-safe, once
    return family;
}

bool splits_512_bit_vectors() noexcept {
    static const bool split = detect_split_512();
    return split;
}

int blocked_from_order(tdls_dtype_t dtype) noexcept {
    static const bool zen4 = kernels::cpu::amd_family_19h();
    const kernels::DtypeInfo* info = kernels::find_dtype(dtype);
    // Complex systems have no blocked kernel (TDLS_BLOCKED_TYPES): the tiles up to max_order.
    if (zen4 || info == nullptr || info->complex) return kernels::cpu::simd::max_order + 1;
    return kernels::cpu::simd::blocked_from(info->real_bytes);
}

CpuFamily family_for(tdls_dtype_t dtype, const FamilyChoice& choice) noexcept {
    if (choice.family != CpuFamily::SimdAvx512 || choice.requested || !choice.splits_512 ||
        !choice.avx2_usable)
        return choice.family;
    const kernels::DtypeInfo* info = kernels::find_dtype(dtype);
    return info != nullptr && info->complex ? CpuFamily::SimdAvx2 : choice.family;
}

CpuFamily cpu_family(tdls_dtype_t dtype) noexcept {
    static const FamilyChoice choice{cpu_family(), requested_family().has_value(), splits_512_bit_vectors(),
                                     usable(CpuFamily::SimdAvx2)};
    return family_for(dtype, choice);
}

kernels::cpu::CpuKernel cpu_kernel(tdls_dtype_t dtype, bool row_major, std::int64_t n,
                                   CpuFamily family) noexcept {
    if (n > TDLS_MAX_ORDER) return {};
    // A type the family has no kernels of goes to the one-system-per-thread kernel.
    if (!takes(family, dtype)) family = CpuFamily::Scalar;
    const bool past_tiles = n > kernels::cpu::simd::max_order;
    if ((past_tiles || n >= blocked_from_order(dtype)) && family != CpuFamily::GpuReference) {
        // One system per thread: the family's blocked kernel; past the
        // tiles, where it has none, the scalar cooperative one.
        for (const BlockedInstance& blocked : traits(family).blocked)
            if (blocked.dtype == dtype && blocked.row_major == row_major)
                return {blocked.kernel, 1, systems_per_line(dtype)};
        if (past_tiles) family = CpuFamily::Scalar;
    }
    kernels::cpu::RangeKernel dynamic = nullptr;
    for (const CpuInstance& instance : traits(family).instances) {
        if (instance.dtype != dtype || instance.row_major != row_major) continue;
        if (instance.order == n) return {instance.kernel, lanes_of(family, dtype)};
        if (instance.order == 0) dynamic = instance.kernel;
    }
    if (dynamic == nullptr || n > TDLS_MAX_ORDER) return {};
    return {dynamic, lanes_of(family, dtype)};
}

kernels::cpu::CpuKernel cpu_kernel(tdls_dtype_t dtype, bool row_major, std::int64_t n) noexcept {
    return cpu_kernel(dtype, row_major, n, cpu_family(dtype));
}

} // namespace tdls::runtime
