// Test support: the systems the tests solve. Matrices are the stored matrix S
// read column-major (S = A under ColMajor, S = A^T under RowMajor), packed,
// S[c * n + r].
#pragma once

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <tdls/core/math.hpp>

namespace tdls_test {

enum class Kind {
    Uniform,       // entries uniform in [-1, 1]
    PivotHeavy,    // diagonally dominant, rows shuffled: every step swaps
    IllConditioned // columns graded over many orders of magnitude
};

inline const char* kind_name(Kind k) {
    switch (k) {
    case Kind::Uniform:
        return "uniform";
    case Kind::PivotHeavy:
        return "pivot-heavy";
    case Kind::IllConditioned:
        return "ill-conditioned";
    }
    return "?";
}

inline constexpr Kind all_kinds[] = {Kind::Uniform, Kind::PivotHeavy, Kind::IllConditioned};

/// The element (re, im) of T: a real T takes re alone.
template <typename T>
T element(double re, double im) {
    if constexpr (tdls::is_complex_scalar_v<T>)
        return T(tdls::real_type_t<T>(re), tdls::real_type_t<T>(im));
    else
        return T(re);
}

/// One draw of u: a real T from one draw, a complex T from two (real part
/// first), so that complex systems have both parts everywhere.
template <typename T, typename Rng>
T draw(std::uniform_real_distribution<double>& u, Rng& rng) {
    const double re = u(rng);
    return element<T>(re, tdls::is_complex_scalar_v<T> ? u(rng) : 0.0);
}

template <typename T>
std::vector<T> random_vector(int n, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    std::vector<T> v(n);
    for (auto& e : v) e = draw<T>(u, rng);
    return v;
}

template <typename T>
std::vector<T> make_matrix(Kind kind, int n, std::uint64_t seed) {
    std::mt19937_64 rng(seed * 7919u + std::uint64_t(n));
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    std::vector<T> S(std::size_t(n) * n);
    for (auto& e : S) e = draw<T>(u, rng);
    if (kind == Kind::PivotHeavy) {
        for (int i = 0; i < n; ++i) S[std::size_t(i) * n + i] += T(n) * T(u(rng) < 0 ? -1 : 1);
        std::vector<int> order(n);
        for (int i = 0; i < n; ++i) order[i] = i;
        std::shuffle(order.begin(), order.end(), rng);
        std::vector<T> shuffled(S.size());
        for (int r = 0; r < n; ++r)
            for (int c = 0; c < n; ++c) shuffled[std::size_t(c) * n + order[r]] = S[std::size_t(c) * n + r];
        S = shuffled;
    } else if (kind == Kind::IllConditioned) {
        // Condition number about 10^(digits / 2) of the type.
        using Real = tdls::real_type_t<T>;
        const double decades = std::numeric_limits<Real>::digits10 / 2.0;
        for (int c = 0; c < n; ++c) {
            const double scale = std::pow(10.0, -decades * c / std::max(1, n - 1));
            for (int r = 0; r < n; ++r) {
                T& e = S[std::size_t(c) * n + r];
                if constexpr (tdls::is_complex_scalar_v<T>)
                    e = T(Real(double(e.real()) * scale), Real(double(e.imag()) * scale));
                else
                    e = T(double(e) * scale);
            }
        }
    }
    return S;
}

} // namespace tdls_test
