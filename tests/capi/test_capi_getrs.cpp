// Factor once, solve many, through the C ABI on the CPU backend:
// tdls_batched_getrf leaves what tdls_batched_gesv leaves, getrf then
// tdls_batched_getrs gives gesv's solutions bit for bit, and getrs accepts
// factors and pivots computed by LAPACKE_?getrf itself.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "capi_support.hpp"

using namespace capi_test;

namespace {

std::vector<Kind> batch_kinds() {
    return {Kind::Uniform,    Kind::PivotHeavy,    Kind::ZeroColumn,     Kind::IllConditioned, Kind::Uniform,
            Kind::ZeroMatrix, Kind::DuplicateRows, Kind::IllConditioned, Kind::PivotHeavy};
}

constexpr Padding padded{
    .lda_extra = 2, .ldb_extra = 3, .strideA_extra = 7, .strideIpiv_extra = 1, .strideB_extra = 2};

/// Orders 1-16 (static instances), then the dynamic solver's.
std::vector<int> orders() {
    std::vector<int> out;
    for (int n = 1; n <= 16; ++n) out.push_back(n);
    for (const int n : {17, 20, 32, 33, 64, 100, 256}) out.push_back(n);
    return out;
}

/// Right-hand-side counts per order: all of 1-4 up to n = 64, two above.
std::vector<int> nrhs_values(int n) {
    if (n <= 64) return {1, 2, 3, 4};
    return n % 2 == 0 ? std::vector<int>{1, 3} : std::vector<int>{2, 4};
}

} // namespace

TEMPLATE_TEST_CASE("getrf then getrs is gesv, bit for bit", "[getrs]", float, double, tdls::complex_float,
                   tdls::complex_double) {
    using T = TestType;
    int factored = 0, solved = 0, singular = 0, controls = 0, without_pivots = 0;
    const std::vector<int> ns = orders();
    for (const tdls_layout_t layout : both_layouts)
        for (const int n : ns)
            for (const int nrhs : nrhs_values(n)) {
                INFO("n = " << n << ", nrhs = " << nrhs << ", " << layout_name(layout) << ", "
                            << type_name<T>());
                const SystemSet<T> set =
                    make_set<T>(n, nrhs, layout, batch_kinds(), 31u * n + nrhs + 7u * layout);
                const Outcome<T> gesv = run_strided(nullptr, set, padded);
                const Outcome<T> getrf = run_strided(nullptr, set, padded, {}, /*factor_only=*/true);
                {
                    INFO(gesv.error << getrf.error);
                    REQUIRE(gesv.status == TDLS_SUCCESS);
                    REQUIRE(getrf.status == TDLS_SUCCESS);
                }
                REQUIRE(gesv.guards_intact);
                REQUIRE(getrf.guards_intact);
                // getrf: gesv's factors, pivots and info; B not an operand of it.
                REQUIRE(same_bits(getrf.info, gesv.info));
                for (std::int64_t s = 0; s < set.batch(); ++s) {
                    INFO("system " << s << " (" << kind_name(set.kinds[s]) << ")");
                    REQUIRE(same_bits(getrf.A[s], gesv.A[s]));
                    REQUIRE(same_bits(getrf.ipiv[s], gesv.ipiv[s]));
                    REQUIRE(same_bits(getrf.B[s], set.B[s]));
                    REQUIRE(gesv.info[s] == expected_singular_info(set.kinds[s], n));
                    ++factored;
                }
                if (nrhs == 1) { // getrf without pivots: the same factors and info
                    const Outcome<T> bare = run_strided(nullptr, set, padded, {.ipiv = false}, true);
                    REQUIRE(bare.status == TDLS_SUCCESS);
                    REQUIRE(bare.guards_intact);
                    REQUIRE(same_outcome(bare, getrf, false));
                    ++without_pivots;
                }
                const Outcome<T> getrs = run_getrs(nullptr, set, getrf.A, getrf.ipiv, padded);
                {
                    INFO(getrs.error);
                    REQUIRE(getrs.status == TDLS_SUCCESS);
                }
                REQUIRE(getrs.guards_intact); // A and ipiv read only, padding untouched
                int first_regular = -1;
                for (std::int64_t s = 0; s < set.batch(); ++s) {
                    INFO("system " << s << " (" << kind_name(set.kinds[s]) << ")");
                    if (gesv.info[s] == 0) {
                        REQUIRE(same_bits(getrs.B[s], gesv.B[s]));
                        if (first_regular < 0) first_regular = int(s);
                        ++solved;
                    } else {
                        // A singular U: infinities or NaNs, as LAPACK's ?getrs on the same factors.
                        std::vector<T> lapack_x = b_to_col_major(set.B[s], n, nrhs, layout);
                        lapack_getrs(layout == TDLS_ROW_MAJOR, n, nrhs, getrf.A[s].data(),
                                     getrf.ipiv[s].data(), lapack_x.data());
                        REQUIRE_FALSE(all_finite(lapack_x));
                        REQUIRE_FALSE(all_finite(getrs.B[s]));
                        ++singular;
                    }
                }
                // Negative control: one bit away from gesv's answer is not gesv's answer.
                REQUIRE(first_regular >= 0);
                std::vector<T> flipped = getrs.B[first_regular];
                flipped[0] = next_up(flipped[0]);
                CHECK_FALSE(same_bits(flipped, gesv.B[first_regular]));
                ++controls;
            }
    const int configurations = 2 * (21 * 4 + 2 * 2);
    REQUIRE(without_pivots >= 2 * 23);
    REQUIRE(factored >= configurations * 9);
    REQUIRE(solved >= configurations * 6);
    REQUIRE(singular >= configurations * 3);
    REQUIRE(controls >= configurations);
}

TEMPLATE_TEST_CASE("getrs on LAPACKE_?getrf's factors", "[getrs][lapack]", float, double, tdls::complex_float,
                   tdls::complex_double) {
    using T = TestType;
    constexpr real_of<T> eps = std::numeric_limits<real_of<T>>::epsilon();
    int solved = 0, controls = 0;
    const std::vector<Kind> kinds = {Kind::Uniform, Kind::PivotHeavy, Kind::IllConditioned, Kind::Uniform,
                                     Kind::IllConditioned};
    const std::vector<int> ns = orders();
    for (const tdls_layout_t layout : both_layouts)
        for (const int n : ns)
            for (const int nrhs : nrhs_values(n)) {
                INFO("n = " << n << ", nrhs = " << nrhs << ", " << layout_name(layout) << ", "
                            << type_name<T>());
                const SystemSet<T> set = make_set<T>(n, nrhs, layout, kinds, 555u * n + nrhs + 3u * layout);
                std::vector<std::vector<T>> factors;
                std::vector<std::vector<std::int32_t>> pivots;
                for (std::int64_t s = 0; s < set.batch(); ++s) {
                    factors.push_back(set.A[s]);
                    pivots.emplace_back(n);
                    REQUIRE(lapack_getrf(n, factors.back().data(), pivots.back().data()) == 0);
                }
                const Outcome<T> ours = run_getrs(nullptr, set, factors, pivots, padded);
                {
                    INFO(ours.error);
                    REQUIRE(ours.status == TDLS_SUCCESS);
                }
                REQUIRE(ours.guards_intact);
                for (std::int64_t s = 0; s < set.batch(); ++s) {
                    INFO("system " << s << " (" << kind_name(set.kinds[s]) << ")");
                    // LAPACK's own solve from the same factors.
                    std::vector<T> x = b_to_col_major(set.B[s], n, nrhs, layout);
                    lapack_getrs(layout == TDLS_ROW_MAJOR, n, nrhs, factors[s].data(), pivots[s].data(),
                                 x.data());
                    const std::vector<T> theirs = b_from_col_major(x, n, nrhs, layout);
                    const double rcond = system_rcond(set.A[s], factors[s], n, layout);
                    const double ratio = solution_ratio(set.A[s], n, layout, ours.B[s], set.B[s], nrhs);
                    const double their_ratio = solution_ratio(set.A[s], n, layout, theirs, set.B[s], nrhs);
                    const double distance = solution_distance(ours.B[s], theirs, n, rcond);
                    INFO("backward error ratio " << ratio << ", LAPACK's " << their_ratio << ", distance "
                                                 << distance << ", rcond " << rcond);
                    REQUIRE(their_ratio <= tdls_test::backward_error_bound);
                    REQUIRE(ratio <= tdls_test::backward_error_bound);
                    REQUIRE(distance <= solution_distance_bound);
                    ++solved;
                }
                // Negative controls on the first system: a perturbed solution
                // fails both checks; a wrong pivot makes getrs solve another system.
                const std::vector<T> wrong = perturbed(ours.B[0], 1000.0 * n * n * eps);
                CHECK(solution_ratio(set.A[0], n, layout, wrong, set.B[0], nrhs) >
                      tdls_test::backward_error_bound);
                ++controls;
                std::vector<T> x = b_to_col_major(set.B[0], n, nrhs, layout);
                lapack_getrs(layout == TDLS_ROW_MAJOR, n, nrhs, factors[0].data(), pivots[0].data(),
                             x.data());
                const std::vector<T> theirs = b_from_col_major(x, n, nrhs, layout);
                const double rcond = system_rcond(set.A[0], factors[0], n, layout);
                CHECK(
                    solution_distance(perturbed(ours.B[0], 100.0 * solution_distance_bound * n * eps / rcond),
                                      theirs, n, rcond) > solution_distance_bound);
                ++controls;
                if (n >= 2) {
                    std::vector<std::vector<std::int32_t>> wrong_pivots = pivots;
                    wrong_pivots[0] = corrupted_pivots(pivots[0]);
                    const Outcome<T> misled = run_getrs(nullptr, set, factors, wrong_pivots, padded);
                    REQUIRE(misled.status == TDLS_SUCCESS);
                    CHECK(solution_ratio(set.A[0], n, layout, misled.B[0], set.B[0], nrhs) >
                          tdls_test::backward_error_bound);
                    ++controls;
                }
            }
    // 21 orders with 4 nrhs, 2 with 2; both layouts; 5 systems.
    const int configurations = 2 * (21 * 4 + 2 * 2);
    REQUIRE(solved >= configurations * 5);
    REQUIRE(controls >= configurations * 3 - 2 * 4); // no wrong pivot at n = 1
}
