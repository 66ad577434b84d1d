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

namespace {

/// tdls_batched_getrs_ptr on factors and pivots given per system, each
/// system in its own allocation (the pointer-array twin of run_getrs).
template <typename T>
Outcome<T> run_getrs_pointers(const SystemSet<T>& set, const std::vector<std::vector<T>>& factors,
                              const std::vector<std::vector<std::int32_t>>& pivots, Padding pad) {
    const int n = set.n, nrhs = set.nrhs;
    const std::int64_t batch = set.batch();
    const StridedLayout l = strided_layout(set, pad);
    const int R = b_rows(n, nrhs, set.layout), C = b_cols(n, nrhs, set.layout);
    std::vector<StridedBuffer<T>> A, B;
    std::vector<StridedBuffer<std::int32_t>> ipiv;
    for (std::int64_t s = 0; s < batch; ++s) {
        A.emplace_back(1, n, n, l.lda, l.strideA);
        ipiv.emplace_back(1, n, 1, n, l.strideIpiv);
        B.emplace_back(1, R, C, l.ldb, l.strideB);
        A.back().put(0, factors[s]);
        ipiv.back().put(0, pivots[s]);
        B.back().put(0, set.B[s]);
    }
    std::vector<const void*> A_array;
    std::vector<const std::int32_t*> ipiv_array;
    std::vector<void*> B_array;
    for (std::int64_t s = 0; s < batch; ++s) {
        A_array.push_back(A[s].data());
        ipiv_array.push_back(ipiv[s].data());
        B_array.push_back(B[s].data());
    }
    Outcome<T> out;
    out.status = tdls_batched_getrs_ptr(nullptr, dtype_of<T>(), set.layout, n, nrhs, A_array.data(), l.lda,
                                        ipiv_array.data(), B_array.data(), l.ldb, batch);
    if (out.status != TDLS_SUCCESS) out.error = tdls_last_error();
    out.guards_intact = true;
    for (std::int64_t s = 0; s < batch; ++s) {
        out.A.push_back(A[s].get(0));
        out.ipiv.push_back(ipiv[s].get(0));
        out.B.push_back(B[s].get(0));
        out.guards_intact = out.guards_intact && same_bits(out.A[s], factors[s]) &&
                            same_bits(out.ipiv[s], pivots[s]) && A[s].guards_intact() &&
                            ipiv[s].guards_intact() && B[s].guards_intact();
    }
    return out;
}

} // namespace

TEMPLATE_TEST_CASE("getrf_ptr and getrs_ptr are getrf and getrs, bit for bit", "[getrs][pointers]", float,
                   double, tdls::complex_float, tdls::complex_double) {
    using T = TestType;
    int compared = 0, controls = 0, refused = 0;
    for (const tdls_layout_t layout : both_layouts)
        for (const int n : {1, 3, 8, 16, 17, 33, 100})
            for (const int nrhs : {1, 3}) {
                INFO("n = " << n << ", nrhs = " << nrhs << ", " << layout_name(layout) << ", "
                            << type_name<T>());
                const SystemSet<T> set = make_set<T>(n, nrhs, layout, batch_kinds(), 97u * n + nrhs + layout);
                const Outcome<T> strided = run_strided(nullptr, set, padded, {}, /*factor_only=*/true);
                const Outcome<T> pointers = run_pointers_with(set, padded, {}, [&](const PointerCall& c) {
                    return tdls_batched_getrf_ptr(nullptr, dtype_of<T>(), c.layout, c.n, c.A_array, c.l.lda,
                                                  c.ipiv_array, c.info, c.batch);
                });
                REQUIRE(strided.status == TDLS_SUCCESS);
                {
                    INFO(pointers.error);
                    REQUIRE(pointers.status == TDLS_SUCCESS);
                }
                REQUIRE(pointers.guards_intact);
                REQUIRE(same_bits(pointers.info, strided.info));
                for (std::int64_t s = 0; s < set.batch(); ++s) {
                    REQUIRE(same_bits(pointers.A[s], strided.A[s]));
                    REQUIRE(same_bits(pointers.ipiv[s], strided.ipiv[s]));
                    REQUIRE(same_bits(pointers.B[s], set.B[s])); // B is no operand of getrf
                }
                // getrs from the regular systems' factors (a singular U gives NaNs in both).
                const Outcome<T> solved = run_getrs(nullptr, set, strided.A, strided.ipiv, padded);
                const Outcome<T> solved_ptr = run_getrs_pointers(set, strided.A, strided.ipiv, padded);
                REQUIRE(solved.status == TDLS_SUCCESS);
                {
                    INFO(solved_ptr.error);
                    REQUIRE(solved_ptr.status == TDLS_SUCCESS);
                }
                REQUIRE(solved_ptr.guards_intact);
                for (std::int64_t s = 0; s < set.batch(); ++s)
                    if (strided.info[s] == 0) {
                        REQUIRE(same_bits(solved_ptr.B[s], solved.B[s]));
                        ++compared;
                    }
                // Negative control: pivots outside 1..n are refused, nothing written.
                std::vector<std::vector<std::int32_t>> bad = strided.ipiv;
                bad.back()[0] = n + 1;
                const Outcome<T> refusal = run_getrs_pointers(set, strided.A, bad, padded);
                CHECK(refusal.status == TDLS_ERROR_INVALID_VALUE);
                CHECK(refusal.guards_intact);
                for (std::int64_t s = 0; s < set.batch(); ++s) CHECK(same_bits(refusal.B[s], set.B[s]));
                ++refused;
                std::vector<T> flipped = solved_ptr.B[0];
                flipped[0] = next_up(flipped[0]);
                CHECK_FALSE(same_bits(flipped, solved.B[0]));
                ++controls;
            }
    REQUIRE(compared >= 2 * 7 * 2 * 6);
    REQUIRE(refused == 2 * 7 * 2);
    REQUIRE(controls == 2 * 7 * 2);
}
