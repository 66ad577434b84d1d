// Configuration, constants and workspace sizes of the solvers.
#include <catch2/catch.hpp>

#include <cfloat>
#include <cmath>
#include <limits>
#include <type_traits>

#include <tdls/solvers.hpp>

namespace {

using tdls::CooperativeLUppConfig;
using tdls::CooperativeLUppSolverDynamic;
using tdls::CooperativeLUppSolverStatic;
using tdls::MatrixLayout;
using tdls::RowInterchange;

// Defaults, upstream TDLS's: one row per thread, logical interchanges, the
// threshold 0.1, the smallest normal as floor, unrolled, row-major.
constexpr CooperativeLUppConfig<double> defaults{};
static_assert(defaults.rows_per_thread == 1);
static_assert(defaults.row_interchange == RowInterchange::Logical);
static_assert(defaults.relative_pivot_threshold.value() == 0.1);
static_assert(defaults.singular_floor.value() == DBL_MIN);
static_assert(defaults.unroll_loops);
static_assert(defaults.layout == MatrixLayout::RowMajor);
static_assert(
    std::is_same_v<CooperativeLUppSolverStatic<double, 4>, CooperativeLUppSolverStatic<double, 4, defaults>>);
static_assert(std::is_same_v<CooperativeLUppSolverDynamic<float>,
                             CooperativeLUppSolverDynamic<float, CooperativeLUppConfig<float>{}>>);

// 13 rows on threads of 5: 3 threads; slots 0..3 full, slot 4 holds row 12 on
// thread 0 only; slot 5 would be past every row.
using Thirteen = CooperativeLUppSolverStatic<double, 13, CooperativeLUppConfig<double>{.rows_per_thread = 5}>;
static_assert(Thirteen::rows_per_thread == 5 && Thirteen::threads_per_system == 3);
static_assert(Thirteen::slot_is_full(3) && !Thirteen::slot_is_full(4) && Thirteen::slot_has_rows(4));
static_assert(!Thirteen::slot_has_rows(5));
static_assert(Thirteen::relative_pivot_threshold == 0.1 && Thirteen::singular_floor == DBL_MIN);
static_assert(Thirteen::transposed &&
              !CooperativeLUppSolverStatic<
                  double, 2, CooperativeLUppConfig<double>{.layout = MatrixLayout::ColMajor}>::transposed);

// Workspace, the seed's formula: 2 barrier elements, then 3N (logical, N = 1
// included) or 2N + 2 threads + 5 (physical).
static_assert(Thirteen::workspace_size == 2 + 3 * 13);
static_assert(CooperativeLUppSolverStatic<float, 1>::workspace_size == 2 + 3);
static_assert(CooperativeLUppSolverDynamic<double>::workspace_size(1) == 5);
using PhysicalFour =
    CooperativeLUppSolverStatic<double, 4,
                                CooperativeLUppConfig<double>{.rows_per_thread = 2,
                                                              .row_interchange = RowInterchange::Physical}>;
static_assert(PhysicalFour::threads_per_system == 2 && PhysicalFour::workspace_size == 2 + 8 + 4 + 5);
using Logical4 = CooperativeLUppSolverStatic<double, 4, CooperativeLUppConfig<double>{.rows_per_thread = 2}>;
static_assert(Logical4::workspace_size == 14);

// More rows per thread than rows: the static solver clamps to N (one thread,
// no phantom slot), the dynamic one keeps phantom slots.
using Wide = CooperativeLUppSolverStatic<float, 3, CooperativeLUppConfig<float>{.rows_per_thread = 8}>;
static_assert(Wide::rows_per_thread == 3 && Wide::threads_per_system == 1);
static_assert(Wide::slot_has_rows(2) && !Wide::slot_has_rows(3));
static_assert(Wide::workspace_size == 2 + 9);
using WideDynamic = CooperativeLUppSolverDynamic<float, CooperativeLUppConfig<float>{.rows_per_thread = 8}>;
static_assert(WideDynamic::rows_per_thread == 8 && WideDynamic::threads_per_system(3) == 1);

// The dynamic solver's sizes agree with the static solver's.
using DynamicPhysical = CooperativeLUppSolverDynamic<
    double, CooperativeLUppConfig<double>{.rows_per_thread = 2, .row_interchange = RowInterchange::Physical}>;
static_assert(DynamicPhysical::threads_per_system(4) == 2 && DynamicPhysical::workspace_size(4) == 19);
static_assert(CooperativeLUppSolverDynamic<double>::workspace_size(13) == 2 + 39);

// A float knob given as a double literal, and a custom floor.
constexpr CooperativeLUppConfig<float> relaxed{.relative_pivot_threshold = 0.25, .singular_floor = 1e-6f};
static_assert(relaxed.relative_pivot_threshold.value() == 0.25f && relaxed.singular_floor.value() == 1e-6f);

template <typename T>
constexpr bool round_trips(T v) {
    const T back = tdls::StructuralReal<T>(v).value();
    return back == v && ((back < T(0)) == (v < T(0)));
}
static_assert(round_trips(1.0) && round_trips(-0.1) && round_trips(DBL_MIN) && round_trips(DBL_MAX));
static_assert(round_trips(DBL_TRUE_MIN) && round_trips(1e-310) && round_trips(0.0));
static_assert(round_trips(FLT_MIN) && round_trips(FLT_TRUE_MIN) && round_trips(-3.4e38f) &&
              round_trips(0.7f));
static_assert(round_trips(LDBL_MIN) && round_trips(LDBL_MAX) && round_trips(0.1L) &&
              round_trips(LDBL_TRUE_MIN));
static_assert(tdls::StructuralReal<double>(std::numeric_limits<double>::infinity()).value() ==
              std::numeric_limits<double>::infinity());
static_assert(tdls::smallest_normal<float>() == FLT_MIN && tdls::smallest_normal<long double>() == LDBL_MIN);

} // namespace

TEST_CASE("structural reals reproduce every value exactly, NaN included", "[config]") {
    int checked = 0;
    for (double v : {1.0, -2.5, 1e-300, 5e-324, 1.7976931348623157e308, 0.1, -0.0}) {
        CHECK(tdls::StructuralReal<double>(v).value() == v);
        ++checked;
    }
    CHECK(std::isnan(tdls::StructuralReal<double>(std::nan("")).value()));
    CHECK(std::isnan(tdls::StructuralReal<float>(std::nanf("")).value()));
    // Negative control: distinct values have distinct decompositions.
    CHECK_FALSE(tdls::StructuralReal<double>(0.1) == tdls::StructuralReal<double>(std::nextafter(0.1, 1.0)));
    REQUIRE(checked == 7);
}

TEST_CASE("the verdict converts to true exactly when nonsingular", "[config]") {
    CHECK(bool(tdls::Verdict{0}));
    CHECK(tdls::Verdict{0}.nonsingular());
    CHECK_FALSE(bool(tdls::Verdict{3}));
    CHECK(tdls::Verdict{3}.info == 3);
}
