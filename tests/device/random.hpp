// Deterministic inputs: every value is a pure function of (seed, index), so
// that generation can be split over threads and every run, on every machine,
// solves the same numbers.
#pragma once

#include <cstdint>

namespace tdls_device {

/// SplitMix64's finalizer: a bijection that spreads every input bit.
inline std::uint64_t mix(std::uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/// A value in [-1, 1) for element `index` of the stream `seed`; 53 random
/// bits, rounded once to T.
template <typename T>
T uniform_pm1(std::uint64_t seed, std::uint64_t index) {
    const std::uint64_t bits = mix(mix(seed) ^ index);
    const double unit = double(bits >> 11) * 0x1p-53;
    return T(2.0 * unit - 1.0);
}

} // namespace tdls_device
