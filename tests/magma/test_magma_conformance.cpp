// MAGMA's magma_?gesv_batched_small through libtdls_magma (magma_int_t = int)
// or, compiled a second time with MAGMA_ILP64, libtdls_magma64 (long long),
// on the CPU backend: host pointer arrays and a NULL queue, as a MAGMA
// program would call it with ldda > n and singular systems in the batch.
// Checked against LAPACKE_?gesv system by system (pivots equal, info equal,
// factors close, backward error of X within LAPACK's test ratio, B untouched
// for a singular system) and against MAGMA's documented semantics: argument
// codes, quick returns that touch nothing, and invalid calls that modify
// nothing. Every check has a negative control; every test case asserts how
// many cases it ran.
#include <catch2/catch.hpp>

#include <tdls/magma.h>
#include <tdls/tdls.h>

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "capi_support.hpp"
#include "magma_batch.hpp"

using capi_test::Kind;
using magma_test::MagmaBatch;

namespace {

#if defined(MAGMA_ILP64)
static_assert(sizeof(magma_int_t) == 8, "MAGMA_ILP64: magma_int_t is long long");
#else
static_assert(sizeof(magma_int_t) == 4, "magma_int_t is int");
#endif

magma_int_t magma_gesv(magma_int_t n, magma_int_t nrhs, float** A, magma_int_t ldda, magma_int_t** ipiv,
                       float** B, magma_int_t lddb, magma_int_t* info, magma_int_t batch,
                       magma_queue_t queue) {
    return magma_sgesv_batched_small(n, nrhs, A, ldda, ipiv, B, lddb, info, batch, queue);
}
magma_int_t magma_gesv(magma_int_t n, magma_int_t nrhs, double** A, magma_int_t ldda, magma_int_t** ipiv,
                       double** B, magma_int_t lddb, magma_int_t* info, magma_int_t batch,
                       magma_queue_t queue) {
    return magma_dgesv_batched_small(n, nrhs, A, ldda, ipiv, B, lddb, info, batch, queue);
}
// Complex: std::complex arrays handed over as MAGMA's types (two reals each).
magma_int_t magma_gesv(magma_int_t n, magma_int_t nrhs, tdls::complex_float** A, magma_int_t ldda,
                       magma_int_t** ipiv, tdls::complex_float** B, magma_int_t lddb, magma_int_t* info,
                       magma_int_t batch, magma_queue_t queue) {
    return magma_cgesv_batched_small(n, nrhs, reinterpret_cast<magmaFloatComplex**>(A), ldda, ipiv,
                                     reinterpret_cast<magmaFloatComplex**>(B), lddb, info, batch, queue);
}
magma_int_t magma_gesv(magma_int_t n, magma_int_t nrhs, tdls::complex_double** A, magma_int_t ldda,
                       magma_int_t** ipiv, tdls::complex_double** B, magma_int_t lddb, magma_int_t* info,
                       magma_int_t batch, magma_queue_t queue) {
    return magma_zgesv_batched_small(n, nrhs, reinterpret_cast<magmaDoubleComplex**>(A), ldda, ipiv,
                                     reinterpret_cast<magmaDoubleComplex**>(B), lddb, info, batch, queue);
}

/// Calls with the batch's own arrays and leading dimensions.
template <typename T>
magma_int_t call(MagmaBatch<T>& b, magma_queue_t queue = nullptr) {
    return magma_gesv(b.n, b.nrhs, b.dA_array.data(), b.ldda, b.dipiv_array.data(), b.dB_array.data(), b.lddb,
                      b.info.data(), b.batch, queue);
}

/// Singular systems between regular ones, as in a real batch.
const std::vector<Kind> kinds = {Kind::Uniform,        Kind::ZeroColumn, Kind::PivotHeavy,
                                 Kind::IllConditioned, Kind::ZeroMatrix, Kind::Uniform,
                                 Kind::DuplicateRows,  Kind::PivotHeavy};

template <typename T>
capi_test::SystemSet<T> systems(int n, int nrhs, std::uint64_t seed) {
    return capi_test::make_set<T>(n, nrhs, TDLS_COL_MAJOR, kinds, seed);
}

struct Tally {
    int systems = 0, singular = 0, solutions = 0, controls = 0;
};

/// One (type, n, nrhs): the call against LAPACKE, system by system.
template <typename T>
void check_against_lapack(int n, int nrhs, Tally& tally) {
    INFO(capi_test::type_name<T>() << ", n = " << n << ", nrhs = " << nrhs);
    const auto set = systems<T>(n, nrhs, 7919u * n + nrhs);
    MagmaBatch<T> batch(set, /*lda_extra=*/3, /*ldb_extra=*/2);
    REQUIRE(call(batch) == 0);
    REQUIRE(batch.guards_intact());

    for (magma_int_t s = 0; s < batch.batch; ++s) {
        INFO("system " << s << " (" << capi_test::kind_name(set.kinds[s]) << ")");
        const auto lapack = capi_test::lapack_oracle(set.A[s], n, set.B[s], nrhs, TDLS_COL_MAJOR);
        REQUIRE(lapack.info == capi_test::expected_singular_info(set.kinds[s], n));
        REQUIRE(batch.info[s] == lapack.info);
        REQUIRE(batch.ipiv(s) == std::vector<magma_int_t>(lapack.ipiv.begin(), lapack.ipiv.end()));
        REQUIRE(capi_test::factor_ratio(batch.A(s), lapack.lu, set.A[s], n) <= capi_test::factor_bound);
        if (lapack.info > 0) {
            REQUIRE(magma_test::same_bits(batch.B(s), set.B[s])); // MAGMA would overwrite B; libtdls keeps it
            ++tally.singular;
        } else {
            const double ratio =
                capi_test::solution_ratio(set.A[s], n, TDLS_COL_MAJOR, batch.B(s), set.B[s], nrhs);
            INFO("backward error ratio " << ratio);
            REQUIRE(ratio <= tdls_test::backward_error_bound);
            tally.solutions += nrhs;
        }
        ++tally.systems;
    }

    // Negative controls on system 0 (uniform) and 1 (singular).
    const auto lapack = capi_test::lapack_oracle(set.A[0], n, set.B[0], nrhs, TDLS_COL_MAJOR);
    constexpr double eps = std::numeric_limits<capi_test::real_of<T>>::epsilon();
    if (n >= 2) {
        const std::vector<magma_int_t> ours = batch.ipiv(0);
        const std::vector<std::int32_t> pivots(ours.begin(), ours.end());
        CHECK_FALSE(capi_test::corrupted_pivots(pivots) == lapack.ipiv);
        ++tally.controls;
    }
    CHECK(capi_test::factor_ratio(capi_test::perturbed(batch.A(0), 16 * capi_test::factor_bound * n * eps),
                                  lapack.lu, set.A[0], n) > capi_test::factor_bound);
    CHECK(capi_test::solution_ratio(set.A[0], n, TDLS_COL_MAJOR,
                                    capi_test::perturbed(batch.B(0), 1000.0 * n * n * eps), set.B[0],
                                    nrhs) > tdls_test::backward_error_bound);
    MagmaBatch<T> touched(batch);
    touched.dB_array[1][0] = capi_test::next_up(touched.dB_array[1][0]);
    CHECK_FALSE(magma_test::same_bits(touched.B(1), set.B[1]));
    touched.dA_array[2][n] = T(0); // row n of column 0: padding inside ldda
    CHECK_FALSE(touched.guards_intact());
    tally.controls += 4;
}

} // namespace

TEST_CASE("magma_?gesv_batched_small (s, d, c, z) solves like LAPACK ?gesv, per system", "[magma][lapack]") {
    const std::vector<int> orders = {1, 2, 3, 4, 7, 8, 16, 17, 31, 32, 33, 64, 100};
    Tally tally;
    for (const int n : orders)
        for (const int nrhs : {1, 3}) {
            check_against_lapack<double>(n, nrhs, tally);
            check_against_lapack<float>(n, nrhs, tally);
            check_against_lapack<tdls::complex_double>(n, nrhs, tally);
            check_against_lapack<tdls::complex_float>(n, nrhs, tally);
        }
    const int configurations = int(orders.size()) * 2 * 4;
    CHECK(tally.systems == configurations * int(kinds.size()));
    CHECK(tally.singular == configurations * 3);
    CHECK(tally.solutions == int(orders.size()) * 4 * (1 + 3) * 5);
    CHECK(tally.controls >= configurations * 5 - 2 * 4); // no pivot control at n = 1: 2 nrhs x 4 types
}

TEST_CASE("beyond MAGMA's small kernel: n up to 1024, any nrhs", "[magma][lapack]") {
    Tally tally;
    check_against_lapack<double>(200, 5, tally);
    check_against_lapack<float>(33, 8, tally);
    CHECK(tally.systems == 2 * int(kinds.size()));
}

namespace {

/// An argument change that makes the call invalid (or a quick return) and
/// the code MAGMA's convention gives it.
struct Case {
    const char* what;
    magma_int_t expected;
    magma_int_t n, nrhs, ldda, lddb, batch;
    int null_array; // 0 none, 3 dA_array, 5 dipiv_array, 6 dB_array, 8 dinfo_array
    int null_entry; // 0 none, 3 dA_array[1], 5 dipiv_array[2], 6 dB_array[0]
    bool queue;     // a non-NULL queue, with no MAGMA in the process
};

} // namespace

TEST_CASE("argument codes, quick returns and invalid calls touch nothing", "[magma][invalid]") {
    const int n = 5, nrhs = 2;
    const auto set = systems<double>(n, nrhs, 17);
    const MagmaBatch<double> pristine(set, 2, 1);
    const magma_int_t ldda = pristine.ldda, lddb = pristine.lddb, count = pristine.batch;
    const std::vector<Case> cases = {
        {"n < 0", -1, -1, nrhs, ldda, lddb, count, 0, 0, false},
        {"n < 0 before nrhs < 0", -1, -3, -1, ldda, lddb, count, 0, 0, false},
        {"nrhs < 0", -2, n, -1, ldda, lddb, count, 0, 0, false},
        {"nrhs < 0 before ldda", -2, n, -4, 1, lddb, count, 0, 0, false},
        {"ldda < n", -4, n, nrhs, n - 1, lddb, count, 0, 0, false},
        {"ldda before lddb", -4, n, nrhs, 0, 0, count, 0, 0, false},
        {"lddb < n", -7, n, nrhs, ldda, n - 1, count, 0, 0, false},
        {"batchCount < 0", -9, n, nrhs, ldda, lddb, -1, 0, 0, false},
        {"dA_array NULL", -3, n, nrhs, ldda, lddb, count, 3, 0, false},
        {"dA_array[1] NULL", -3, n, nrhs, ldda, lddb, count, 0, 3, false},
        {"dipiv_array[2] NULL", -5, n, nrhs, ldda, lddb, count, 0, 5, false},
        {"dB_array NULL", -6, n, nrhs, ldda, lddb, count, 6, 0, false},
        {"dB_array[0] NULL", -6, n, nrhs, ldda, lddb, count, 0, 6, false},
        {"dinfo_array NULL", -8, n, nrhs, ldda, lddb, count, 8, 0, false},
        {"n above 1024", MAGMA_ERR, TDLS_MAX_ORDER + 1, nrhs, TDLS_MAX_ORDER + 1, TDLS_MAX_ORDER + 1, count,
         0, 0, false},
        {"a GPU queue without MAGMA in the process", MAGMA_ERR, n, nrhs, ldda, lddb, count, 0, 0, true},
        // MAGMA's quick returns: before any other check, and info is not written.
        {"n == 0", 0, 0, nrhs, 0, 0, count, 0, 0, false},
        {"n == 0, arrays NULL", 0, 0, nrhs, ldda, lddb, count, 3, 0, false},
        {"nrhs == 0 (MAGMA does not factor)", 0, n, 0, ldda, lddb, count, 0, 0, false},
        {"nrhs == 0, bad ldda", 0, n, 0, 1, lddb, count, 0, 0, false},
        {"batchCount == 0", 0, n, nrhs, ldda, lddb, 0, 0, 0, false},
    };
    int ran = 0, controls = 0;
    for (const Case& c : cases) {
        INFO(c.what);
        MagmaBatch<double> batch(pristine);
        std::vector<double*> A = batch.dA_array, B = batch.dB_array;
        std::vector<magma_int_t*> ipiv = batch.dipiv_array;
        if (c.null_entry == 3) A[1] = nullptr;
        if (c.null_entry == 5) ipiv[2] = nullptr;
        if (c.null_entry == 6) B[0] = nullptr;
        magma_queue_t queue = c.queue ? reinterpret_cast<magma_queue_t>(&batch) : nullptr;
        const magma_int_t code = magma_dgesv_batched_small(
            c.n, c.nrhs, c.null_array == 3 ? nullptr : A.data(), c.ldda,
            c.null_array == 5 ? nullptr : ipiv.data(), c.null_array == 6 ? nullptr : B.data(), c.lddb,
            c.null_array == 8 ? nullptr : batch.info.data(), c.batch, queue);
        CHECK(code == c.expected);
        CHECK(batch.same_memory(pristine));
        ++ran;
    }
    CHECK(ran == int(cases.size()));

    // dipiv_array NULL is accepted: the same results, no pivots stored.
    {
        MagmaBatch<double> with(pristine), without(pristine);
        REQUIRE(call(with) == 0);
        REQUIRE(magma_dgesv_batched_small(n, nrhs, without.dA_array.data(), ldda, nullptr,
                                          without.dB_array.data(), lddb, without.info.data(), count,
                                          nullptr) == 0);
        CHECK(magma_test::same_bits(with.A_storage, without.A_storage));
        CHECK(magma_test::same_bits(with.B_storage, without.B_storage));
        CHECK(magma_test::same_bits(with.info, without.info));
        CHECK(magma_test::same_bits(without.ipiv_storage, pristine.ipiv_storage));
        ++ran;
    }
    // Negative controls: a successful call is not "nothing touched", and the
    // comparison sees a change in a pointer array.
    {
        MagmaBatch<double> solved(pristine);
        REQUIRE(call(solved) == 0);
        CHECK_FALSE(solved.same_memory(pristine));
        MagmaBatch<double> moved(pristine);
        moved.dA_array[0] += 1;
        CHECK_FALSE(moved.same_memory(pristine));
        controls += 2;
    }
    CHECK(ran == int(cases.size()) + 1);
    CHECK(controls == 2);
}

namespace {

/// One batch of `batch` diagonally dominant systems whose pointer arrays
/// (dA_array, dipiv_array, dB_array) are stored inside dB_array[0], or, for
/// the twin, in arrays of their own; same bytes in every system either way.
template <typename T>
struct ArraysInB {
    magma_int_t n, nrhs, batch;
    std::vector<std::vector<T>> A, B;
    std::vector<std::vector<magma_int_t>> ipiv;
    std::vector<magma_int_t> info;
    T** A_array;
    magma_int_t** ipiv_array;
    T** B_array;
    std::vector<T*> own_A, own_B;
    std::vector<magma_int_t*> own_ipiv;

    ArraysInB(magma_int_t n_, magma_int_t batch_, const ArraysInB* copy_of)
        : n(n_), nrhs(0), batch(batch_), info(std::size_t(batch_), -5) {
        const std::size_t array_bytes = 3 * std::size_t(batch) * sizeof(void*);
        nrhs = magma_int_t((array_bytes + std::size_t(n) * sizeof(T) - 1) / (std::size_t(n) * sizeof(T)));
        for (magma_int_t s = 0; s < batch; ++s) {
            A.emplace_back(std::size_t(n * n));
            B.emplace_back(std::size_t(n * nrhs) + 2); // + 2: room to align the arrays
            ipiv.emplace_back(std::size_t(n), -3);
            for (magma_int_t c = 0; c < n; ++c)
                for (magma_int_t r = 0; r < n; ++r)
                    A.back()[std::size_t(r + c * n)] = T(r == c ? n + 1 : ((r * 7 + c * 3 + s) % 11) * 0.1 - 0.5);
            for (std::size_t i = 0; i < B.back().size(); ++i) B.back()[i] = T((i * 5 + std::size_t(s)) % 13) - T(6);
        }
        for (magma_int_t s = 0; s < batch; ++s) {
            own_A.push_back(A[std::size_t(s)].data());
            own_B.push_back(B[std::size_t(s)].data());
            own_ipiv.push_back(ipiv[std::size_t(s)].data());
        }
        // Inside B[0], pointer-aligned.
        auto address = reinterpret_cast<std::uintptr_t>(B[0].data());
        address = (address + sizeof(void*) - 1) / sizeof(void*) * sizeof(void*);
        auto** inside = reinterpret_cast<void**>(address);
        own_B[0] = reinterpret_cast<T*>(inside) == B[0].data() ? B[0].data() : B[0].data() + 1;
        for (magma_int_t s = 0; s < batch; ++s) {
            inside[s] = own_A[std::size_t(s)];
            inside[batch + s] = own_ipiv[std::size_t(s)];
            inside[2 * batch + s] = own_B[std::size_t(s)];
        }
        A_array = reinterpret_cast<T**>(inside);
        ipiv_array = reinterpret_cast<magma_int_t**>(inside + batch);
        B_array = reinterpret_cast<T**>(inside + 2 * batch);
        if (copy_of != nullptr) { // the twin: the aliased batch's bytes, arrays of its own
            A = copy_of->A;
            B = copy_of->B;
            for (magma_int_t s = 0; s < batch; ++s) {
                own_A[std::size_t(s)] = A[std::size_t(s)].data();
                own_B[std::size_t(s)] = B[std::size_t(s)].data() + (copy_of->own_B[std::size_t(s)] - copy_of->B[std::size_t(s)].data());
                own_ipiv[std::size_t(s)] = ipiv[std::size_t(s)].data();
            }
            A_array = own_A.data();
            ipiv_array = own_ipiv.data();
            B_array = own_B.data();
        }
    }
};

template <typename T>
int check_arrays_inside_b(magma_int_t n, magma_int_t batch) {
    ArraysInB<T> aliased(n, batch, nullptr);
    ArraysInB<T> twin(n, batch, &aliased);
    const magma_int_t ldd = n;
    REQUIRE(magma_gesv(n, aliased.nrhs, aliased.A_array, ldd, aliased.ipiv_array, aliased.B_array, ldd,
                       aliased.info.data(), batch, nullptr) == MAGMA_SUCCESS);
    REQUIRE(magma_gesv(n, twin.nrhs, twin.A_array, ldd, twin.ipiv_array, twin.B_array, ldd, twin.info.data(),
                       batch, nullptr) == MAGMA_SUCCESS);
    CHECK(aliased.A == twin.A);
    CHECK(aliased.B == twin.B);
    CHECK(aliased.ipiv == twin.ipiv);
    CHECK(aliased.info == twin.info);
    // Negative control: the comparison sees one changed element.
    twin.B[std::size_t(batch - 1)][0] += T(1);
    CHECK_FALSE(aliased.B == twin.B);
    return 1;
}

} // namespace

TEST_CASE("pointer arrays stored inside dB_array[0] are read before B is written", "[magma][alias]") {
    // The contract forbids the overlap; the shim and the library must still
    // use the arrays as they were when the call began (issue 22).
    int cases = 0;
    for (magma_int_t n : {2, 8, 65, 70})
        for (magma_int_t batch : {2, 17}) {
            INFO("n " << n << " batch " << batch);
            cases += check_arrays_inside_b<float>(n, batch);
            cases += check_arrays_inside_b<double>(n, batch);
        }
    CHECK(cases == 16);
}
