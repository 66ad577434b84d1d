#include "cpu_backend.hpp"

#include <algorithm>

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
    // Ranges of whole tiles; of the systems sharing cache lines where the
    // kernel takes those together.
    const int lanes = call.operands.form == kernels::BatchForm::Interleaved
                          ? std::max(kernel.lanes, kernel.side_by_side)
                          : kernel.lanes;
    const std::int64_t tiles = (batch + lanes - 1) / lanes;
    const std::int64_t grain = grain_size(call.operands.n, call.operands.nrhs, lanes);
    if (tiles <= grain) { // one task: no scheduling at all
        kernel.run(call, 0, batch);
        return;
    }
    parallel_tiles(tiles, grain, arena, [&](std::int64_t first, std::int64_t last) {
        kernel.run(call, first * lanes, std::min(last * lanes, batch));
    });
}

} // namespace tdls::runtime::cpu
