// The static solver against the reference LU, bit for bit, for the orders in
// TDLS_TEST_STATIC_ORDERS (a comma-separated list the build defines). The
// build compiles this file once per group of orders (tests/CMakeLists.txt), so
// that the groups build in parallel and each test case names its own orders.
#include <iterator>

#include "reference_sweep.hpp"

#ifndef TDLS_TEST_STATIC_ORDERS
#error "TDLS_TEST_STATIC_ORDERS: the orders this object sweeps, e.g. 1,2,3"
#endif
#define TDLS_TEST_STRINGIFY_(...) #__VA_ARGS__
#define TDLS_TEST_STRINGIFY(...) TDLS_TEST_STRINGIFY_(__VA_ARGS__)

TEST_CASE("static solver, orders " TDLS_TEST_STRINGIFY(TDLS_TEST_STATIC_ORDERS) ", matches the reference LU bitwise",
          "[reference][static]") {
    constexpr int orders[] = {TDLS_TEST_STATIC_ORDERS};
    const int cases = tdls_test::sweep_static_order_list<TDLS_TEST_STATIC_ORDERS>();
    REQUIRE(cases == int(std::size(orders)) * tdls_test::cases_per_static_order);
}
