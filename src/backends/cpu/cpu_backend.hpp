// libtdls: the CPU backend: the systems of a call spread over oneTBB workers
// (the handle's arena, or all of them), each range solved by a precompiled
// CPU kernel on the calling worker.
#pragma once

#include "common/batch_call.hpp"
#include "cpu/range_kernel.hpp"

namespace tdls::runtime::cpu {

class Arena;

/// Solves every system of the call; returns when done. Tasks get whole
/// tiles of kernel.lanes systems.
void run(const kernels::BatchCall& call, kernels::cpu::CpuKernel kernel, Arena* arena);

/// Tiles of `lanes` systems per task: enough arithmetic per task to amortize
/// its scheduling.
std::int64_t grain_size(std::int64_t n, std::int64_t nrhs, int lanes) noexcept;

} // namespace tdls::runtime::cpu
