// Deterministic inputs: every value is a pure function of (seed, index), so
// that generation can be split over threads and every run, on every machine,
// solves the same numbers.
#pragma once

#include <cstdint>

#include <tdls/core/math.hpp>

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

/// Element `index` of the stream: uniform_pm1 for a real T; for a complex
/// one, both parts in [-1, 1), from the stream's elements 2 index and
/// 2 index + 1.
template <typename T>
T value_pm1(std::uint64_t seed, std::uint64_t index) {
    if constexpr (tdls::is_complex_scalar_v<T>) {
        using R = tdls::real_type_t<T>;
        return T(uniform_pm1<R>(seed, 2 * index), uniform_pm1<R>(seed, 2 * index + 1));
    } else {
        return uniform_pm1<T>(seed, index);
    }
}

} // namespace tdls_device
