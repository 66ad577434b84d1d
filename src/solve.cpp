#include "solve.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "backends/cpu/cpu_backend.hpp"
#include "backends/plugin/gpu_backend.hpp"
#include "handle.hpp"
#include "placement.hpp"
#include "common/plan.hpp"
#include "registry.hpp"
#include "status.hpp"
#include "validate.hpp"

namespace tdls::runtime {

namespace {

/// The library's copies of a call's pointer arrays.
class PointerArrays {
  public:
    /// Copies the arrays of `ops` and points `ops` at the copies.
    void take(kernels::BatchOperands& ops) {
        const auto size = static_cast<std::size_t>(ops.batch);
        A_.assign(ops.A_array, ops.A_array + size);
        ops.A_array = A_.data();
        if (ops.ipiv_array != nullptr) {
            ipiv_.assign(ops.ipiv_array, ops.ipiv_array + size);
            ops.ipiv_array = ipiv_.data();
        }
        if (ops.B_array != nullptr && ops.nrhs > 0) {
            B_.assign(ops.B_array, ops.B_array + size);
            ops.B_array = B_.data();
        } else {
            ops.B_array = nullptr; // nrhs == 0: B is not touched, its array not read
        }
    }

  private:
    std::vector<void*> A_, B_;
    std::vector<std::int32_t*> ipiv_;
};

} // namespace

void solve(const char* function, tdls_handle_t handle, tdls_dtype_t dtype, tdls_layout_t layout,
           kernels::BatchCall call) {
    const Context context = context_of(function, handle);
    call.operands.row_major = layout == TDLS_ROW_MAJOR;
    kernels::BatchOperands& ops = call.operands;
    // Where the call runs decides what validation may read; a problem found
    // there is raised after the argument checks, which keep tdls.h's order.
    const Placement where = place(context, ops);
    // Contents are read only from memory known to be the host's.
    validate(function, dtype, layout, call, where.backend == TDLS_BACKEND_CPU && where.problem == TDLS_SUCCESS);
    if (where.problem != TDLS_SUCCESS) fail(where.problem, function, where.why);
    if (where.backend == TDLS_BACKEND_CPU) {
        const std::string misplaced = misplaced_entry(call);
        if (!misplaced.empty()) fail(TDLS_ERROR_INVALID_VALUE, function, misplaced);
    }

    if (ops.batch == 0) return;
    const bool nothing_to_solve = call.operation == kernels::Operation::Getrs && ops.nrhs == 0;
    call.pivot_threshold = context.pivot_threshold;
    if (where.backend != TDLS_BACKEND_CPU) {
        // n == 0 still clears info, on the device.
        if (ops.n > 0 && nothing_to_solve) return;
        gpu::run(function, where.backend, where.device, dtype, call, context);
        return;
    }
    if (ops.n == 0) { // every system is empty and nonsingular
        if (ops.info != nullptr) std::fill(ops.info, ops.info + ops.batch, 0);
        return;
    }
    if (nothing_to_solve) return;

    // The CPU plan is one thread per system holding every row; it is asked
    // anyway, so that every backend goes through the same gate.
    const Plan plan = make_plan(ops.n, dtype, layout, cpu_properties(context.cpu_threads));
    const kernels::cpu::CpuKernel kernel = cpu_kernel(dtype, call.operands.row_major, ops.n);
    if (!plan.supported || kernel.run == nullptr)
        fail(TDLS_ERROR_NOT_SUPPORTED, function, "no CPU instance for n (", ops.n, ") in this build");
    // The pointer arrays are caller memory the kernels would read per system,
    // after earlier systems were written: arrays stored inside an operand (a
    // contract violation) would then hand them garbage addresses. They are
    // read once, here, into the library's own copies, before anything is
    // written; validation read the same, unchanged, entries.
    PointerArrays copies;
    if (ops.form == kernels::BatchForm::Pointers) copies.take(ops);
    cpu::run(call, kernel, context.arena.get());
}

} // namespace tdls::runtime
