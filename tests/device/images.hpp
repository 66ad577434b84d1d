// Host images of a case's four buffers: the input, and what each backend
// left in them. Whole buffers, padding and guards included, so that one
// bitwise comparison covers everything a call may or may not write.
#pragma once

#include <cstdint>
#include <vector>

#include "geometry.hpp"
#include "parallel.hpp"
#include "random.hpp"

namespace tdls_device {

template <typename T>
struct Images {
    std::vector<T> a, b;
    std::vector<std::int32_t> ipiv, info;
};

/// Padding holds values no solver produces from inputs in [-1, 1]: a write
/// there, or a read of padding taken for an operand, shows.
template <typename E>
E padding_value(std::int64_t index) {
    return E(-1000 - index % 4093);
}

template <typename E>
std::vector<E> padded_buffer(const OperandMap& m) {
    std::vector<E> buffer(std::size_t(m.buffer_elements));
    for (std::int64_t p = 0; p < m.buffer_elements; ++p) buffer[std::size_t(p)] = padding_value<E>(p);
    return buffer;
}

/// The input of a case: A and B random in [-1, 1] (complex: both parts; element (i, j) of system s
/// the same in every form and layout), every 7th A with a zero column; ipiv
/// and info, outputs here, left as padding so an unwritten entry shows.
template <typename T>
Images<T> make_input(const Case& c, const Geometry& g, std::uint64_t seed) {
    Images<T> image{padded_buffer<T>(g.a), padded_buffer<T>(g.b), padded_buffer<std::int32_t>(g.ipiv),
                    padded_buffer<std::int32_t>(g.info)};
    const std::int64_t n = c.n;
    parallel_for(c.batch, 64, [&](std::int64_t begin, std::int64_t end) {
        for (std::int64_t s = begin; s < end; ++s) {
            for (std::int64_t j = 0; j < n; ++j)
                for (std::int64_t i = 0; i < n; ++i)
                    image.a[std::size_t(g.a.at(s, i, j))] =
                        value_pm1<T>(seed, std::uint64_t((s * n + j) * n + i));
            if (made_singular(s)) {
                const std::int64_t k = zero_column(s, n);
                for (std::int64_t i = 0; i < n; ++i) image.a[std::size_t(g.a.at(s, i, k))] = T(0);
            }
            for (std::int64_t k = 0; k < g.b.cols; ++k)
                for (std::int64_t i = 0; i < n; ++i)
                    image.b[std::size_t(g.b.at(s, i, k))] =
                        value_pm1<T>(~seed, std::uint64_t((s * g.b.cols + k) * n + i));
        }
    });
    return image;
}

} // namespace tdls_device
