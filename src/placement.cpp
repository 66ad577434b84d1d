// libtdls: where a compute call runs (see placement.hpp).
#include "placement.hpp"

#include <sstream>

#include "backends/plugin/loader.hpp"
#include "handle.hpp"
#include "registry.hpp"

namespace tdls::runtime {

namespace {

/// Where one operand lives.
struct Home {
    tdls_backend_t backend = TDLS_BACKEND_CPU; ///< CPU: host memory, or memory no plugin knows
    int device = 0;
    bool operator==(const Home&) const = default;
};

constexpr tdls_backend_t gpu_backends[] = {TDLS_BACKEND_CUDA, TDLS_BACKEND_HIP};

Home home_of(const void* pointer) {
    for (tdls_backend_t backend : gpu_backends) {
        if (!backend_available(backend)) continue;
        int device = 0;
        if (plugin::plugin(backend).table->locate(pointer, &device) == 1) return {backend, device};
    }
    return {};
}

std::string describe(const Home& home) {
    if (home.backend == TDLS_BACKEND_CPU) return "host memory";
    std::ostringstream s;
    s << (home.backend == TDLS_BACKEND_CUDA ? "CUDA" : "HIP") << " device " << home.device << " memory";
    return s.str();
}

struct Operand {
    const char* name;
    const void* pointer;
};

} // namespace

Placement place(const Context& context, const kernels::BatchOperands& ops) {
    const bool arrays = ops.form == kernels::BatchForm::Pointers;
    const Operand operands[] = {
        {arrays ? "A_array" : "A", arrays ? static_cast<const void*>(ops.A_array) : ops.A},
        {arrays ? "ipiv_array" : "ipiv", arrays ? static_cast<const void*>(ops.ipiv_array) : ops.ipiv},
        {arrays ? "B_array" : "B", arrays ? static_cast<const void*>(ops.B_array) : ops.B},
        {"info", ops.info},
    };
    Placement placement;
    const tdls_backend_t requested = context.backend;
    if (requested == TDLS_BACKEND_CUDA || requested == TDLS_BACKEND_HIP) {
        placement.backend = requested;
        placement.device = context.device;
        if (!backend_available(requested)) {
            placement.problem = TDLS_ERROR_BACKEND_UNAVAILABLE;
            placement.why = "backend (" + std::to_string(int(requested)) + ") is unavailable: " +
                            unavailable_reason(requested);
            return placement;
        }
    }
    // The first operand decides (A, whose home tdls.h names); every other must agree.
    bool decided = false;
    Home first;
    const char* first_name = "";
    for (const Operand& o : operands) {
        if (o.pointer == nullptr) continue;
        const Home home = home_of(o.pointer);
        if (!decided) {
            decided = true;
            first = home;
            first_name = o.name;
            continue;
        }
        if (home == first) continue;
        placement.problem = TDLS_ERROR_INVALID_VALUE;
        placement.why = std::string("operands live in different places: ") + first_name + " in " +
                        describe(first) + ", " + o.name + " in " + describe(home);
        return placement;
    }
    const Home wanted = requested == TDLS_BACKEND_AUTO ? first : Home{requested, context.device};
    if (decided && !(first == wanted)) {
        placement.problem = TDLS_ERROR_INVALID_VALUE;
        placement.why = std::string(first_name) + " is " + describe(first) + ", but the handle's backend runs on " +
                        describe(wanted);
        return placement;
    }
    placement.backend = wanted.backend;
    placement.device = wanted.device;
    return placement;
}

std::string misplaced_entry(const kernels::BatchCall& call) {
    const kernels::BatchOperands& ops = call.operands;
    if (ops.form != kernels::BatchForm::Pointers || ops.batch <= 0 || ops.n <= 0) return {};
    const bool uses_b = call.operation != kernels::Operation::Getrf && ops.nrhs > 0;
    struct Array {
        const char* name;
        const void* const* entries;
    };
    const Array arrays[] = {
        {"A_array", ops.A_array},
        {"ipiv_array", reinterpret_cast<const void* const*>(ops.ipiv_array)},
        {"B_array", uses_b ? ops.B_array : nullptr},
    };
    const std::int64_t probes[] = {0, ops.batch - 1};
    for (const Array& a : arrays) {
        if (a.entries == nullptr) continue;
        for (std::int64_t s : probes) {
            const Home home = home_of(a.entries[s]);
            if (home.backend == TDLS_BACKEND_CPU) continue;
            return std::string(a.name) + " is in host memory, but " + a.name + "[" + std::to_string(s) +
                   "] points to " + describe(home) +
                   ": a GPU solve needs the pointer arrays themselves in device memory (copy them there)";
        }
    }
    return {};
}

} // namespace tdls::runtime
