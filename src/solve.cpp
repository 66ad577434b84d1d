#include "solve.hpp"

#include <algorithm>

#include "backends/cpu/cpu_backend.hpp"
#include "handle.hpp"
#include "plan.hpp"
#include "registry.hpp"
#include "status.hpp"
#include "validate.hpp"

namespace tdls::runtime {

void solve(const char* function, tdls_handle_t handle, tdls_dtype_t dtype, tdls_layout_t layout,
           kernels::BatchCall call) {
    const Context context = context_of(function, handle);
    call.operands.row_major = layout == TDLS_ROW_MAJOR;
    validate(function, dtype, layout, call);

    kernels::BatchOperands& ops = call.operands;
    if (ops.batch == 0) return;
    if (ops.n == 0) { // every system is empty and nonsingular
        if (ops.info != nullptr) std::fill(ops.info, ops.info + ops.batch, 0);
        return;
    }
    if (call.operation == kernels::Operation::Getrs && ops.nrhs == 0) return;

    switch (resolve_backend(function, context.backend)) {
    case TDLS_BACKEND_CPU: {
        // The CPU plan is one thread per system holding every row; it is
        // asked anyway, so that every backend goes through the same gate.
        const Plan plan = make_plan(ops.n, dtype, layout, cpu_properties(context.cpu_threads));
        const kernels::cpu::CpuKernel kernel = cpu_kernel(dtype, call.operands.row_major, ops.n);
        if (!plan.supported || kernel.run == nullptr)
            fail(TDLS_ERROR_NOT_SUPPORTED, function, "no CPU instance for n (", ops.n, ") in this build");
        call.pivot_threshold = context.pivot_threshold;
        cpu::run(call, kernel, context.arena.get());
        return;
    }
    default:
        fail(TDLS_ERROR_INTERNAL, function, "a backend was resolved that this build cannot run");
    }
}

} // namespace tdls::runtime
