// The static solver of orders 09 to 16 against the reference LU, bit for bit.
#include "reference_sweep.hpp"

TEST_CASE("static solver, orders 09 to 16, matches the reference LU bitwise", "[reference][static]") {
    const int cases = tdls_test::sweep_static_orders<9>(std::make_integer_sequence<int, 8>{});
    REQUIRE(cases == 8 * tdls_test::cases_per_static_order);
}
