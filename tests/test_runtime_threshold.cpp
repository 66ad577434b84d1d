// The runtime pivot threshold (Config.runtime_pivot_threshold, used by the
// library's kernels) computes exactly what the same compile-time threshold
// computes.
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include <tdls/solvers.hpp>

#include "matrices.hpp"

namespace {

using tdls::CooperativeLUppConfig;
using tdls::MatrixLayout;
using tdls::RowInterchange;

struct Alone {
    void operator()() const noexcept {}
};

template <typename T>
struct Factors {
    std::vector<T> matrix;
    std::vector<int> piv;
    std::vector<T> x;
    int info;
    bool operator==(const Factors& o) const {
        return info == o.info && piv == o.piv &&
               std::memcmp(matrix.data(), o.matrix.data(), matrix.size() * sizeof(T)) == 0 &&
               std::memcmp(x.data(), o.x.data(), x.size() * sizeof(T)) == 0;
    }
};

/// solve() of the static solver of order N, one thread, in the given config.
template <typename T, int N, auto Config>
Factors<T> solve_with(const std::vector<T>& S, const std::vector<T>& b, T runtime_tau) {
    using Driver = tdls::detail::coop::Driver<T, Config, N>;
    Factors<T> f{S, std::vector<int>(N), std::vector<T>(N), 0};
    std::vector<T> work(std::size_t(tdls::detail::coop::workspace_elements<true>(N, 1) + 3 * N));
    Alone sync;
    f.info = Driver::template solve<false, false, false, tdls::dynamic_stride, tdls::dynamic_stride,
                                    tdls::dynamic_stride>(N, 0, f.matrix.data(), 1, f.piv.data(), 1, b.data(),
                                                          f.x.data(), 1, work.data(), sync, runtime_tau)
                 .info;
    return f;
}

template <typename T, int N, RowInterchange Interchange, MatrixLayout L>
int compare_thresholds() {
    constexpr CooperativeLUppConfig<T> runtime{
        .rows_per_thread = N, .row_interchange = Interchange, .layout = L, .runtime_pivot_threshold = true};
    int checked = 0;
    int differs_from_lapack = 0;
    for (const double tau : {1.0, 0.5, 0.125}) {
        for (std::uint64_t seed = 0; seed < 10; ++seed) {
            const auto S = tdls_test::make_matrix<T>(tdls_test::Kind::Uniform, N, seed);
            const auto b = tdls_test::random_vector<T>(N, seed + 100);
            const Factors<T> at_run_time = solve_with<T, N, runtime>(S, b, T(tau));
            Factors<T> at_compile_time;
            if (tau == 1.0) {
                constexpr CooperativeLUppConfig<T> c{.rows_per_thread = N,
                                                     .row_interchange = Interchange,
                                                     .relative_pivot_threshold = T(1),
                                                     .layout = L};
                at_compile_time = solve_with<T, N, c>(S, b, T(1));
            } else if (tau == 0.5) {
                constexpr CooperativeLUppConfig<T> c{.rows_per_thread = N,
                                                     .row_interchange = Interchange,
                                                     .relative_pivot_threshold = T(0.5),
                                                     .layout = L};
                at_compile_time = solve_with<T, N, c>(S, b, T(1)); // the runtime argument must be ignored
            } else {
                constexpr CooperativeLUppConfig<T> c{.rows_per_thread = N,
                                                     .row_interchange = Interchange,
                                                     .relative_pivot_threshold = T(0.125),
                                                     .layout = L};
                at_compile_time = solve_with<T, N, c>(S, b, T(1));
            }
            REQUIRE(at_run_time == at_compile_time);
            if (tau < 1.0 && !(at_run_time == solve_with<T, N, runtime>(S, b, T(1)))) ++differs_from_lapack;
            ++checked;
        }
    }
    // Negative control: a relaxed threshold changes the pivots of some of
    // these uniform random matrices (many candidates near the largest), so equality above is not vacuous.
    REQUIRE(differs_from_lapack > 0);
    return checked;
}

} // namespace

TEST_CASE("a runtime pivot threshold equals the same compile-time threshold, bitwise", "[threshold]") {
    int checked = 0;
    int configurations = 0;
#ifndef TDLS_TEST_NARROW_SANITIZED
    // Release builds: both interchanges in both layouts, both types.
    checked += compare_thresholds<double, 8, RowInterchange::Physical, MatrixLayout::ColMajor>();
    checked += compare_thresholds<float, 12, RowInterchange::Logical, MatrixLayout::ColMajor>();
    configurations += 2;
#endif
    // Sanitized builds keep one configuration per interchange (each fully
    // unrolled instance costs minutes of instrumented compile; docs/ci.md).
    checked += compare_thresholds<double, 8, RowInterchange::Physical, MatrixLayout::RowMajor>();
    checked += compare_thresholds<double, 5, RowInterchange::Logical, MatrixLayout::RowMajor>();
    configurations += 2;
    REQUIRE(checked == configurations * 3 * 10);
}
