// The bitwise comparator: the GPU backend must leave exactly the bits the CPU
// backend leaves under TDLS_CPU_KERNEL=gpu_reference (same solver, the same
// explicit fused multiply-adds and nothing else contracted), padding
// included. It reports the first differing element and how many differ.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include <tdls/core/math.hpp>

namespace tdls_device {

struct Mismatch {
    std::string buffer;
    std::int64_t index = 0;   // element in the buffer
    std::int32_t system = -1; // -1: padding
    std::string expected, actual;
    std::int64_t count = 0; // differing elements in scope
};

/// Which elements a comparison looks at.
struct Scope {
    bool padding = true;                                // elements of no system
    const std::vector<std::uint8_t>* systems = nullptr; // null: every system, else those marked 1
    // Systems where any NaN equals any NaN: x86 and NVIDIA GPUs produce NaNs
    // with different payloads, and getrs on a singular U may produce NaNs.
    const std::vector<std::uint8_t>* nan_equal = nullptr;
};

inline Scope padding_only() {
    static const std::vector<std::uint8_t> none;
    Scope scope;
    scope.systems = &none;
    return scope;
}

template <typename E>
std::string show(E value) {
    char text[96];
    if constexpr (tdls::is_complex_scalar_v<E>) {
        std::string both = show(value.real()); // appended, not "(" + ...: GCC 12's -Wrestrict misfires there
        both.insert(0, 1, '(');
        both += ", ";
        both += show(value.imag());
        both += ')';
        return both;
    } else if constexpr (std::is_same_v<E, float>) {
        std::uint32_t bits;
        std::memcpy(&bits, &value, sizeof bits);
        std::snprintf(text, sizeof text, "%.9g (0x%08x)", double(value), unsigned(bits));
    } else if constexpr (std::is_same_v<E, double>) {
        std::uint64_t bits;
        std::memcpy(&bits, &value, sizeof bits);
        std::snprintf(text, sizeof text, "%.17g (0x%016llx)", value, (unsigned long long)bits);
    } else {
        std::snprintf(text, sizeof text, "%lld", (long long)value);
    }
    return text;
}

template <typename E>
bool same_bits(const E& x, const E& y) {
    return std::memcmp(&x, &y, sizeof(E)) == 0;
}

/// Whether a scalar is NaN: a complex one when either part is.
template <typename E>
bool is_nan(const E& x) {
    if constexpr (tdls::is_complex_scalar_v<E>)
        return std::isnan(x.real()) || std::isnan(x.imag());
    else
        return std::isnan(x);
}

/// The first element in scope whose bits differ between expected and actual
/// (buffers of equal length; owner from OperandMap::owners()), or nothing.
template <typename E>
std::optional<Mismatch> compare_bits(const char* buffer, const std::vector<E>& expected,
                                     const std::vector<E>& actual, const std::vector<std::int32_t>& owner,
                                     const Scope& scope = Scope{}) {
    if (expected.size() != actual.size() || expected.size() != owner.size()) {
        Mismatch m;
        m.buffer = buffer;
        m.expected = std::to_string(expected.size()) + " elements";
        m.actual = std::to_string(actual.size()) + " elements";
        m.count = 1;
        return m;
    }
    const bool everything = scope.padding && scope.systems == nullptr && scope.nan_equal == nullptr;
    if (everything &&
        (expected.empty() || std::memcmp(expected.data(), actual.data(), expected.size() * sizeof(E)) == 0))
        return std::nullopt;
    std::optional<Mismatch> first;
    std::int64_t count = 0;
    for (std::size_t p = 0; p < expected.size(); ++p) {
        const std::int32_t s = owner[p];
        const bool in_scope = s < 0 ? scope.padding
                                    : scope.systems == nullptr || (std::size_t(s) < scope.systems->size() &&
                                                                   (*scope.systems)[std::size_t(s)]);
        if (!in_scope || same_bits(expected[p], actual[p])) continue;
        if constexpr (!std::is_integral_v<E>)
            if (s >= 0 && scope.nan_equal != nullptr && (*scope.nan_equal)[std::size_t(s)] &&
                is_nan(expected[p]) && is_nan(actual[p]))
                continue;
        if (count++ == 0) first = Mismatch{buffer, std::int64_t(p), s, show(expected[p]), show(actual[p]), 0};
    }
    if (first) first->count = count;
    return first;
}

/// One line for a report.
inline std::string explain(const Mismatch& m) {
    std::string where = m.system < 0 ? "padding" : "system " + std::to_string(m.system);
    return m.buffer + ": " + std::to_string(m.count) + " element(s) differ; first at element " +
           std::to_string(m.index) + " (" + where + "): expected " + m.expected + ", got " + m.actual;
}

} // namespace tdls_device
