// libtdls: a real number usable inside a class-type template argument.
//
// The solver configuration is a template argument. C++20 allows floating-point
// members there, but clang before 18 (hipcc among them) does not, so the
// configuration stores its real knobs as the exact binary decomposition of the
// value: sign * mantissa * 2^exponent, or an infinity, or a NaN. Conversion in
// both directions is exact for float, double and x87 long double.
#pragma once

#include <cstdint>
#include <limits>

namespace tdls {

template <typename T>
struct StructuralReal {
    enum class Kind : unsigned char { Finite, Infinity, NaN };

    // Public members: a structural type may have no private data.
    std::uint64_t mantissa = 0;
    int exponent = 0;
    bool negative = false;
    Kind kind = Kind::Finite;

    constexpr StructuralReal() = default;

    /// From the decomposition itself. nvcc spells class-type template
    /// arguments as brace lists of the members in the host code it generates,
    /// so this constructor must accept exactly that list.
    constexpr StructuralReal(std::uint64_t mantissa_, int exponent_, bool negative_, Kind kind_) noexcept
        : mantissa(mantissa_), exponent(exponent_), negative(negative_), kind(kind_) {}

    /// Decomposes v exactly.
    constexpr StructuralReal(T v) noexcept { // NOLINT: implicit, for designated initializers
        if (v != v) {
            kind = Kind::NaN;
            return;
        }
        negative = v < T(0);
        T a = negative ? -v : v;
        if (a > std::numeric_limits<T>::max()) {
            kind = Kind::Infinity;
            return;
        }
        if (a == T(0)) return;
        // Scale a into [2^63, 2^64) by powers of two, which is exact.
        constexpr T two32 = T(4294967296.0);
        constexpr T two63 = T(9223372036854775808.0);
        constexpr T two64 = two63 * T(2);
        while (a < two63 / two32) {
            a *= two32;
            exponent -= 32;
        }
        while (a < two63) {
            a *= T(2);
            exponent -= 1;
        }
        while (a >= two64 * two32) {
            a /= two32;
            exponent += 32;
        }
        while (a >= two64) {
            a /= T(2);
            exponent += 1;
        }
        mantissa = static_cast<std::uint64_t>(a);
    }

    /// The value, exactly as it was given.
    constexpr T value() const noexcept {
        if (kind == Kind::NaN) return std::numeric_limits<T>::quiet_NaN();
        if (kind == Kind::Infinity)
            return negative ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::infinity();
        // The mantissa has at most digits(T) significant bits: its conversion
        // is exact, and so is every scaling by a power of two towards the value.
        T a = static_cast<T>(mantissa);
        int e = exponent;
        constexpr T two32 = T(4294967296.0);
        for (; e >= 32; e -= 32) a *= two32;
        for (; e > 0; --e) a *= T(2);
        for (; e <= -32; e += 32) a /= two32;
        for (; e < 0; ++e) a /= T(2);
        return negative ? -a : a;
    }

    constexpr operator T() const noexcept { return value(); } // NOLINT: implicit by design

    friend constexpr bool operator==(const StructuralReal&, const StructuralReal&) = default;
};

} // namespace tdls
