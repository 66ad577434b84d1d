// The blocked LU's orders of the trailing update (kernels/cpu/simd/
// blocked_lu.hpp, BlockedLu::UpdateOrder), bit for bit: one pass per block;
// look-ahead with the rest of the trailing matrix in slices whose
// multipliers are packed once; and look-ahead with the rest as one product
// (the multipliers past the budget). The library picks one per type and per
// core's L2, so on any one machine its C-API tests reach only some of them;
// here each is pinned. Orders with two to four blocks, the last slice and the
// last block partial (the block is 128 columns, a slice 64), uniform and
// pivot-heavy systems; the one-pass factors also within the rounding bound
// of P A = L U, so that the three cannot agree on a wrong answer. 16-byte
// vectors, the baseline of every x86-64: the orders' logic is the same at
// every width.
#define TDLS_SIMD_ISA test_blocked_16
#define TDLS_SIMD_BYTES 16

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "cpu/simd/blocked_lu.hpp"
#include "matrices.hpp"

namespace {

namespace simd = tdls::kernels::cpu::simd::TDLS_SIMD_ISA;

template <typename T>
struct Factors {
    std::vector<T> lu; // column-major, n x n
    std::vector<int> pivots;
    int info = 0;
};

template <typename T>
Factors<T> factor(const std::vector<T>& A, int n, typename simd::BlockedLu<T>::UpdateOrder order, T tau) {
    simd::BlockedLu<T> lu(n, 1, order);
    lu.load(A.data(), 1, n);
    Factors<T> f;
    f.info = lu.factor(tau);
    f.lu.resize(A.size());
    lu.store(f.lu.data(), 1, n);
    f.pivots.assign(lu.pivots(), lu.pivots() + n);
    return f;
}

template <typename T>
bool same_bits(const Factors<T>& a, const Factors<T>& b) {
    return a.info == b.info && a.pivots == b.pivots &&
           std::memcmp(a.lu.data(), b.lu.data(), a.lu.size() * sizeof(T)) == 0;
}

/// max over (i, j) of |P A - L U| / (n eps (|L| |U|)), the componentwise
/// backward error of the factors in units of its classical bound.
template <typename T>
double factor_error(const std::vector<T>& A, int n, const Factors<T>& f) {
    std::vector<T> PA(A);
    for (int k = 0; k < n; ++k)
        if (f.pivots[k] != k)
            for (int j = 0; j < n; ++j)
                std::swap(PA[k + std::size_t(j) * n], PA[f.pivots[k] + std::size_t(j) * n]);
    double worst = 0;
    const double eps = std::numeric_limits<T>::epsilon();
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            double sum = 0, magnitude = 0;
            for (int k = 0; k <= std::min(i, j); ++k) {
                const double l = k == i ? 1.0 : double(f.lu[i + std::size_t(k) * n]);
                const double u = double(f.lu[k + std::size_t(j) * n]);
                sum += l * u;
                magnitude += std::fabs(l * u);
            }
            const double residual = std::fabs(double(PA[i + std::size_t(j) * n]) - sum);
            if (magnitude > 0)
                worst = std::max(worst, residual / (n * eps * magnitude));
            else if (residual > 0)
                return std::numeric_limits<double>::infinity();
        }
    return worst;
}

} // namespace

TEMPLATE_TEST_CASE("blocked LU: every order of the trailing update gives the same bits", "[blocked]", float,
                   double) {
    using T = TestType;
    using Lu = simd::BlockedLu<T>;
    using Order = typename Lu::UpdateOrder;
    const Order one_pass{false, 0};
    const Order sliced{true, std::int64_t(1) << 40}; // every block's multipliers held
    const Order one_product{true, 0};                // none held
    int compared = 0, exchanging = 0, controls = 0;
    for (const int n : {129, 200, 257, 300, 385}) {
        for (const tdls_test::Kind kind : {tdls_test::Kind::Uniform, tdls_test::Kind::PivotHeavy}) {
            INFO("n = " << n << ", " << tdls_test::kind_name(kind));
            const std::vector<T> A = tdls_test::make_matrix<T>(kind, n, 4200u + n);
            const Factors<T> base = factor(A, n, one_pass, T(1));
            REQUIRE(base.info == 0);
            REQUIRE(factor_error(A, n, base) <= 1.0);
            for (const Order order : {sliced, one_product}) {
                INFO("look-ahead, multipliers held up to " << order.held_bytes << " bytes");
                CHECK(same_bits(factor(A, n, order, T(1)), base));
                ++compared;
            }
            int exchanges = 0;
            for (int k = 0; k < n; ++k) exchanges += base.pivots[k] != k;
            if (exchanges > n / 2) ++exchanging;
            // Negative control: the system with its first element a few
            // ulps larger (it reaches every later step); the comparison
            // must see it.
            std::vector<T> nudged = A;
            nudged[0] *= T(1) + 8 * std::numeric_limits<T>::epsilon();
            CHECK_FALSE(same_bits(factor(nudged, n, sliced, T(1)), base));
            ++controls;
        }
    }
    REQUIRE(compared == 5 * 2 * 2);
    REQUIRE(exchanging >= 5 * 2 - 1); // the interchanges were exercised
    REQUIRE(controls == 5 * 2);
}

// BlockedLu::work_in_place: the caller's column-major matrix factored
// where it lies (no scratch copy) must give the scratch route's bits, in
// each update order, and leave the rows past n of each column (lda > n)
// as they were. fits_in_place() admits only whole vector pairs of rows
// (block_rows) and columns a whole number of vectors apart. The matrix
// here starts on a vector boundary; the C-ABI suite's (test_capi_gesv,
// "[side_by_side]") need not.
TEMPLATE_TEST_CASE("blocked LU in the caller's matrix: the scratch route's bits, rows past n untouched",
                   "[blocked][in_place]", float, double) {
    using T = TestType;
    using Lu = simd::BlockedLu<T>;
    using Order = typename Lu::UpdateOrder;
    constexpr int W = TDLS_SIMD_BYTES / int(sizeof(T));
    const T sentinel = T(-7.25);
    int compared = 0, controls = 0;
    for (const int n : {128, 200, 256, 384}) {
        REQUIRE(n % (2 * W) == 0);
        // 4 KiB apart (512 doubles, 1024 floats): the trailing updates read
        // the panels' triangles from packed copies (BlockedLu::
        // packs_triangles); at the other strides where they lie.
        for (const int lda : {n, n + W, n + 3 * W, 4096 / int(sizeof(T))}) {
            for (const Order order : {Order{false, 0}, Order{true, std::int64_t(1) << 40}}) {
                INFO("n = " << n << ", lda = " << lda << ", look-ahead " << order.look_ahead);
                const std::vector<T> A = tdls_test::make_matrix<T>(tdls_test::Kind::PivotHeavy, n, 4300u + n);
                const Factors<T> base = factor(A, n, order, T(1));
                // The caller's matrix at lda, its rows past n holding a sentinel.
                std::vector<T> store(std::size_t(lda) * n + 2 * W, sentinel);
                T* M = store.data() + (W - reinterpret_cast<std::uintptr_t>(store.data()) / sizeof(T) % W) % W;
                REQUIRE(Lu::fits_in_place(lda, n));
                for (int j = 0; j < n; ++j)
                    std::copy(A.begin() + std::ptrdiff_t(j) * n, A.begin() + std::ptrdiff_t(j + 1) * n,
                              M + std::int64_t(j) * lda);
                Lu lu(n, 1, order);
                lu.work_in_place(M, lda);
                Factors<T> f;
                f.info = lu.factor(T(1));
                f.pivots.assign(lu.pivots(), lu.pivots() + n);
                f.lu.resize(A.size());
                int untouched = 0;
                for (int j = 0; j < n; ++j) {
                    std::copy(M + std::int64_t(j) * lda, M + std::int64_t(j) * lda + n,
                              f.lu.begin() + std::ptrdiff_t(j) * n);
                    for (int i = n; i < lda; ++i) untouched += M[i + std::int64_t(j) * lda] == sentinel;
                }
                CHECK(same_bits(f, base));
                CHECK(untouched == (lda - n) * n);
                ++compared;
                // Negative control: one element of the factored matrix changed.
                f.lu[std::size_t(n) * n / 2] += T(1);
                CHECK_FALSE(same_bits(f, base));
                ++controls;
            }
        }
    }
    REQUIRE(compared == 4 * 4 * 2);
    REQUIRE(controls == compared);
    // Shapes the in-place route refuses: rows not whole vector pairs,
    // columns not a whole number of vectors apart, lda short of n.
    CHECK(Lu::fits_in_place(256, 256));
    CHECK(Lu::fits_in_place(256 + W, 256));
    CHECK_FALSE(Lu::fits_in_place(257, 257));
    CHECK_FALSE(Lu::fits_in_place(256 + W, 256 + W)); // whole vectors, not vector pairs
    CHECK_FALSE(Lu::fits_in_place(256 + 1, 256));
    CHECK_FALSE(Lu::fits_in_place(255, 256));
}
