// LAPACK's swap sequences and the solver's row orders (kernels/common/pivots.hpp).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include "common/pivots.hpp"

namespace {

using tdls::kernels::first_invalid_pivot;
using tdls::kernels::order_from_checked_swap_sequence;
using tdls::kernels::order_from_swap_sequence;
using tdls::kernels::swap_sequence_from_order;

/// The order a swap sequence builds, by applying it to the identity the way
/// LAPACK's ?laswp applies it to the rows of B: independent of pivots.hpp.
std::vector<int> apply_swaps(const std::vector<std::int32_t>& ipiv) {
    std::vector<int> rows(ipiv.size());
    std::iota(rows.begin(), rows.end(), 0);
    for (std::size_t k = 0; k < ipiv.size(); ++k) std::swap(rows[k], rows[std::size_t(ipiv[k] - 1)]);
    return rows;
}

std::vector<std::int32_t> sequence_of(const std::vector<int>& order, std::int64_t step = 1) {
    const int n = int(order.size());
    std::vector<std::int32_t> strided(std::size_t(n * step), -7);
    std::vector<int> position_of(order.size()), row_at(order.size());
    swap_sequence_from_order(order.data(), n, strided.data(), step, position_of.data(), row_at.data());
    std::vector<std::int32_t> ipiv(order.size());
    for (int k = 0; k < n; ++k) ipiv[std::size_t(k)] = strided[std::size_t(k * step)];
    return ipiv;
}

} // namespace

TEST_CASE("swap sequences and orders convert both ways, as LAPACK applies them", "[pivots]") {
    std::mt19937 random(42);
    int checked = 0;
    for (int n = 1; n <= 40; ++n) {
        for (int trial = 0; trial < 25; ++trial) {
            std::vector<int> order(static_cast<std::size_t>(n));
            std::iota(order.begin(), order.end(), 0);
            std::shuffle(order.begin(), order.end(), random);
            const std::int64_t step = 1 + trial % 3;
            const std::vector<std::int32_t> ipiv = sequence_of(order, step);
            for (int k = 0; k < n; ++k) {
                // LAPACK's form: 1-based, never above the diagonal.
                REQUIRE(ipiv[std::size_t(k)] >= k + 1);
                REQUIRE(ipiv[std::size_t(k)] <= n);
            }
            REQUIRE(apply_swaps(ipiv) == order);
            std::vector<int> back(static_cast<std::size_t>(n));
            order_from_swap_sequence(ipiv.data(), 1, n, back.data());
            REQUIRE(back == order);
            REQUIRE(first_invalid_pivot(ipiv.data(), 1, n) == -1);
            ++checked;
        }
    }
    REQUIRE(checked == 40 * 25);
}

TEST_CASE("the identity order is the sequence 1, 2, ..., n; a swap shows", "[pivots]") {
    const std::vector<int> identity = {0, 1, 2, 3};
    REQUIRE(sequence_of(identity) == std::vector<std::int32_t>{1, 2, 3, 4});
    const std::vector<int> first_two_swapped = {1, 0, 2, 3};
    REQUIRE(sequence_of(first_two_swapped) == std::vector<std::int32_t>{2, 2, 3, 4});
    // Negative control: a sequence that is off by one swap builds another order.
    std::vector<std::int32_t> wrong = sequence_of({2, 0, 3, 1});
    wrong[1] = 2;
    REQUIRE(apply_swaps(wrong) != std::vector<int>{2, 0, 3, 1});
}

TEST_CASE("any valid swap sequence, not only getrf's, is accepted and applied", "[pivots]") {
    // ?laswp applies entries below k too; getrs must accept what LAPACK accepts.
    const std::vector<std::int32_t> ipiv = {3, 1, 3};
    std::vector<int> order(3);
    order_from_swap_sequence(ipiv.data(), 1, 3, order.data());
    REQUIRE(order == apply_swaps(ipiv));
}

TEST_CASE("first_invalid_pivot finds entries outside 1..n", "[pivots]") {
    int checked = 0;
    for (const std::int32_t bad : {0, -1, 5, 1 << 30}) {
        for (int at = 0; at < 4; ++at) {
            std::vector<std::int32_t> ipiv = {1, 2, 3, 4};
            ipiv[std::size_t(at)] = bad;
            REQUIRE(first_invalid_pivot(ipiv.data(), 1, 4) == at);
            ++checked;
        }
    }
    REQUIRE(checked == 16);
}

TEST_CASE("order_from_checked_swap_sequence: the order of valid pivots, false for any entry outside 1..n",
          "[pivots]") {
    int checked = 0;
    std::mt19937 random(7);
    for (int n = 1; n <= 9; ++n) {
        // Valid: LAPACK-style (ipiv[k] >= k + 1) and any entry in 1..n, as ?laswp accepts.
        std::vector<std::int32_t> ipiv(static_cast<std::size_t>(n));
        for (int k = 0; k < n; ++k) ipiv[std::size_t(k)] = std::int32_t(1 + random() % unsigned(n));
        std::vector<int> order(static_cast<std::size_t>(n), -1);
        REQUIRE(order_from_checked_swap_sequence(ipiv.data(), 1, n, order.data()));
        REQUIRE(order == apply_swaps(ipiv));
        ++checked;
        const std::int32_t bad_values[] = {0, -1, std::int32_t(n + 1), std::numeric_limits<std::int32_t>::min(),
                                           std::numeric_limits<std::int32_t>::max()};
        for (const std::int32_t bad : bad_values)
            for (int at = 0; at < n; ++at) {
                std::vector<std::int32_t> spoiled = ipiv;
                spoiled[std::size_t(at)] = bad;
                std::vector<int> partial(static_cast<std::size_t>(n), -1);
                REQUIRE_FALSE(order_from_checked_swap_sequence(spoiled.data(), 1, n, partial.data()));
                // What was built stays a permutation of 0..n-1: never an index outside the system.
                std::vector<int> sorted = partial;
                std::sort(sorted.begin(), sorted.end());
                std::vector<int> identity(static_cast<std::size_t>(n));
                std::iota(identity.begin(), identity.end(), 0);
                REQUIRE(sorted == identity);
                ++checked;
            }
    }
    REQUIRE(checked == 9 + 5 * 45);
}

TEST_CASE("swap_sequence_in_place: the same sequence in place; garbage entries never used as indices",
          "[pivots]") {
    std::mt19937 random(7);
    int checked = 0;
    for (int n = 1; n <= 33; ++n) {
        std::vector<int> order(static_cast<std::size_t>(n));
        std::iota(order.begin(), order.end(), 0);
        std::shuffle(order.begin(), order.end(), random);
        const std::vector<std::int32_t> expected = sequence_of(order);
        std::vector<std::int32_t> in_place(order.begin(), order.end());
        std::vector<int> position_of(std::size_t(n), -1), row_at(std::size_t(n), -1);
        tdls::kernels::swap_sequence_in_place(in_place.data(), 1, n, position_of.data(), row_at.data());
        REQUIRE(in_place == expected);
        // Entries overwritten behind the conversion's back (pivots inside
        // another system's B): exact-size scratch, so that ASan sees any index
        // outside it; every output entry stays a valid LAPACK pivot.
        std::vector<std::int32_t> spoiled(order.begin(), order.end());
        spoiled[std::size_t(n / 2)] = n;                                   // one past the last row
        if (n > 1) spoiled[0] = -5;                                        // negative
        if (n > 2) spoiled[std::size_t(n - 1)] = std::numeric_limits<std::int32_t>::max();
        tdls::kernels::swap_sequence_in_place(spoiled.data(), 1, n, position_of.data(), row_at.data());
        for (int k = 0; k < n; ++k) {
            REQUIRE(spoiled[std::size_t(k)] >= 1);
            REQUIRE(spoiled[std::size_t(k)] <= n);
        }
        CHECK(spoiled[std::size_t(n / 2)] == n / 2 + 1); // the identity step where the entry was garbage
        ++checked;
    }
    CHECK(checked == 33);
}
