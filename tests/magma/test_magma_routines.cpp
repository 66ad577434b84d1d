// magma_?gesv_batched, magma_?getrf_batched and magma_?getrs_batched (every
// trans) through libtdls_magma or libtdls_magma64 on the CPU backend, called
// the way MAGMA programs call them: host pointer arrays with a NULL queue,
// ldda and lddb rounded up to 32 (magma_roundup), info arrays, singular
// systems in the batch. Oracles: LAPACKE_?getrf's pivots, info and factors
// per system, LAPACK's backward error ratio of op(A) X = B, and
// LAPACKE_?getrs on the same factors. Then the argument codes and quick
// returns of each routine, which must leave every operand alone, and the
// calls libtdls does not serve on the host. Every check has a negative
// control; every test case asserts how many cases it ran.
#include <catch2/catch.hpp>

#include <tdls/magma.h>
#include <tdls/tdls.h>

#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "capi_support.hpp"
#include "magma_batch.hpp"

using capi_test::Kind;
using magma_test::MagmaBatch;

namespace {

/// MAGMA's functions and element type for libtdls's T.
template <typename T>
struct Magma;
template <>
struct Magma<float> {
    using M = float;
    static constexpr auto gesv = magma_sgesv_batched;
    static constexpr auto getrf = magma_sgetrf_batched;
    static constexpr auto getrs = magma_sgetrs_batched;
};
template <>
struct Magma<double> {
    using M = double;
    static constexpr auto gesv = magma_dgesv_batched;
    static constexpr auto getrf = magma_dgetrf_batched;
    static constexpr auto getrs = magma_dgetrs_batched;
};
template <>
struct Magma<tdls::complex_float> {
    using M = magmaFloatComplex;
    static constexpr auto gesv = magma_cgesv_batched;
    static constexpr auto getrf = magma_cgetrf_batched;
    static constexpr auto getrs = magma_cgetrs_batched;
};
template <>
struct Magma<tdls::complex_double> {
    using M = magmaDoubleComplex;
    static constexpr auto gesv = magma_zgesv_batched;
    static constexpr auto getrf = magma_zgetrf_batched;
    static constexpr auto getrs = magma_zgetrs_batched;
};

template <typename T>
typename Magma<T>::M** as_magma(std::vector<T*>& array) {
    return reinterpret_cast<typename Magma<T>::M**>(array.data());
}

int roundup32(int n) {
    return (n + 31) / 32 * 32;
}

const std::vector<Kind> kinds = {Kind::Uniform,        Kind::ZeroColumn, Kind::PivotHeavy,
                                 Kind::IllConditioned, Kind::ZeroMatrix, Kind::Uniform};
constexpr int regular_per_batch = 4, singular_per_batch = 2;

template <typename T>
MagmaBatch<T> magma_style_batch(int n, int nrhs, std::uint64_t seed) {
    const auto set = capi_test::make_set<T>(n, nrhs, TDLS_COL_MAJOR, kinds, seed);
    return MagmaBatch<T>(set, roundup32(n) - n, roundup32(n) - n);
}

const magma_trans_t all_trans[] = {MagmaNoTrans, MagmaTrans, MagmaConjTrans};

const char* trans_name(magma_trans_t trans) {
    return trans == MagmaNoTrans ? "MagmaNoTrans" : trans == MagmaTrans ? "MagmaTrans" : "MagmaConjTrans";
}

/// op(S): S, S^T or S^H, packed column-major.
template <typename T>
std::vector<T> op(const std::vector<T>& S, int n, magma_trans_t trans) {
    if (trans == MagmaNoTrans) return S;
    std::vector<T> out(S.size());
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            T v = S[std::size_t(i) * n + j];
            if constexpr (tdls::is_complex_scalar_v<T>)
                if (trans == MagmaConjTrans) v = std::conj(v);
            out[std::size_t(j) * n + i] = v;
        }
    return out;
}

/// Largest backward error ratio of op(S) X = B over the columns.
template <typename T>
double op_ratio(const std::vector<T>& S, int n, magma_trans_t trans, const std::vector<T>& X,
                const std::vector<T>& B, int nrhs) {
    return capi_test::solution_ratio(op(S, n, trans), n, TDLS_COL_MAJOR, X, B, nrhs);
}

/// LAPACKE_?getrs with a trans character on packed factors (lda = n).
inline lapack_int lapack_getrs_op(char t, int n, int nrhs, const float* lu, const lapack_int* ipiv, float* b) {
    return LAPACKE_sgetrs(LAPACK_COL_MAJOR, t, n, nrhs, lu, n, ipiv, b, n);
}
inline lapack_int lapack_getrs_op(char t, int n, int nrhs, const double* lu, const lapack_int* ipiv, double* b) {
    return LAPACKE_dgetrs(LAPACK_COL_MAJOR, t, n, nrhs, lu, n, ipiv, b, n);
}
inline lapack_int lapack_getrs_op(char t, int n, int nrhs, const std::complex<float>* lu, const lapack_int* ipiv,
                                  std::complex<float>* b) {
    return LAPACKE_cgetrs(LAPACK_COL_MAJOR, t, n, nrhs, capi_test::lapack_ptr(lu), n, ipiv,
                          capi_test::lapack_ptr(b), n);
}
inline lapack_int lapack_getrs_op(char t, int n, int nrhs, const std::complex<double>* lu,
                                  const lapack_int* ipiv, std::complex<double>* b) {
    return LAPACKE_zgetrs(LAPACK_COL_MAJOR, t, n, nrhs, capi_test::lapack_ptr(lu), n, ipiv,
                          capi_test::lapack_ptr(b), n);
}

struct Tally {
    int factored = 0, singular = 0, solved = 0, compared = 0, controls = 0;
};

/// getrf on a MAGMA-style batch against LAPACKE_?getrf, then getrs with
/// every trans on its factors against LAPACK's backward error ratio and
/// LAPACKE_?getrs; then gesv_batched against the same oracle.
template <typename T>
void check_family(int n, int nrhs, Tally& tally) {
    using M = Magma<T>;
    INFO(capi_test::type_name<T>() << ", n = " << n << ", nrhs = " << nrhs << ", ldda = lddb = " << roundup32(n));
    const auto set = capi_test::make_set<T>(n, nrhs, TDLS_COL_MAJOR, kinds, 4099u * n + nrhs);
    MagmaBatch<T> factored(set, roundup32(n) - n, roundup32(n) - n);
    REQUIRE(M::getrf(n, n, as_magma(factored.dA_array), factored.ldda, factored.dipiv_array.data(),
                     factored.info.data(), factored.batch, nullptr) == 0);
    REQUIRE(factored.guards_intact());
    std::vector<capi_test::Oracle<T>> lapack;
    for (magma_int_t s = 0; s < factored.batch; ++s) {
        INFO("system " << s << " (" << capi_test::kind_name(set.kinds[s]) << ")");
        lapack.push_back(capi_test::lapack_oracle(set.A[s], n, set.B[s], 0, TDLS_COL_MAJOR));
        REQUIRE(factored.info[s] == lapack.back().info);
        REQUIRE(factored.ipiv(s) == std::vector<magma_int_t>(lapack.back().ipiv.begin(), lapack.back().ipiv.end()));
        REQUIRE(capi_test::factor_ratio(factored.A(s), lapack.back().lu, set.A[s], n) <= capi_test::factor_bound);
        REQUIRE(magma_test::same_bits(factored.B(s), set.B[s])); // B is no operand of getrf
        ++tally.factored;
        if (lapack.back().info > 0) ++tally.singular;
    }

    for (const magma_trans_t trans : all_trans) {
        INFO(trans_name(trans));
        MagmaBatch<T> solved(factored);
        REQUIRE(M::getrs(trans, n, nrhs, as_magma(solved.dA_array), solved.ldda, solved.dipiv_array.data(),
                         as_magma(solved.dB_array), solved.lddb, solved.batch, nullptr) == 0);
        REQUIRE(solved.guards_intact());
        const char t = trans == MagmaNoTrans ? 'N' : trans == MagmaTrans ? 'T' : 'C';
        for (magma_int_t s = 0; s < solved.batch; ++s) {
            REQUIRE(magma_test::same_bits(solved.A(s), factored.A(s))); // factors read only
            REQUIRE(solved.ipiv(s) == factored.ipiv(s));
            if (lapack[std::size_t(s)].info > 0) continue;
            INFO("system " << s << " (" << capi_test::kind_name(set.kinds[s]) << ")");
            const double ratio = op_ratio(set.A[s], n, trans, solved.B(s), set.B[s], nrhs);
            INFO("backward error ratio " << ratio);
            REQUIRE(ratio <= tdls_test::backward_error_bound);
            // LAPACK's own solve from our factors: the same answer up to rounding.
            std::vector<T> x = set.B[s];
            const std::vector<T> lu = factored.A(s);
            const std::vector<magma_int_t> ours = factored.ipiv(s);
            const std::vector<lapack_int> pivots(ours.begin(), ours.end());
            REQUIRE(lapack_getrs_op(t, n, nrhs, lu.data(), pivots.data(), x.data()) == 0);
            REQUIRE(op_ratio(set.A[s], n, trans, x, set.B[s], nrhs) <= tdls_test::backward_error_bound);
            const double rcond = capi_test::system_rcond(set.A[s], lu, n, TDLS_COL_MAJOR);
            REQUIRE(capi_test::solution_distance(solved.B(s), x, n, rcond) <=
                    double(n) * capi_test::solution_distance_bound);
            ++tally.solved;
            ++tally.compared;
        }
        // Negative control: the right answer for another op(A) fails this one's
        // check (a nonsymmetric A; complex A^H against A^T, real ones against A).
        const magma_trans_t other = trans == MagmaNoTrans                                        ? MagmaTrans
                                    : trans == MagmaConjTrans && tdls::is_complex_scalar_v<T> ? MagmaTrans
                                                                                               : MagmaNoTrans;
        MagmaBatch<T> wrong(factored);
        REQUIRE(M::getrs(other, n, nrhs, as_magma(wrong.dA_array), wrong.ldda, wrong.dipiv_array.data(),
                         as_magma(wrong.dB_array), wrong.lddb, wrong.batch, nullptr) == 0);
        if (n >= 2) {
            CHECK(op_ratio(set.A[0], n, trans, wrong.B(0), set.B[0], nrhs) > tdls_test::backward_error_bound);
            ++tally.controls;
        }
    }

    // gesv_batched: getrf's factors, pivots and info; X where regular, B kept where singular.
    MagmaBatch<T> gesv(set, roundup32(n) - n, roundup32(n) - n);
    REQUIRE(M::gesv(n, nrhs, as_magma(gesv.dA_array), gesv.ldda, gesv.dipiv_array.data(),
                    as_magma(gesv.dB_array), gesv.lddb, gesv.info.data(), gesv.batch, nullptr) == 0);
    REQUIRE(gesv.guards_intact());
    for (magma_int_t s = 0; s < gesv.batch; ++s) {
        INFO("gesv, system " << s);
        REQUIRE(magma_test::same_bits(gesv.A(s), factored.A(s)));
        REQUIRE(gesv.ipiv(s) == factored.ipiv(s));
        REQUIRE(gesv.info[s] == factored.info[s]);
        if (gesv.info[s] > 0)
            REQUIRE(magma_test::same_bits(gesv.B(s), set.B[s]));
        else
            REQUIRE(op_ratio(set.A[s], n, MagmaNoTrans, gesv.B(s), set.B[s], nrhs) <= tdls_test::backward_error_bound);
    }
    // Negative controls: a perturbed factor is not LAPACK's; a changed pivot is not LAPACK's.
    constexpr double eps = std::numeric_limits<capi_test::real_of<T>>::epsilon();
    CHECK(capi_test::factor_ratio(capi_test::perturbed(factored.A(0), 16 * capi_test::factor_bound * n * eps),
                                  lapack[0].lu, set.A[0], n) > capi_test::factor_bound);
    ++tally.controls;
    if (n >= 2) {
        CHECK_FALSE(capi_test::corrupted_pivots(lapack[0].ipiv) == lapack[0].ipiv);
        ++tally.controls;
    }
}

} // namespace

TEST_CASE("getrf, getrs (every trans) and gesv_batched solve like LAPACK, as MAGMA programs call them",
          "[magma][lapack]") {
    const std::vector<int> orders = {1, 2, 3, 5, 8, 16, 17, 32, 33, 60, 64, 100};
    Tally tally;
    for (const int n : orders)
        for (const int nrhs : {1, 3}) {
            check_family<float>(n, nrhs, tally);
            check_family<double>(n, nrhs, tally);
            check_family<tdls::complex_float>(n, nrhs, tally);
            check_family<tdls::complex_double>(n, nrhs, tally);
        }
    const int configurations = int(orders.size()) * 2 * 4;
    CHECK(tally.factored == configurations * int(kinds.size()));
    CHECK(tally.singular == configurations * singular_per_batch);
    CHECK(tally.solved == configurations * 3 * regular_per_batch);
    CHECK(tally.compared == tally.solved);
    CHECK(tally.controls >= configurations * 5 - 2 * 4 * 4); // no pivot or trans control at n = 1
}

namespace {

/// A call of one routine with every argument as a MagmaBatch holds it,
/// except the ones a case changes.
struct Change {
    magma_int_t n = 5, nrhs = 2, m = 5;
    magma_int_t ldda_minus = 0, lddb_minus = 0; // subtracted from the batch's
    magma_int_t ldda = -1, lddb = -1;           // else, when >= 0, these values
    magma_int_t batch = -1;                     // else the batch's
    int trans = MagmaNoTrans;
    int null_array = 0; // the argument position of a NULL array
    int null_entry = 0; // the argument position of an array with entry 1 NULL
};

struct Case {
    const char* what;
    magma_int_t expected;
    Change change;
};

enum class Routine { Gesv, Getrf, Getrs };

magma_int_t invoke(Routine routine, MagmaBatch<double>& b, const Change& c) {
    std::vector<double*> A = b.dA_array, B = b.dB_array;
    std::vector<magma_int_t*> ipiv = b.dipiv_array;
    const int A_at = routine == Routine::Getrs ? 4 : 3, ipiv_at = routine == Routine::Getrs ? 6 : 5,
              B_at = routine == Routine::Getrs ? 7 : 6, info_at = routine == Routine::Getrf ? 6 : 8;
    if (c.null_entry == A_at) A[1] = nullptr;
    if (c.null_entry == ipiv_at) ipiv[1] = nullptr;
    if (c.null_entry == B_at) B[1] = nullptr;
    double** dA = c.null_array == A_at ? nullptr : A.data();
    double** dB = c.null_array == B_at ? nullptr : B.data();
    magma_int_t** dipiv = c.null_array == ipiv_at ? nullptr : ipiv.data();
    magma_int_t* dinfo = c.null_array == info_at ? nullptr : b.info.data();
    const magma_int_t ldda = c.ldda >= 0 ? c.ldda : b.ldda - c.ldda_minus;
    const magma_int_t lddb = c.lddb >= 0 ? c.lddb : b.lddb - c.lddb_minus;
    const magma_int_t batch = c.batch >= 0 || c.batch < -1 ? c.batch : b.batch;
    switch (routine) {
    case Routine::Gesv: return magma_dgesv_batched(c.n, c.nrhs, dA, ldda, dipiv, dB, lddb, dinfo, batch, nullptr);
    case Routine::Getrf: return magma_dgetrf_batched(c.m, c.n, dA, ldda, dipiv, dinfo, batch, nullptr);
    case Routine::Getrs:
        return magma_dgetrs_batched(magma_trans_t(c.trans), c.n, c.nrhs, dA, ldda, dipiv, dB, lddb, batch, nullptr);
    }
    return 0;
}

} // namespace

TEST_CASE("argument codes, quick returns and unserved host calls touch nothing", "[magma][invalid]") {
    // n = 5 in a batch with ldda = lddb = 8, so that "ldda - 4" is below n.
    const auto set = capi_test::make_set<double>(5, 2, TDLS_COL_MAJOR, kinds, 29);
    const MagmaBatch<double> pristine(set, 3, 3);
    const std::vector<std::pair<Routine, Case>> cases = {
        // gesv_batched: MAGMA's checks (lddb is -6, ld* against max(1, n) before the quick return).
        {Routine::Gesv, {"n < 0", -1, {.n = -1}}},
        {Routine::Gesv, {"nrhs < 0", -2, {.nrhs = -1}}},
        {Routine::Gesv, {"ldda < n", -4, {.ldda_minus = 4}}},
        {Routine::Gesv, {"lddb < n is MAGMA's -6", -6, {.lddb_minus = 4}}},
        {Routine::Gesv, {"n == 0 with ldda = 0: ldda < max(1, n)", -4, {.n = 0, .ldda = 0}}},
        {Routine::Gesv, {"n == 0", 0, {.n = 0}}},
        {Routine::Gesv, {"nrhs == 0 (nothing factored)", 0, {.nrhs = 0}}},
        {Routine::Gesv, {"batchCount < 0", -9, {.batch = -2}}},
        {Routine::Gesv, {"batchCount == 0", 0, {.batch = 0}}},
        {Routine::Gesv, {"dA_array NULL", -3, {.null_array = 3}}},
        {Routine::Gesv, {"dA_array[1] NULL", -3, {.null_entry = 3}}},
        {Routine::Gesv, {"dipiv_array[1] NULL", -5, {.null_entry = 5}}},
        {Routine::Gesv, {"dB_array[1] NULL", -6, {.null_entry = 6}}},
        {Routine::Gesv, {"dinfo_array NULL", -8, {.null_array = 8}}},
        {Routine::Gesv, {"n above 1024", MAGMA_ERR, {.n = TDLS_MAX_ORDER + 1, .ldda = 2000, .lddb = 2000}}},
        // getrf_batched.
        {Routine::Getrf, {"m < 0", -1, {.m = -1}}},
        {Routine::Getrf, {"n < 0", -2, {.n = -1}}},
        {Routine::Getrf, {"ldda < m", -4, {.ldda_minus = 4}}},
        {Routine::Getrf, {"m == 0 with ldda = 0", -4, {.m = 0, .ldda = 0}}},
        {Routine::Getrf, {"m == 0", 0, {.m = 0}}},
        {Routine::Getrf, {"n == 0", 0, {.n = 0}}},
        {Routine::Getrf, {"batchCount < 0", -7, {.batch = -2}}},
        {Routine::Getrf, {"dA_array[1] NULL", -3, {.null_entry = 3}}},
        {Routine::Getrf, {"ipiv_array[1] NULL", -5, {.null_entry = 5}}},
        {Routine::Getrf, {"info_array NULL", -6, {.null_array = 6}}},
        {Routine::Getrf, {"rectangular (m > n): not served on the host", MAGMA_ERR, {.n = 4, .m = 5}}},
        {Routine::Getrf, {"rectangular (m < n): not served on the host", MAGMA_ERR, {.n = 5, .m = 4}}},
        // getrs_batched.
        {Routine::Getrs, {"trans not a magma_trans_t", -1, {.trans = 110}}},
        {Routine::Getrs, {"trans checked before n", -1, {.n = -1, .trans = 0}}},
        {Routine::Getrs, {"n < 0", -2, {.n = -1}}},
        {Routine::Getrs, {"nrhs < 0", -3, {.nrhs = -1}}},
        {Routine::Getrs, {"ldda < n", -5, {.ldda_minus = 4}}},
        {Routine::Getrs, {"lddb < n", -8, {.lddb_minus = 4}}},
        {Routine::Getrs, {"n == 0", 0, {.n = 0}}},
        {Routine::Getrs, {"nrhs == 0", 0, {.nrhs = 0, .trans = MagmaTrans}}},
        {Routine::Getrs, {"batchCount < 0", -9, {.batch = -2}}},
        {Routine::Getrs, {"dA_array[1] NULL", -4, {.null_entry = 4}}},
        {Routine::Getrs, {"dipiv_array NULL (required)", -6, {.null_array = 6}}},
        {Routine::Getrs, {"dipiv_array[1] NULL", -6, {.null_entry = 6}}},
        {Routine::Getrs, {"dB_array NULL", -7, {.trans = MagmaConjTrans, .null_array = 7}}},
        {Routine::Getrs, {"n above 1024", MAGMA_ERR, {.n = TDLS_MAX_ORDER + 1, .ldda = 2000, .lddb = 2000}}},
        {Routine::Getrs, {"trans a negative int", -1, {.trans = -5}}},
        {Routine::Getrs, {"trans a large int", -1, {.trans = 1 << 30}}},
#if defined(MAGMA_ILP64)
        // B would reach past the address space: refused, never followed (both paths).
        {Routine::Getrs, {"lddb 2^61 (MagmaNoTrans)", MAGMA_ERR, {.lddb = magma_int_t(1) << 61}}},
        {Routine::Getrs, {"lddb 2^61 (MagmaTrans)", MAGMA_ERR, {.lddb = magma_int_t(1) << 61, .trans = MagmaTrans}}},
#endif
    };
    int ran = 0;
    for (const auto& [routine, c] : cases) {
        INFO(c.what);
        MagmaBatch<double> batch(pristine);
        // getrs reads pivots: give it valid ones, as a caller's getrf would.
        for (magma_int_t s = 0; s < batch.batch; ++s)
            for (int i = 0; i < 5; ++i) batch.dipiv_array[s][i] = i + 1;
        const MagmaBatch<double> before(batch);
        CHECK(invoke(routine, batch, c.change) == c.expected);
        CHECK(batch.same_memory(before));
        ++ran;
    }
    CHECK(ran == int(cases.size()));
    CHECK(ran >= 43);

    // A pivot outside 1..n: getrs refuses on the host, nothing written, the message names it.
    {
        MagmaBatch<double> batch(pristine);
        for (magma_int_t s = 0; s < batch.batch; ++s)
            for (int i = 0; i < 5; ++i) batch.dipiv_array[s][i] = i + 1;
        batch.dipiv_array[2][3] = 6;
        const MagmaBatch<double> before(batch);
        for (const magma_trans_t trans : all_trans) {
            CHECK(magma_dgetrs_batched(trans, 5, 2, batch.dA_array.data(), batch.ldda, batch.dipiv_array.data(),
                                       batch.dB_array.data(), batch.lddb, batch.batch, nullptr) == MAGMA_ERR);
            CHECK(batch.same_memory(before));
            CHECK(std::string(tdls_last_error()).find("ipiv") != std::string::npos);
        }
    }
    // Negative control: a valid call on the same operands writes B (getrs) and A (getrf).
    {
        MagmaBatch<double> batch(pristine);
        for (magma_int_t s = 0; s < batch.batch; ++s)
            for (int i = 0; i < 5; ++i) batch.dipiv_array[s][i] = i + 1;
        const MagmaBatch<double> before(batch);
        CHECK(invoke(Routine::Getrs, batch, Change{.trans = MagmaTrans}) == 0);
        CHECK_FALSE(batch.same_memory(before));
        MagmaBatch<double> factored(pristine);
        const MagmaBatch<double> unfactored(factored);
        CHECK(invoke(Routine::Getrf, factored, Change{}) == 0);
        CHECK_FALSE(factored.same_memory(unfactored));
    }
}

TEST_CASE("getrs pivots as magma_int_t: LAPACKE's pivots, both widths", "[magma][lapack]") {
    // The pivots are the caller's magma_int_t (long long in libtdls_magma64,
    // narrowed for libtdls): LAPACKE_dgetrf's own, handed over as MAGMA's.
    int solved = 0;
    for (const int n : {4, 31, 70}) {
        const auto set = capi_test::make_set<double>(n, 2, TDLS_COL_MAJOR, {Kind::PivotHeavy, Kind::Uniform}, n);
        MagmaBatch<double> batch(set, roundup32(n) - n, 1);
        for (magma_int_t s = 0; s < batch.batch; ++s) {
            const auto lapack = capi_test::lapack_oracle(set.A[s], n, set.B[s], 0, TDLS_COL_MAJOR);
            REQUIRE(lapack.info == 0);
            for (int c = 0; c < n; ++c)
                for (int r = 0; r < n; ++r) batch.dA_array[s][r + c * batch.ldda] = lapack.lu[std::size_t(c) * n + r];
            for (int i = 0; i < n; ++i) batch.dipiv_array[s][i] = lapack.ipiv[std::size_t(i)];
        }
        for (const magma_trans_t trans : all_trans) {
            MagmaBatch<double> solving(batch);
            REQUIRE(magma_dgetrs_batched(trans, n, 2, solving.dA_array.data(), solving.ldda,
                                         solving.dipiv_array.data(), solving.dB_array.data(), solving.lddb,
                                         solving.batch, nullptr) == 0);
            for (magma_int_t s = 0; s < solving.batch; ++s) {
                REQUIRE(op_ratio(set.A[s], n, trans, solving.B(s), set.B[s], 2) <= tdls_test::backward_error_bound);
                ++solved;
            }
        }
    }
    CHECK(solved == 3 * 3 * 2);
}
