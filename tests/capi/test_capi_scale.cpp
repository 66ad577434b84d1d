// Batches at scale through the C ABI, with memory kept to a few MiB:
//  - element offsets past 2^31 (strides of 2^26 elements between strided
//    systems; an interleaved block of 2^30 systems, of which 40 exist): the
//    operands live in sparse anonymous mappings (MAP_NORESERVE) of up to
//    ~70 GiB of address space, of which only the pages the systems occupy are
//    ever touched; any offset computed in 32 bits lands outside the systems,
//    where the sentinels are checked;
//  - batch counts past 65535 (a GPU grid's y limit, and 2^16 for any 16-bit
//    counter), dense, every system checked against a chunked run.
// Results must be the bits of the same systems solved packed (the kernels
// give every lane the same arithmetic whatever the addresses). The far
// operands go to the solve (tdls_batched_solve, _interleaved) first, which
// must leave A as it was (gesv then gets it) and X and info the packed gesv
// call's bits; the large batches go to the solve too.
#include <catch2/catch.hpp>

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <vector>

#include "capi_support.hpp"

using namespace capi_test;

namespace {

/// An anonymous mapping of `count` elements of E, reserved but not committed:
/// untouched pages cost nothing and read as zero.
template <typename E>
class SparseArray {
public:
    explicit SparseArray(std::int64_t count) : bytes_(std::size_t(count) * sizeof(E)) {
        void* p = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        REQUIRE(p != MAP_FAILED);
        data_ = static_cast<E*>(p);
    }
    ~SparseArray() { munmap(data_, bytes_); }
    SparseArray(const SparseArray&) = delete;
    SparseArray& operator=(const SparseArray&) = delete;
    E* data() { return data_; }
    E& operator[](std::int64_t i) { return data_[i]; }

private:
    std::size_t bytes_;
    E* data_;
};

/// Resident memory of this process, in MiB.
double resident_mib() {
    long pages = 0, resident = 0;
    std::FILE* f = std::fopen("/proc/self/statm", "r");
    if (f == nullptr) return 0;
    if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
    std::fclose(f);
    return double(resident) * double(sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0);
}

constexpr std::int64_t two_to_31 = std::int64_t(1) << 31;

/// The packed run every scaled call is compared with: strided, no padding.
template <typename T>
Outcome<T> packed_run(const SystemSet<T>& set) {
    return run_strided(nullptr, set);
}

/// Systems of a scale test: regular, with an exactly singular one in every 7.
template <typename T>
SystemSet<T> scale_set(int n, int nrhs, tdls_layout_t layout, std::int64_t batch, std::uint64_t seed) {
    std::vector<Kind> kinds;
    for (std::int64_t s = 0; s < batch; ++s) kinds.push_back(s % 7 == 5 ? Kind::ZeroMatrix : Kind::Uniform);
    return make_set<T>(n, nrhs, layout, kinds, seed);
}

/// A system's elements followed by the sentinel placed past it.
template <typename T>
std::vector<T> with_sentinel(std::vector<T> v) {
    v.push_back(sentinel<T>());
    return v;
}

/// Compares system s as read back from the far operands with the packed run;
/// returns 1 (the system was checked).
template <typename T>
int check_same_as_packed(const Outcome<T>& packed, std::int64_t s, const std::vector<T>& a, const std::vector<T>& b,
                         const std::vector<std::int32_t>& p, std::int32_t info) {
    INFO("system " << s);
    CHECK(same_bits(a, packed.A[s]));
    CHECK(same_bits(b, packed.B[s]));
    CHECK(p == packed.ipiv[s]);
    CHECK(info == packed.info[s]);
    return 1;
}

/// tdls_batched_gesv with strides of about 2^26 elements: the last systems sit
/// past element 2^31 of A, ipiv and B.
template <typename T>
int check_far_strided(int n, int nrhs, tdls_layout_t layout) {
    const std::int64_t batch = 40;
    const SystemSet<T> set = scale_set<T>(n, nrhs, layout, batch, 11 + n);
    const std::int64_t lda = n, ldb = b_rows(n, nrhs, layout);
    const std::int64_t strideA = (std::int64_t(1) << 26) + 3, strideIpiv = (std::int64_t(1) << 26) + 1,
                       strideB = (std::int64_t(1) << 26) + 5;
    REQUIRE((batch - 1) * strideA > two_to_31);
    REQUIRE((batch - 1) * strideIpiv > two_to_31);
    REQUIRE((batch - 1) * strideB > two_to_31);
    SparseArray<T> A((batch - 1) * strideA + lda * n + 1), B((batch - 1) * strideB + ldb * b_cols(n, nrhs, layout));
    SparseArray<std::int32_t> ipiv((batch - 1) * strideIpiv + n);
    std::vector<std::int32_t> info(batch, info_sentinel);
    const int R = b_rows(n, nrhs, layout), C = b_cols(n, nrhs, layout);
    SparseArray<T> X((batch - 1) * strideB + ldb * b_cols(n, nrhs, layout)); // the solve's B
    std::vector<std::int32_t> solve_info(batch, info_sentinel);
    for (std::int64_t s = 0; s < batch; ++s) {
        for (std::int64_t e = 0; e < std::int64_t(n) * n; ++e) A[s * strideA + e] = set.A[s][e];
        for (std::int64_t e = 0; e < std::int64_t(R) * C; ++e)
            B[s * strideB + e] = X[s * strideB + e] = set.B[s][e];
        // Sentinels just past each system, where a wrapped offset would land.
        A[s * strideA + std::int64_t(n) * n] = sentinel<T>();
    }
    // The solve reads A only: A, its sentinels included, is then what gesv gets.
    const tdls_status_t solved =
        tdls_batched_solve(nullptr, dtype_of<T>(), layout, n, nrhs, A.data(), lda, strideA, X.data(), ldb,
                           strideB, solve_info.data(), batch);
    {
        INFO(tdls_last_error());
        REQUIRE(solved == TDLS_SUCCESS);
    }
    for (std::int64_t s = 0; s < batch; ++s) {
        INFO("the solve, system " << s);
        CHECK(same_bits(
            std::vector<T>(A.data() + s * strideA, A.data() + s * strideA + std::int64_t(n) * n + 1),
            with_sentinel(set.A[s])));
    }
    const tdls_status_t status = tdls_batched_gesv(nullptr, dtype_of<T>(), layout, n, nrhs, A.data(), lda, strideA,
                                                   ipiv.data(), strideIpiv, B.data(), ldb, strideB, info.data(), batch);
    INFO(tdls_last_error());
    REQUIRE(status == TDLS_SUCCESS);
    const Outcome<T> packed = packed_run(set);
    REQUIRE(packed.status == TDLS_SUCCESS);
    int checked = 0;
    for (std::int64_t s = 0; s < batch; ++s) {
        std::vector<T> a(A.data() + s * strideA, A.data() + s * strideA + std::int64_t(n) * n);
        std::vector<T> b(B.data() + s * strideB, B.data() + s * strideB + std::int64_t(R) * C);
        std::vector<std::int32_t> p(ipiv.data() + s * strideIpiv, ipiv.data() + s * strideIpiv + n);
        checked += check_same_as_packed(packed, s, a, b, p, info[s]);
        CHECK(same_bits(std::vector<T>{A[s * strideA + std::int64_t(n) * n]}, std::vector<T>{sentinel<T>()}));
        INFO("the solve");
        CHECK(same_bits(std::vector<T>(X.data() + s * strideB, X.data() + s * strideB + std::int64_t(R) * C),
                        packed.B[s]));
        CHECK(solve_info[s] == packed.info[s]);
    }
    return checked;
}

/// tdls_batched_gesv_interleaved with one block of 2^30 systems, 40 of them
/// present: element e of system s at e * 2^30 + s, past 2^31 for e >= 2.
template <typename T>
int check_far_interleaved(int n, int nrhs, tdls_layout_t layout) {
    const std::int64_t batch = 40, block = std::int64_t(1) << 30;
    const std::int64_t EA = std::int64_t(n) * n, EB = std::int64_t(n) * nrhs;
    REQUIRE((EA - 1) * block > two_to_31);
    const SystemSet<T> set = scale_set<T>(n, nrhs, layout, batch, 23 + n);
    SparseArray<T> A(EA * block), B(EB * block);
    SparseArray<std::int32_t> ipiv(std::int64_t(n) * block);
    std::vector<std::int32_t> info(batch, info_sentinel);
    for (std::int64_t s = 0; s < batch; ++s) {
        for (std::int64_t e = 0; e < EA; ++e) A[e * block + s] = set.A[s][e];
        for (std::int64_t e = 0; e < EB; ++e) B[e * block + s] = set.B[s][e];
    }
    // Slots past the batch in the partial block: nobody's, must stay unwritten.
    for (std::int64_t e = 0; e < EA; ++e) A[e * block + batch] = sentinel<T>();
    // The solve first, on its own B; A, read only, then goes to gesv.
    SparseArray<T> X(EB * block);
    for (std::int64_t s = 0; s < batch; ++s)
        for (std::int64_t e = 0; e < EB; ++e) X[e * block + s] = set.B[s][e];
    std::vector<std::int32_t> solve_info(batch, info_sentinel);
    const tdls_status_t solved = tdls_batched_solve_interleaved(
        nullptr, dtype_of<T>(), layout, n, nrhs, A.data(), X.data(), solve_info.data(), batch, block);
    {
        INFO(tdls_last_error());
        REQUIRE(solved == TDLS_SUCCESS);
    }
    for (std::int64_t s = 0; s <= batch; ++s) { // the slot past the batch too
        std::vector<T> a(EA);
        for (std::int64_t e = 0; e < EA; ++e) a[e] = A[e * block + s];
        INFO("the solve, system " << s);
        CHECK(same_bits(a, s < batch ? set.A[s] : std::vector<T>(EA, sentinel<T>())));
    }
    const tdls_status_t status = tdls_batched_gesv_interleaved(nullptr, dtype_of<T>(), layout, n, nrhs, A.data(),
                                                               ipiv.data(), B.data(), info.data(), batch, block);
    INFO(tdls_last_error());
    REQUIRE(status == TDLS_SUCCESS);
    const Outcome<T> packed = packed_run(set);
    REQUIRE(packed.status == TDLS_SUCCESS);
    int checked = 0;
    for (std::int64_t s = 0; s < batch; ++s) {
        std::vector<T> a(EA), b(EB);
        std::vector<std::int32_t> p(n);
        for (std::int64_t e = 0; e < EA; ++e) a[e] = A[e * block + s];
        for (std::int64_t e = 0; e < EB; ++e) b[e] = B[e * block + s];
        for (int e = 0; e < n; ++e) p[e] = ipiv[e * block + s];
        checked += check_same_as_packed(packed, s, a, b, p, info[s]);
        for (std::int64_t e = 0; e < EB; ++e) b[e] = X[e * block + s];
        INFO("the solve");
        CHECK(same_bits(b, packed.B[s]));
        CHECK(solve_info[s] == packed.info[s]);
    }
    for (std::int64_t e = 0; e < EA; ++e)
        CHECK(same_bits(std::vector<T>{A[e * block + batch]}, std::vector<T>{sentinel<T>()}));
    return checked;
}

/// A dense batch past 65535 systems against the same systems solved in
/// chunks of 1000 (each chunk a separate call), and each system's backward
/// error; singular systems spread through it keep their B.
template <typename T>
int check_many(int n, std::int64_t batch, std::int64_t block) {
    const int nrhs = 1;
    const tdls_layout_t layout = TDLS_COL_MAJOR;
    const SystemSet<T> set = scale_set<T>(n, nrhs, layout, batch, 31 + n);
    const Outcome<T> whole = block > 0 ? run_interleaved(nullptr, set, block) : run_strided(nullptr, set);
    INFO(whole.error);
    REQUIRE(whole.status == TDLS_SUCCESS);
    REQUIRE(whole.guards_intact);
    {
        const Outcome<T> solve =
            block > 0 ? run_solve_interleaved(nullptr, set, block) : run_solve_strided(nullptr, set);
        const std::string mismatch = solve_mismatch(solve, whole, set);
        INFO("the solve: " << mismatch);
        CHECK(mismatch.empty());
    }
    int checked = 0;
    const std::int64_t chunk = 1000;
    for (std::int64_t first = 0; first < batch; first += chunk) {
        SystemSet<T> part;
        part.n = n;
        part.nrhs = nrhs;
        part.layout = layout;
        for (std::int64_t s = first; s < std::min(batch, first + chunk); ++s) {
            part.kinds.push_back(set.kinds[s]);
            part.A.push_back(set.A[s]);
            part.B.push_back(set.B[s]);
        }
        const Outcome<T> piece = run_strided(nullptr, part);
        REQUIRE(piece.status == TDLS_SUCCESS);
        for (std::int64_t i = 0; i < part.batch(); ++i) {
            const std::int64_t s = first + i;
            const bool same = same_bits(whole.A[s], piece.A[i]) && same_bits(whole.B[s], piece.B[i]) &&
                              whole.ipiv[s] == piece.ipiv[i] && whole.info[s] == piece.info[i];
            const bool singular = set.kinds[s] == Kind::ZeroMatrix;
            const bool verdict = singular ? whole.info[s] == 1 && same_bits(whole.B[s], set.B[s])
                                          : whole.info[s] == 0 &&
                                                solution_ratio(set.A[s], n, layout, whole.B[s], set.B[s], nrhs) <=
                                                    tdls_test::backward_error_bound;
            if (!same || !verdict) {
                FAIL_CHECK("system " << s << ": same as chunked " << same << ", verdict " << verdict);
            }
            ++checked;
        }
    }
    return checked;
}

} // namespace

/// Runs check(n, nrhs, layout) over both layouts, the orders and nrhs 1 and
/// 2; returns how many systems were checked. The mappings span tens of GiB:
/// what was touched must stay small.
template <typename Check>
int sweep_far(std::initializer_list<int> orders, Check check) {
    const double before = resident_mib();
    int checked = 0;
    for (const tdls_layout_t layout : both_layouts)
        for (const int n : orders)
            for (const int nrhs : {1, 2}) {
                INFO(layout_name(layout) << " n " << n << " nrhs " << nrhs);
                checked += check(n, nrhs, layout);
            }
    CHECK(resident_mib() - before < 512.0);
    return checked;
}

// complex double: the widest element (16 bytes), so the largest byte offsets.
TEMPLATE_TEST_CASE("strided offsets past 2^31 elements", "[scale][strided]", float, double, tdls::complex_double) {
    REQUIRE(sweep_far({1, 2, 3}, check_far_strided<TestType>) == 2 * 3 * 2 * 40);
}

TEMPLATE_TEST_CASE("interleaved offsets past 2^31 elements", "[scale][interleaved]", float, double,
                   tdls::complex_double) {
    REQUIRE(sweep_far({2, 3}, check_far_interleaved<TestType>) == 2 * 2 * 2 * 40);
}

TEMPLATE_TEST_CASE("batches past 65535 systems", "[scale][batch]", float, double) {
    int checked = 0;
    checked += check_many<TestType>(1, 70001, 0);
    checked += check_many<TestType>(2, 65537, 0);
    checked += check_many<TestType>(3, 66000, 64);
    checked += check_many<TestType>(2, 70000, 70000); // one block: pure SoA
    REQUIRE(checked == 70001 + 65537 + 66000 + 70000);
}

TEST_CASE("negative control: a wrong stride is seen by the far-offset checks", "[scale][controls]") {
    // Solving a batch at one stride and reading it back at another must not
    // pass the comparison: the checks look where the systems are.
    const int n = 2, nrhs = 1;
    const std::int64_t batch = 40;
    // Regular systems only: a zero matrix reads the same anywhere in the mapping.
    const SystemSet<double> set =
        make_set<double>(n, nrhs, TDLS_COL_MAJOR, std::vector<Kind>(batch, Kind::Uniform), 5);
    const std::int64_t stride = (std::int64_t(1) << 26) + 3;
    SparseArray<double> A((batch - 1) * stride + 4), B((batch - 1) * stride + 2);
    std::vector<std::int32_t> ipiv(batch * n), info(batch);
    for (std::int64_t s = 0; s < batch; ++s) {
        for (int e = 0; e < 4; ++e) A[s * stride + e] = set.A[s][e];
        for (int e = 0; e < 2; ++e) B[s * stride + e] = set.B[s][e];
    }
    REQUIRE(tdls_batched_gesv(nullptr, TDLS_FLOAT64, TDLS_COL_MAJOR, n, nrhs, A.data(), n, stride, ipiv.data(), n,
                              B.data(), n, stride, info.data(), batch) == TDLS_SUCCESS);
    const Outcome<double> packed = packed_run(set);
    int mismatched = 0;
    for (std::int64_t s = 1; s < batch; ++s) {
        const std::int64_t wrong = s * (stride - 1); // one element per system off
        std::vector<double> a(A.data() + wrong, A.data() + wrong + 4);
        if (!same_bits(a, packed.A[s])) ++mismatched;
    }
    CHECK(mismatched == batch - 1);

    // The solve's checks: X read one element off, and an A with one element
    // written far out, fail them; X and A where they are pass.
    SparseArray<double> S((batch - 1) * stride + 4), X((batch - 1) * stride + 2);
    for (std::int64_t s = 0; s < batch; ++s) {
        for (int e = 0; e < 4; ++e) S[s * stride + e] = set.A[s][e];
        for (int e = 0; e < 2; ++e) X[s * stride + e] = set.B[s][e];
    }
    REQUIRE(tdls_batched_solve(nullptr, TDLS_FLOAT64, TDLS_COL_MAJOR, n, nrhs, S.data(), n, stride, X.data(),
                               n, stride, info.data(), batch) == TDLS_SUCCESS);
    const auto x_at = [&](std::int64_t at) { return std::vector<double>(X.data() + at, X.data() + at + 2); };
    const auto a_at = [&](std::int64_t at) { return std::vector<double>(S.data() + at, S.data() + at + 4); };
    REQUIRE(same_bits(x_at((batch - 1) * stride), packed.B[batch - 1]));
    REQUIRE(same_bits(a_at((batch - 1) * stride), set.A[batch - 1]));
    CHECK_FALSE(same_bits(x_at((batch - 1) * (stride - 1)), packed.B[batch - 1]));
    S[(batch - 1) * stride + 3] = std::nextafter(S[(batch - 1) * stride + 3], 10.0);
    CHECK_FALSE(same_bits(a_at((batch - 1) * stride), set.A[batch - 1]));
}
