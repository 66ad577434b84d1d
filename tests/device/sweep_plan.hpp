// The cases of the correctness sweep, and how many there must be.
#pragma once

#include <cstdint>
#include <vector>

#include "geometry.hpp"
#include "common/plan.hpp"

namespace tdls_device {

enum class SweepSize {
    full,  // n = 1..33 and 40 .. 256, every type
    quick, // n = 1..17, 32, 33, 64, 100, 128; complex at 1, 2, 7, 16, 17, 32, 33, 64, 100
    small  // a few cases for compute-sanitizer
};

const char* name(SweepSize size);

/// Every case, in run order. Within each (n, type, layout) group the variants
/// come in the same order and are an odd number, so alternating the GPU way
/// by case index gives every variant both ways over consecutive groups.
std::vector<Case> sweep_cases(SweepSize size);

/// The number of cases the sweep defines, counted from its definition
/// (orders x types x layouts x variants), not from the list: the floor the
/// run must reach.
std::int64_t expected_case_count(SweepSize size);

/// Whether the CUDA plugin refuses case c (TDLS_ERROR_NOT_SUPPORTED) by
/// design on this device: its order takes the block kernel, whose system
/// does not fit the block's shared memory, and the in-place fallback needs
/// the matrix packed (lda = n, or interleaved). Predicted by the library's
/// own plan (kernels/common/plan.cpp) from the device's properties: a refusal the plan
/// does not predict, or a solve where it predicts one, fails the case.
bool refused_by_design(const Case& c, const tdls::runtime::DeviceProperties& device);

/// Systems per case: about a thousand for small n, where systems are
/// cheap, down to a few dozen at n > 129.
std::int64_t batch_for(std::int64_t n);

} // namespace tdls_device
