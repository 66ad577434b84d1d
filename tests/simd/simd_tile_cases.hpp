// The SIMD kernels (kernels/cpu/simd/) against the one-system-per-thread
// cooperative solver, bit for bit: every order 1..64, both layouts, the three
// batch forms (with leading-dimension padding, stride gaps, shuffled pointer
// arrays, interleaved blocks narrower, equal and wider than a tile), gesv
// with 0, 1 and 3 right-hand sides, getrf and getrs, tau = 1 and 0.6, ranges
// that start and end inside a tile, static and dynamic instances (static
// 12: a packed matrix into a tile of taller columns, moved by transposes
// with the placement divided by a constant; float's columns and right-hand
// sides of 12 by masked moves); systems
// random, pivot-heavy, full of magnitude ties, singular, subnormal and NaN.
// Both sides are compiled here without contracted multiply-adds, where the
// kernel's lane arithmetic is the engine's operation for operation.
//
// Included by one source per vector width, after TDLS_SIMD_ISA,
// TDLS_SIMD_BYTES and TDLS_TILE_TEST_WIDTH (a string for the test names);
// TDLS_TILE_TEST_TYPES, the scalar types, defaults to float, double (the
// complex kernel, complex_lu.hpp, has sources of its own).
#pragma once

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <type_traits>
#include <utility>
#include <vector>

#include "cpu/simd/simd_range.hpp"
#include "cpu/solve_range.hpp"
#include "matrices.hpp"

#ifndef TDLS_TILE_TEST_TYPES
#define TDLS_TILE_TEST_TYPES float, double
#define TDLS_TILE_TEST_REAL // the real tiles' own cases below run too
#endif

namespace {

using tdls::kernels::BatchCall;

using tdls_test::element;
using tdls::kernels::BatchForm;
using tdls::kernels::Operation;
namespace simd = tdls::kernels::cpu::simd::TDLS_SIMD_ISA;

enum class Fill { Random, PivotHeavy, Ties, ZeroColumn, Subnormal, NaN };
constexpr Fill all_fills[] = {Fill::Random,     Fill::PivotHeavy, Fill::Ties,
                              Fill::ZeroColumn, Fill::Subnormal,  Fill::NaN};

/// System s of the batch, packed column-major; the fill rotates with s so that
/// every tile mixes kinds (a singular lane beside regular ones).
template <typename T>
std::vector<T> system_matrix(Fill first, int n, std::int64_t s) {
    const Fill fill = all_fills[(int(first) + s) % 6];
    std::vector<T> S = tdls_test::make_matrix<T>(
        fill == Fill::PivotHeavy ? tdls_test::Kind::PivotHeavy : tdls_test::Kind::Uniform, n, 1000 + s);
    std::mt19937 rng(unsigned(s * 31 + n));
    switch (fill) {
    case Fill::Ties: // small integers: equal magnitudes everywhere, first maximum decides
        for (auto& e : S) {
            const int re = int(rng() % 5) - 2;
            e = element<T>(re, int(rng() % 3) - 1);
        }
        break;
    case Fill::ZeroColumn:
        for (int r = 0; r < n; ++r) S[std::size_t(n / 2) * n + r] = T(0);
        break;
    case Fill::Subnormal: // a column below the singular floor, not zero
        for (int r = 0; r < n; ++r)
            S[std::size_t(n - 1) * n + r] *= std::numeric_limits<tdls::real_type_t<T>>::denorm_min() * 4;
        break;
    case Fill::NaN:
        // A complex NaN in one part, the real or the imaginary one.
        S[std::size_t(rng() % (unsigned(n) * n))] = tdls::is_complex_scalar_v<T> && rng() % 2
                                                        ? element<T>(0.5, std::nan(""))
                                                        : element<T>(std::nan(""), 0.5);
        break;
    default:
        break;
    }
    return S;
}

/// A whole batch in one form, every element outside the systems a sentinel.
template <typename T>
struct Batch {
    BatchCall call;
    std::vector<T> A, B;
    std::vector<std::int32_t> ipiv, info;
    std::vector<void*> A_ptr, B_ptr;
    std::vector<std::int32_t*> ipiv_ptr;

    /// packed: a strided batch without padding or gaps (systems back to back).
    Batch(BatchForm form, bool row_major, int n, int nrhs, std::int64_t batch, std::int64_t block, Fill fill,
          Operation op, double tau, bool packed = false) {
        auto& o = call.operands;
        call.operation = op;
        call.pivot_threshold = tau;
        o.form = form;
        o.row_major = row_major;
        o.n = n;
        o.nrhs = nrhs;
        o.batch = batch;
        if (form == BatchForm::Interleaved) {
            o.block = block;
            const std::int64_t blocks = (batch + block - 1) / block;
            A.assign(std::size_t(blocks * block * n * n), T(-77.25));
            B.assign(std::size_t(blocks * block * n * std::max(nrhs, 1)), T(-77.25));
            ipiv.assign(std::size_t(blocks * block * n), -7);
        } else {
            const int pad = packed ? 0 : 1;
            o.lda = n + 2 * pad;
            o.strideA = o.lda * n + 3 * pad;
            o.ldb = std::max(row_major ? nrhs + pad : n + pad, 1);
            o.strideB = o.ldb * (row_major ? n : std::max(nrhs, 1)) + 2 * pad;
            o.strideIpiv = n + pad;
            A.assign(std::size_t(o.strideA * batch), T(-77.25));
            B.assign(std::size_t(o.strideB * batch), T(-77.25));
            ipiv.assign(std::size_t(o.strideIpiv * batch), -7);
        }
        info.assign(std::size_t(batch), -9);
        o.info = info.data();
        if (form == BatchForm::Pointers) {
            // Systems in the buffer in reverse order of the batch.
            for (std::int64_t s = 0; s < batch; ++s) {
                const std::int64_t at = batch - 1 - s;
                A_ptr.push_back(A.data() + at * o.strideA);
                B_ptr.push_back(B.data() + at * o.strideB);
                ipiv_ptr.push_back(ipiv.data() + at * o.strideIpiv);
            }
            o.A_array = A_ptr.data();
            o.B_array = nrhs > 0 ? B_ptr.data() : nullptr;
            o.ipiv_array = ipiv_ptr.data();
        } else {
            o.A = A.data();
            o.B = nrhs > 0 ? B.data() : nullptr;
            o.ipiv = ipiv.data();
        }
        std::mt19937 rng(unsigned(n * 131 + nrhs));
        std::uniform_real_distribution<double> u(-1, 1);
        for (std::int64_t s = 0; s < batch; ++s) {
            const auto v = tdls::kernels::view_of<T>(o, s);
            const std::vector<T> S = system_matrix<T>(fill, n, s);
            for (int c = 0; c < n; ++c)
                for (int r = 0; r < n; ++r) v.A[r * v.a_row + c * v.a_col] = S[std::size_t(c) * n + r];
            for (int k = 0; k < nrhs; ++k)
                for (int i = 0; i < n; ++i) {
                    const double re = u(rng);
                    v.B[i * v.b_row + k * v.b_col] = element<T>(re, u(rng));
                }
        }
    }

    /// getrs needs factors and pivots: those of the oracle's getrf.
    template <typename Other>
    void take_factors(const Other& factored) {
        A = factored.A;
        ipiv = factored.ipiv;
    }
};

template <typename T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

template <typename T>
bool same_results(const Batch<T>& a, const Batch<T>& b) {
    return same_bits(a.A, b.A) && same_bits(a.B, b.B) && same_bits(a.ipiv, b.ipiv) &&
           same_bits(a.info, b.info);
}

/// The range kernel of order N (0: the dynamic one): real systems with the
/// exchanges the test picks (the library picks zen5_blends() of the
/// processor), complex ones as the dispatch table holds them.
template <typename T, int N, bool RowMajor>
void range_kernel(const BatchCall& call, std::int64_t begin, std::int64_t end, bool zen5_blend) {
    if constexpr (tdls::is_complex_scalar_v<T>)
        simd::solve_range<T, N, RowMajor>(call, begin, end);
    else
        simd::real_range<T, N, RowMajor>(call, begin, end, zen5_blend);
}

/// The static orders compiled here (1-5: registers and blends; 12: columns
/// padded to 16 rows).
using StaticOrders = std::integer_sequence<int, 1, 2, 3, 4, 5, 8, 12, 16>;

/// The range kernel of static order n where one is compiled here, else the
/// dynamic one.
template <typename T, bool RowMajor, int... N>
auto kernel_of_order(int n, std::integer_sequence<int, N...>) {
    auto kernel = &range_kernel<T, 0, RowMajor>;
    ((n == N ? void(kernel = &range_kernel<T, N, RowMajor>) : void()), ...);
    return kernel;
}

template <int... N>
bool static_order(int n, std::integer_sequence<int, N...>) {
    return ((n == N) || ...);
}

/// Whether order n has a static instance here whose tiles blend on Zen 5
/// only (ExchangeChoice::zen5_blends): compare runs those both ways on every
/// host. With 64-byte vectors: double 8, float 12 and 16.
template <typename T>
bool runs_both_ways(int n) {
    constexpr int W = simd::lanes<T>;
    if constexpr (tdls::is_complex_scalar_v<T>)
        return false;
    else
        return static_order(n, StaticOrders{}) && simd::blends_on_zen5_only<T, W>(n);
}

/// The SIMD kernel of order n: the static instance where one is compiled
/// here, else the dynamic one; over ranges that split tiles.
template <typename T, bool RowMajor>
void run_simd(const BatchCall& call, bool use_static, bool zen5_blend = false) {
    const std::int64_t batch = call.operands.batch;
    const int n = int(call.operands.n);
    const auto kernel =
        use_static ? kernel_of_order<T, RowMajor>(n, StaticOrders{}) : &range_kernel<T, 0, RowMajor>;
    // Cuts that are not multiples of any width. Orders whose tiles go in
    // pairs (simd::pairs_pay) then meet a lone partial tile, a pair whose
    // second tile is partial and, in their wider batch (compare), full pairs
    // followed by an odd partial tile.
    constexpr int W = simd::lanes<T>;
    const std::int64_t cut = std::min<std::int64_t>(batch, 3), cut2 = std::min<std::int64_t>(batch, W + 6);
    kernel(call, 0, cut, zen5_blend);
    kernel(call, cut, cut2, zen5_blend);
    kernel(call, cut2, batch, zen5_blend);
}

template <typename T, bool RowMajor>
void run_scalar(const BatchCall& call) {
    tdls::kernels::cpu::solve_range<T, 0, RowMajor>(call, 0, call.operands.batch);
}

struct Counts {
    int cases = 0, mismatches = 0;
};

/// One batch through the cooperative solver and through `simd(call)` (the
/// SIMD kernels, over whatever ranges it picks): whether every output is
/// bitwise the same. getrs reads the cooperative getrf's factors.
template <typename T, bool RowMajor, typename Simd>
bool same_as_scalar(int n, BatchForm form, std::int64_t block, Operation op, int nrhs, std::int64_t batch,
                    Fill fill, double tau, double simd_tau, bool packed, const Simd& simd) {
    Batch<T> want(form, RowMajor, n, nrhs, batch, block, fill, op, tau, packed);
    Batch<T> got(form, RowMajor, n, nrhs, batch, block, fill, op, simd_tau > 0 ? simd_tau : tau, packed);
    if (op == Operation::Getrs) {
        Batch<T> factored(form, RowMajor, n, 0, batch, block, fill, Operation::Getrf, tau, packed);
        run_scalar<T, RowMajor>(factored.call);
        want.take_factors(factored);
        got.take_factors(factored);
    }
    run_scalar<T, RowMajor>(want.call);
    simd(got.call);
    return same_results(want, got);
}

template <typename T, bool RowMajor>
void compare(int n, BatchForm form, std::int64_t block, Operation op, int nrhs, double tau, bool use_static,
             Counts& counts, double simd_tau = 0, bool packed = false) {
    constexpr int W = simd::lanes<T>;
    const std::int64_t batch = (use_static && simd::pairs_pay<T, W>(n) ? 4 : 2) * W + 3;
    for (const bool zen5_blend : {false, true}) {
        if (zen5_blend && !(use_static && runs_both_ways<T>(n))) break;
        for (const Fill fill : {Fill::Random, Fill::Ties}) {
            const bool same = same_as_scalar<T, RowMajor>(
                n, form, block, op, nrhs, batch, fill, tau, simd_tau, packed,
                [&](const BatchCall& call) { run_simd<T, RowMajor>(call, use_static, zen5_blend); });
            ++counts.cases;
            if (!same) ++counts.mismatches;
        }
    }
}

} // namespace

TEMPLATE_TEST_CASE("SIMD kernels equal the cooperative solver bit for bit, " TDLS_TILE_TEST_WIDTH, "[simd]",
                   TDLS_TILE_TEST_TYPES) {
    using T = TestType;
    constexpr int W = simd::lanes<T>;
    Counts counts;
    std::vector<int> sizes(20);
    std::iota(sizes.begin(), sizes.end(), 1);
#ifndef TDLS_TEST_NARROW_SANITIZED
    // Past 64: the exchanges lane by lane that every_lane_exchanges names
    // (128: the same code as every order up to the kernels' 256, whose n^3
    // this run cannot afford; test_capi_gesv takes 100, 128 and 256 through
    // the tiles against LAPACK).
    for (const int n : {24, 31, 32, 33, 40, 47, 48, 55, 63, 64, 65, 67, 128}) sizes.push_back(n);
    constexpr int expected_orders = 33;
#else
    // Sanitized builds keep the orders around 32 and 64 (a vector's rows
    // and 64 bits of exchanged rows) and the first past 64: the others are
    // most of the n^3 of a run that took 115 s under ASan (docs/ci.md);
    // release runs all.
    for (const int n : {31, 32, 33, 63, 64, 65}) sizes.push_back(n);
    constexpr int expected_orders = 26;
#endif
    int orders = 0;
    for (const int n : sizes) {
        ++orders;
        const bool use_static = n <= 16;
        for (const bool row_major : {false, true}) {
            const auto each = [&](BatchForm form, std::int64_t block, Operation op, int nrhs, double tau,
                                  bool packed = false) {
                if (row_major)
                    compare<T, true>(n, form, block, op, nrhs, tau, use_static, counts, 0, packed);
                else
                    compare<T, false>(n, form, block, op, nrhs, tau, use_static, counts, 0, packed);
            };
            for (const BatchForm form : {BatchForm::Strided, BatchForm::Pointers, BatchForm::Interleaved}) {
                const std::int64_t block = form == BatchForm::Interleaved ? 2 * W : 1;
                each(form, block, Operation::Gesv, 1, 1.0);
                each(form, block, Operation::Gesv, 3, 1.0);
                each(form, block, Operation::Getrs, 2, 1.0);
            }
            each(BatchForm::Strided, 1, Operation::Gesv, 0, 1.0);
            each(BatchForm::Strided, 1, Operation::Getrf, 0, 0.6);
            each(BatchForm::Strided, 1, Operation::Gesv, 2, 0.6);
            each(BatchForm::Interleaved, 3, Operation::Gesv, 1, 1.0);         // blocks narrower than a tile
            each(BatchForm::Interleaved, 2 * W + 3, Operation::Gesv, 2, 1.0); // one partial block
            // Packed systems back to back: small ones move split in registers.
            each(BatchForm::Strided, 1, Operation::Gesv, 1, 1.0, true);
            each(BatchForm::Strided, 1, Operation::Getrs, 1, 1.0, true);
        }
    }
    INFO("orders " << orders << ", cases " << counts.cases);
    CHECK(counts.mismatches == 0);
    REQUIRE(orders == expected_orders);
    // Orders that blend on Zen 5 only run twice (runs_both_ways).
    constexpr int zen5_only =
        std::is_same_v<T, double> && W == 8 ? 1 : std::is_same_v<T, float> && W == 16 ? 2 : 0;
    REQUIRE(counts.cases == (orders + zen5_only) * 2 * (3 * 3 + 7) * 2);
}

TEMPLATE_TEST_CASE("right-hand sides wider than the range's block move in several blocks, " TDLS_TILE_TEST_WIDTH,
                   "[simd]", TDLS_TILE_TEST_TYPES) {
    // Two full blocks of columns and a partial one (simd_range.hpp solves B
    // a block of ~64 KiB at a time): the blocks past the first start at a
    // column other than 0, in the runs (column-major) and the gathers
    // (row-major) of load_rhs / store_rhs alike.
    // (complex_lu.hpp's blocks are sized as the real tiles' are.)
    using T = TestType;
    constexpr std::int64_t entry_bytes = simd::lanes<T> * sizeof(tdls::real_type_t<T>);
    Counts counts;
    for (const int n : {5, 40}) {
        const int nrhs = 2 * simd::rhs_block_columns(n, std::int64_t(1) << 30, entry_bytes) + 1;
        for (const BatchForm form : {BatchForm::Strided, BatchForm::Pointers}) {
            compare<T, false>(n, form, 1, Operation::Gesv, nrhs, 1.0, n <= 16, counts);
            compare<T, true>(n, form, 1, Operation::Gesv, nrhs, 1.0, n <= 16, counts);
            compare<T, true>(n, form, 1, Operation::Getrs, nrhs, 1.0, n <= 16, counts);
        }
    }
    INFO("cases " << counts.cases);
    CHECK(counts.mismatches == 0);
    REQUIRE(counts.cases == 2 * 2 * 3 * 2);
}

TEMPLATE_TEST_CASE(
    "negative control: a relaxed pivot threshold in the SIMD kernel is seen, " TDLS_TILE_TEST_WIDTH, "[simd]",
    TDLS_TILE_TEST_TYPES) {
    using T = TestType;
    Counts counts;
    for (const int n : {4, 9, 24})
        compare<T, false>(n, BatchForm::Strided, 1, Operation::Gesv, 1, 1.0, false, counts, 0.3);
    REQUIRE(counts.cases == 6);
    REQUIRE(counts.mismatches >= 4);
}

#ifdef TDLS_TILE_TEST_REAL
TEMPLATE_TEST_CASE("interleaved blocks of several tiles: each block's first tile hints the block, " TDLS_TILE_TEST_WIDTH,
                   "[simd][prefetch]", TDLS_TILE_TEST_TYPES) {
    // prefetch.hpp: in blocks wider than a tile, from tiles of 64 KiB on,
    // the first tile of each block loads through
    // load_matrices_hinting_block. The hints change no value: every
    // operation in both layouts, bitwise the cooperative solver's, over
    // ranges that start on a block (whole blocks hinted), end inside one
    // (a head tile with nothing after it in the range) and start after a
    // head. The run above splits every batch at system 3, so no tile of it
    // starts a block.
    using T = TestType;
    constexpr int W = simd::lanes<T>;
    using tdls::real_type_t;
    int n = 1;
    while (simd::tile_matrix_bytes<real_type_t<T>, W>(n) < simd::whole_block_min_tile_bytes) ++n;
    // The policy: from that order, in blocks wider than a tile, none
    // beyond whole_block_max_bytes; never for strided calls or tiles below
    // the threshold (the controls that the cases below take the path).
    const auto hinted = [](BatchForm form, int order, std::int64_t block) {
        return simd::prefetch_whole_blocks<real_type_t<T>, W>(form, order, block);
    };
    REQUIRE(hinted(BatchForm::Interleaved, n, 2 * W));
    REQUIRE(hinted(BatchForm::Interleaved, n + 1, 3 * W));
    CHECK_FALSE(hinted(BatchForm::Interleaved, n - 1, 2 * W));
    CHECK_FALSE(hinted(BatchForm::Interleaved, n, W));
    CHECK_FALSE(hinted(BatchForm::Strided, n, 2 * W));
    CHECK_FALSE(hinted(BatchForm::Interleaved, n, std::numeric_limits<std::int64_t>::max()));
    const std::int64_t widest = simd::whole_block_max_bytes / (std::int64_t(n) * n * sizeof(real_type_t<T>));
    CHECK(hinted(BatchForm::Interleaved, n, widest));
    CHECK_FALSE(hinted(BatchForm::Interleaved, n, widest + 1));

    Counts counts;
    int cases = 0;
    const auto run = [&](auto row_major, int order, std::int64_t block, std::int64_t batch, Operation op,
                         std::int64_t split) {
        constexpr bool RowMajor = decltype(row_major)::value;
        const int nrhs = op == Operation::Getrf ? 0 : 2;
        // Ranges [0, split) and [split, batch), each of whole tiles but the last.
        const bool same = same_as_scalar<T, RowMajor>(
            order, BatchForm::Interleaved, block, op, nrhs, batch, Fill::Random, 1.0, 0, false,
            [&](const BatchCall& call) {
                simd::solve_range<T, 0, RowMajor>(call, 0, split);
                simd::solve_range<T, 0, RowMajor>(call, split, batch);
            });
        ++counts.cases;
        if (!same) ++counts.mismatches;
        ++cases;
    };
    for (const int order : {n, n + 1})
        for (const std::int64_t block : {std::int64_t(2 * W), std::int64_t(3 * W)}) {
            const std::int64_t batch = 2 * block + W + 1; // two whole blocks and a partial one
            for (const Operation op : {Operation::Gesv, Operation::Getrf, Operation::Solve, Operation::Getrs})
                for (const std::int64_t split : {batch, block + W, block + 2 * W}) {
                    run(std::false_type{}, order, block, batch, op, split);
                    run(std::true_type{}, order, block, batch, op, split);
                }
        }
    INFO("order " << n << ", cases " << counts.cases);
    CHECK(counts.mismatches == 0);
    REQUIRE(cases == 2 * 2 * 4 * 3 * 2);
}
#endif // TDLS_TILE_TEST_REAL
