// The static solver of orders 17 to 20 against the reference LU, bit for bit.
#include "reference_sweep.hpp"

TEST_CASE("static solver, orders 17 to 20, matches the reference LU bitwise", "[reference][static]") {
    const int cases = tdls_test::sweep_static_orders<17>(std::make_integer_sequence<int, 4>{});
    REQUIRE(cases == 4 * tdls_test::cases_per_static_order);
}
