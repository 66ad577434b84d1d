// libtdls fuzzing: turning libFuzzer's bytes into call arguments. Every
// harness reads its input front to back through one Input: fields first
// (enum values, sizes, leading dimensions, strides, flags), matrix contents
// from what is left. Exhausted input reads as zero bytes, so every byte
// string is a valid input and a short one is a small, mostly valid call.
// fuzz/README.md documents the layout of each harness.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include <tdls/core/math.hpp>

namespace tdls_fuzz {

inline constexpr std::int64_t int64_max = std::numeric_limits<std::int64_t>::max();
inline constexpr std::int64_t int64_min = std::numeric_limits<std::int64_t>::min();

/// a + b, saturated at the int64 limits (decoded values are arbitrary).
inline std::int64_t saturated_add(std::int64_t a, std::int64_t b) {
    std::int64_t sum;
    if (__builtin_add_overflow(a, b, &sum)) return b > 0 ? int64_max : int64_min;
    return sum;
}

/// a * b, saturated at the int64 limits.
inline std::int64_t saturated_mul(std::int64_t a, std::int64_t b) {
    std::int64_t product;
    if (__builtin_mul_overflow(a, b, &product)) return (a < 0) != (b < 0) ? int64_min : int64_max;
    return product;
}

class Input {
  public:
    Input(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

    std::size_t remaining() const { return size_ - position_; }

    std::uint8_t byte() { return position_ < size_ ? data_[position_++] : 0; }

    /// sizeof(T) bytes as they lie (raw bits: every pattern occurs).
    template <typename T>
    T raw() {
        static_assert(std::is_trivially_copyable_v<T>);
        unsigned char bytes[sizeof(T)] = {};
        for (unsigned char& b : bytes) b = byte();
        T value;
        std::memcpy(&value, bytes, sizeof value);
        return value;
    }

    /// True with probability about 1 / one_in (one byte).
    bool one_in(unsigned one_in) { return byte() % one_in == 0; }

    /// An enum argument: mostly one of the `count` valid values, sometimes a
    /// raw int32 (negative, just past the last enumerator, anything).
    std::int32_t enumerator(std::int32_t count) {
        const std::uint8_t b = byte();
        if (b < 0xF0) return b % count;
        if (b < 0xF4) return count + (b & 3); // just past the last enumerator
        if (b < 0xF8) return -1 - (b & 3);
        return raw<std::int32_t>();
    }

    /// An order or a count: mostly in [low, high], sometimes a value from the
    /// edges of the contract (0, the largest order, one past it) or a raw
    /// int64 (huge, negative).
    std::int64_t size(std::int64_t low, std::int64_t high) {
        const std::uint8_t b = byte();
        if (b < 0xE8) return low + b % (high - low + 1);
        switch (b & 7) {
        case 0:
            return 1024;
        case 1:
            return 1025;
        case 2:
        case 3:
        case 4:
            return extreme(b & 7);
        case 5:
            return std::int64_t(1) << 31;
        case 6:
            return 64 + (byte() & 7) - 2; // around the SIMD kernels' largest order
        default:
            return raw<std::int64_t>();
        }
    }

    /// A leading dimension or stride: mostly `minimum` plus a small delta,
    /// sometimes an arbitrary value (negative, below the minimum, huge).
    std::int64_t at_least(std::int64_t minimum) {
        const std::uint8_t b = byte();
        if (b < 0x80) return minimum;
        if (b < 0xE8) return saturated_add(minimum, b % 9);
        switch (b & 7) {
        case 0:
            return saturated_add(minimum, -1);
        case 1:
            return 0;
        case 2:
        case 3:
        case 4:
            return extreme(b & 7);
        case 5:
            // Half the time around the largest addressable footprint (README
            // "Footprints"), where validation and the kernels' offsets meet.
            return byte() & 1 ? saturated_add(minimum, raw<std::int16_t>()) : footprint_edge(byte());
        default:
            return raw<std::int64_t>();
        }
    }

    /// Values near 2^63 / size for the element sizes 4 and 8 and near the
    /// strides of the reproducers (issue 22), off by a little.
    static std::int64_t footprint_edge(std::uint8_t b) {
        constexpr std::int64_t bases[] = {std::int64_t(1) << 60, std::int64_t(1) << 61, std::int64_t(1) << 62,
                                          int64_max / 8, int64_max / 4, int64_max / 2, int64_max - 3,
                                          std::int64_t(1) << 31};
        return saturated_add(bases[b & 7], std::int64_t((b >> 3) & 7) - 3);
    }

    /// A raw seed of the rest of the input, for contents past its end.
    std::uint64_t digest() const {
        std::uint64_t h = 0x9E3779B97F4A7C15ull ^ size_;
        for (std::size_t i = 0; i < size_; ++i) h = (h ^ data_[i]) * 0x100000001B3ull;
        return h;
    }

  private:
    /// What size() and at_least() both give for the selector values 2..4 of
    /// their edge cases: -1 and the int64 extremes (overflow in any size
    /// arithmetic). One table, so the two fields cannot drift apart.
    static std::int64_t extreme(int selector) {
        constexpr std::int64_t values[] = {-1, int64_max, int64_min};
        return values[selector - 2];
    }

    const std::uint8_t* data_;
    std::size_t size_;
    std::size_t position_ = 0;
};

/// How matrix contents are drawn from the bytes (a complex element: its real
/// part, then its imaginary part, each drawn as a real one).
enum class Contents : std::uint8_t {
    Raw,    ///< sizeof(T) raw bytes per real: NaN, Inf, subnormal bit patterns
    Small,  ///< integers -4..4 from one byte: often singular, exact arithmetic
    Scaled, ///< int16 / 256 from two bytes, with one byte in 32 a special value
    Count
};

/// Writes `count` elements, taking the input's remaining bytes first, then a
/// generator seeded from the input (so long inputs are not needed for big
/// systems, and the same input always gives the same contents).
template <typename T>
class ContentSource {
  public:
    ContentSource(Input& input, Contents mode) : input_(input), mode_(mode), state_(input.digest() | 1) {}

    T next() {
        if constexpr (tdls::is_complex_scalar_v<T>) {
            const auto re = next_real<tdls::real_type_t<T>>();
            return T(re, next_real<tdls::real_type_t<T>>());
        } else {
            return next_real<T>();
        }
    }

    void fill(T* p, std::size_t count) {
        for (std::size_t i = 0; i < count; ++i) p[i] = next();
    }

  private:
    template <typename R>
    R next_real() {
        switch (mode_) {
        case Contents::Raw: {
            using Bits = std::conditional_t<sizeof(R) == 4, std::uint32_t, std::uint64_t>;
            Bits bits = 0;
            for (std::size_t i = 0; i < sizeof(R); ++i) bits |= Bits(next_byte()) << (8 * i);
            R value;
            std::memcpy(&value, &bits, sizeof value);
            return value;
        }
        case Contents::Small:
            return R(int(next_byte() % 9) - 4);
        default: {
            const std::uint8_t selector = next_byte();
            if (selector >= 0xF8) return special<R>(selector & 7);
            const std::int16_t mantissa = std::int16_t(next_byte() | (next_byte() << 8));
            return R(mantissa) / R(256);
        }
        }
    }

    std::uint8_t next_byte() {
        if (input_.remaining() > 0) return input_.byte();
        state_ ^= state_ << 13; // xorshift64
        state_ ^= state_ >> 7;
        state_ ^= state_ << 17;
        return std::uint8_t(state_ >> 32);
    }

    template <typename R>
    static R special(int which) {
        using limits = std::numeric_limits<R>;
        switch (which) {
        case 0:
            return limits::quiet_NaN();
        case 1:
            return limits::infinity();
        case 2:
            return -limits::infinity();
        case 3:
            return limits::denorm_min();
        case 4:
            return limits::min() / R(3); // subnormal
        case 5:
            return limits::max();
        case 6:
            return -R(0);
        default:
            return limits::min();
        }
    }

    Input& input_;
    Contents mode_;
    std::uint64_t state_;
};

} // namespace tdls_fuzz
