#include "cpu_backend.hpp"

#include <algorithm>

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>

#include "arena.hpp"

namespace tdls::runtime::cpu {

std::int64_t grain_size(std::int64_t n, std::int64_t nrhs, int lanes) noexcept {
    // About 2^16 flops per task: a task costs ~1 microsecond to schedule.
    const std::int64_t flops =
        std::max<std::int64_t>(1, n * n * n + 2 * n * n * std::max<std::int64_t>(nrhs, 1)) * lanes;
    return std::max<std::int64_t>(1, (std::int64_t(1) << 16) / flops);
}

void run(const kernels::BatchCall& call, kernels::cpu::CpuKernel kernel, Arena* arena) {
    const std::int64_t batch = call.operands.batch;
    const std::int64_t lanes = kernel.lanes;
    const std::int64_t tiles = (batch + lanes - 1) / lanes;
    const std::int64_t grain = grain_size(call.operands.n, call.operands.nrhs, kernel.lanes);
    const auto solve_all = [&] {
        if (tiles <= grain) { // one task: no scheduling at all
            kernel.run(call, 0, batch);
            return;
        }
        oneapi::tbb::parallel_for(oneapi::tbb::blocked_range<std::int64_t>(0, tiles, grain),
                                  [&](const oneapi::tbb::blocked_range<std::int64_t>& range) {
                                      kernel.run(call, range.begin() * lanes,
                                                 std::min(range.end() * lanes, batch));
                                  });
    };
    if (arena)
        arena->execute(solve_all);
    else
        solve_all();
}

} // namespace tdls::runtime::cpu
