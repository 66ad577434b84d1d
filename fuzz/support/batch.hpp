// libtdls fuzzing: what the compute harnesses share beyond decoding: the
// handles a call may run on, the limits that keep one input fast, and the
// check that a call wrote nothing outside its systems.
#pragma once

#include <tdls/tdls.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "input.hpp"
#include "oracle.hpp"

namespace tdls_fuzz {

/// Elements one operand may have, and the work one input may ask for
/// (about n^3 + n^2 nrhs multiply-adds per system); a decoded call above
/// them is shrunk, not skipped.
inline constexpr std::int64_t element_cap = std::int64_t(1) << 18;
inline constexpr std::int64_t work_cap = std::int64_t(1) << 21;
/// Systems one call may have: enough for the CPU backend's parallel loop
/// (n >= 4), few enough that the per-system checks stay cheap.
inline constexpr std::int64_t batch_cap = 4096;
/// Orders between this and TDLS_MAX_ORDER are folded below it, just past
/// 64 (where the SIMD tiles exchange rows lane by lane): a 1024 x 1024
/// solve under ASan and coverage tracing would take seconds. The blocked
/// kernel past the tiles' 256 is not reached here; test_capi_footprint
/// runs it on exact-size buffers under ASan instead.
inline constexpr std::int64_t order_cap = 72;
/// Elements of the small buffers passed to a call the contract refuses.
inline constexpr std::int64_t refused_elements = 16;

inline std::int64_t fold_order(std::int64_t n) {
    return n > order_cap && n <= TDLS_MAX_ORDER ? 65 + n % (order_cap - 64) : n;
}

/// Moves an oversized leading dimension or stride back to within 8 of its
/// minimum (keeping its excess mod 9, so the decoded padding still varies);
/// false when it is already there, so a caller tries the next knob.
/// The excess is taken in unsigned arithmetic: value - minimum can exceed
/// INT64_MAX (a minimum saturated at INT64_MIN), and it is below 2^64.
inline bool shrink_towards(std::int64_t& value, std::int64_t minimum) {
    if (value <= saturated_add(minimum, 8)) return false;
    const std::uint64_t excess = std::uint64_t(value) - std::uint64_t(minimum);
    value = minimum + std::int64_t(excess % 9);
    return true;
}

/// The last resorts of every fit(), once the leading dimensions and strides
/// are at their minimum: nrhs back to 0..8, then half the batch. False when
/// nothing is left to shrink.
inline bool shrink_nrhs_then_batch(std::int64_t& nrhs, std::int64_t& batch) {
    if (nrhs > 8) {
        nrhs %= 9;
        return true;
    }
    if (batch <= 1) return false;
    batch /= 2;
    return true;
}

inline std::int64_t work_of(std::int64_t n, std::int64_t nrhs) {
    return saturated_add(saturated_mul(saturated_mul(n, n), n), saturated_mul(saturated_mul(n, n), nrhs));
}

/// The context of a compute call: the default one (NULL) or a handle made
/// once per process (a oneTBB arena per input would cost more than the call).
struct Context {
    tdls_handle_t handle;
    double tau;
};

inline Context context(std::uint8_t selector) {
    struct Made {
        Context one_thread{}, tau_half{}, tau_small{};
        Made() {
            tdls_create(&one_thread.handle, TDLS_BACKEND_CPU, 0);
            tdls_set_num_threads(one_thread.handle, 1);
            one_thread.tau = 1.0;
            tdls_create(&tau_half.handle, TDLS_BACKEND_AUTO, 0);
            tdls_set_pivot_threshold(tau_half.handle, 0.5);
            tau_half.tau = 0.5;
            tdls_create(&tau_small.handle, TDLS_BACKEND_CPU, 0);
            tdls_set_pivot_threshold(tau_small.handle, 1e-3);
            tau_small.tau = 1e-3;
        }
    };
    static const Made made; // never destroyed: the process ends with them
    switch (selector % 4) {
    case 1:
        return made.one_thread;
    case 2:
        return made.tau_half;
    case 3:
        return made.tau_small;
    default:
        return Context{nullptr, 1.0};
    }
}

/// Elements of each operand handed to a call whose operands are one
/// allocation each (strided and interleaved forms).
struct Footprints {
    std::int64_t A = 0, ipiv = 0, B = 0, info = 0;
};

/// One operand: the memory handed to the call and its copy from before.
template <typename E>
struct Operand {
    std::vector<E> memory, before;
    bool given = true;

    E* data() { return given ? memory.data() : nullptr; }
    void allocate(std::int64_t elements) {
        memory.assign(std::size_t(std::max<std::int64_t>(elements, 1)), E{});
    }
    void keep() { before = memory; }
    bool unchanged() const { return same_bits(memory, before); }
};

/// Every element outside the systems' own ones still holds its old bits.
/// System s owns base[s*step + r + c*ld] for r < rows, c < cols (the
/// elements' layout inside the batch for the strided forms; Pointers: one
/// system per allocation, step 0, batch 1).
template <typename E>
bool outside_unchanged(const Operand<E>& operand, std::int64_t batch, std::int64_t step, std::int64_t rows,
                       std::int64_t cols, std::int64_t ld) {
    std::vector<E> expected = operand.before;
    for (std::int64_t s = 0; s < batch; ++s)
        for (std::int64_t c = 0; c < cols; ++c)
            for (std::int64_t r = 0; r < rows; ++r) {
                const std::size_t at = std::size_t(s * step + r + c * ld);
                expected[at] = operand.memory[at];
            }
    return same_bits(expected, operand.memory);
}

/// Orders past which no system gets the backward-error check: its oracle
/// (long double, cubic; for getrs also the product of the factors) took 16 s
/// per system at n = 1024 under ASan and coverage, past libFuzzer's 10 s
/// timeout (fuzz_magma_family, a getrs of order 1024). Such systems keep
/// every other check (verdict, pivots, footprint, B where singular).
inline constexpr std::int64_t residual_order_cap = 256;

/// Which systems get the (cubic) backward-error check: all when that is
/// cheap, else an even sample, the first and the last included; none past
/// residual_order_cap.
inline bool residual_sampled(std::int64_t s, std::int64_t batch, std::int64_t n) {
    if (n > residual_order_cap) return false;
    const std::int64_t per_system = std::max<std::int64_t>(1, work_of(n, 1));
    const std::int64_t every =
        std::max<std::int64_t>(1, saturated_mul(batch, per_system) / (std::int64_t(1) << 18));
    return s % every == 0 || s == batch - 1;
}

} // namespace tdls_fuzz
