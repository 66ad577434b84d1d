// libtdls: definition of the CPU range kernel; included by the generated
// instantiation sources only, so that each instance is compiled once.
#pragma once

#include <cstdint>

#include "range_kernel.hpp"
#include "system_solver.hpp"

namespace tdls::kernels::cpu {

template <typename T, int StaticN, bool RowMajor, bool Fused>
void solve_range(const BatchCall& call, std::int64_t begin, std::int64_t end) {
    using Solver = SystemSolver<T, StaticN, RowMajor, Fused>;
    const BatchOperands& ops = call.operands;
    const int n = static_cast<int>(ops.n);
    typename Solver::Scratch scratch(n);
    const real_type_t<T> tau = static_cast<real_type_t<T>>(call.pivot_threshold);
    for (std::int64_t s = begin; s < end; ++s) {
        const SystemView<T> view = view_of<T>(ops, s);
        switch (call.operation) {
        case Operation::Gesv:
            ops.info[s] = Solver::gesv(view, n, ops.nrhs, tau, scratch);
            break;
        case Operation::Getrf:
            ops.info[s] = Solver::gesv(view, n, 0, tau, scratch);
            break;
        case Operation::Solve:
            ops.info[s] = Solver::solve(view, n, ops.nrhs, tau, scratch);
            break;
        case Operation::Getrs:
            // getrs has no info: a system whose pivots turn out invalid
            // here keeps its B untouched (tdls.h).
            (void)Solver::getrs(view, n, ops.nrhs, scratch);
            break;
        }
    }
}

} // namespace tdls::kernels::cpu

/// One explicit instantiation line of a generated source.
#define TDLS_CPU_INSTANTIATE(T, N, ROW_MAJOR)                                                                \
    template void tdls::kernels::cpu::solve_range<T, N, ROW_MAJOR>(const tdls::kernels::BatchCall&,          \
                                                                   std::int64_t, std::int64_t);
