// Negative controls: each check of a case is shown a wrong result, made from
// the real one by the smallest change it must see (one flipped low bit, one
// wrong verdict, one spoilt solution), and must report it. A check that
// passes them all would pass anything.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "checks.hpp"
#include "compare.hpp"
#include "images.hpp"

namespace tdls_device {

/// How many controls run_negative_controls runs: the floor the sweep checks.
inline constexpr int negative_control_count = 9;

struct NegativeControls {
    int run = 0;
    int detected = 0;
    std::vector<std::string> missed; // the controls nobody reported
};

/// Flips the lowest bit of element p.
template <typename E>
void flip_low_bit(std::vector<E>& buffer, std::int64_t p) {
    unsigned char bytes[sizeof(E)];
    std::memcpy(bytes, &buffer[std::size_t(p)], sizeof(E));
    bytes[0] ^= 1u; // little-endian: the least significant bit
    std::memcpy(&buffer[std::size_t(p)], bytes, sizeof(E));
}

/// Needs a gesv case with nrhs > 0 and at least 7 systems (system 6 singular).
template <typename T>
NegativeControls run_negative_controls(const Case& c, const Geometry& g, const Images<T>& input,
                                       const Images<T>& cpu, const Images<T>& gpu,
                                       const std::vector<std::uint8_t>& singular) {
    NegativeControls result;
    auto expect = [&](bool reported, const char* control) {
        ++result.run;
        if (reported)
            ++result.detected;
        else
            result.missed.push_back(std::string(control) + " in " + describe(c));
    };
    const std::vector<std::int32_t> owners_a = g.a.owners(), owners_ipiv = g.ipiv.owners();
    const std::vector<std::int32_t> owners_b = g.b.owners(), owners_info = g.info.owners();
    const std::int64_t first = 0, singular_system = 6; // made_singular(6)

    // The bitwise comparator, on each buffer.
    {
        Images<T> spoilt = gpu;
        flip_low_bit(spoilt.a, g.a.at(first, c.n - 1, c.n - 1));
        flip_low_bit(spoilt.ipiv, g.ipiv.at(first, 0, 0));
        flip_low_bit(spoilt.b, g.b.at(first, c.n - 1, c.nrhs - 1));
        flip_low_bit(spoilt.info, g.info.at(first, 0, 0));
        expect(compare_bits("A", cpu.a, spoilt.a, owners_a).has_value(), "one bit of A flipped");
        expect(compare_bits("ipiv", cpu.ipiv, spoilt.ipiv, owners_ipiv).has_value(),
               "one bit of ipiv flipped");
        expect(compare_bits("B", cpu.b, spoilt.b, owners_b).has_value(), "one bit of B flipped");
        expect(compare_bits("info", cpu.info, spoilt.info, owners_info).has_value(),
               "one bit of info flipped");
    }
    // The padding check, on the last tail guard element of A.
    {
        std::vector<T> spoilt = gpu.a;
        flip_low_bit(spoilt, std::int64_t(spoilt.size()) - 1);
        expect(compare_bits("A", input.a, spoilt, owners_a, padding_only()).has_value(),
               "one bit of padding flipped");
    }
    // The check that a singular system's B stays as it was.
    {
        std::vector<T> spoilt = gpu.b;
        flip_low_bit(spoilt, g.b.at(singular_system, 0, 0));
        Scope singular_only;
        singular_only.padding = false;
        singular_only.systems = &singular;
        expect(compare_bits("B", input.b, spoilt, owners_b, singular_only).has_value(),
               "one bit of a singular system's B flipped");
    }
    // The verdict check: a singular system reported regular.
    {
        std::vector<std::int32_t> spoilt = gpu.info;
        spoilt[std::size_t(g.info.at(singular_system, 0, 0))] = 0;
        expect(!check_verdicts(c, g, spoilt).empty(), "a singular system's info set to 0");
    }
    // The pivot range check: a pivot pointing above its row.
    {
        std::vector<std::int32_t> spoilt = gpu.ipiv;
        spoilt[std::size_t(g.ipiv.at(first, c.n - 1, 0))] = std::int32_t(c.n - 1); // row n-1 may only keep n
        expect(!check_pivot_range(c, g, spoilt).empty(), "a pivot outside i..n");
    }
    // The backward error: one solution component off by 1.
    {
        std::vector<T> spoilt = gpu.b;
        spoilt[std::size_t(g.b.at(first, 0, 0))] += T(1);
        std::vector<std::uint8_t> only_first(std::size_t(c.batch));
        only_first[std::size_t(first)] = 1;
        expect(backward_errors(c, g, input.a, input.b, spoilt, only_first).failed > 0,
               "a solution component off by 1");
    }
    return result;
}

} // namespace tdls_device
