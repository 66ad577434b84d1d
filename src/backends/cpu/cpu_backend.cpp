#include "cpu_backend.hpp"

#include <algorithm>

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>

#include "arena.hpp"

namespace tdls::runtime::cpu {

std::int64_t grain_size(std::int64_t n, std::int64_t nrhs) noexcept {
    // About 2^16 flops per task: a task costs ~1 microsecond to schedule.
    const std::int64_t flops =
        std::max<std::int64_t>(1, n * n * n + 2 * n * n * std::max<std::int64_t>(nrhs, 1));
    return std::max<std::int64_t>(1, (std::int64_t(1) << 16) / flops);
}

void run(const kernels::BatchCall& call, kernels::cpu::RangeKernel kernel, Arena* arena) {
    const std::int64_t batch = call.operands.batch;
    const std::int64_t grain = grain_size(call.operands.n, call.operands.nrhs);
    const auto solve_all = [&] {
        if (batch <= grain) { // one task: no scheduling at all
            kernel(call, 0, batch);
            return;
        }
        oneapi::tbb::parallel_for(oneapi::tbb::blocked_range<std::int64_t>(0, batch, grain),
                                  [&](const oneapi::tbb::blocked_range<std::int64_t>& range) {
                                      kernel(call, range.begin(), range.end());
                                  });
    };
    if (arena)
        arena->execute(solve_all);
    else
        solve_all();
}

} // namespace tdls::runtime::cpu
