// libtdls fuzzing: magma_{s,d,c,z}gesv_batched, ?getrf_batched and
// ?getrs_batched (every trans, and invalid ones) through the MAGMA shim.
// Built twice, against libtdls_magma (magma_int_t = int) as
// fuzz_magma_family and libtdls_magma64 (long long) as fuzz_magma64_family.
// The return code is compared with the order tdls/magma.h documents; a
// nonzero code or a quick return must leave every operand alone; a solved
// batch passes the C ABI harnesses' oracles: getrf's verdicts and pivots, B
// kept for a singular gesv system, the backward error of gesv's A X = B and
// of getrs's op(P^T L U) X = B (one allocation per system, column-major).
// This process has no libmagma: an unserved call (a queue, a rectangular
// getrf, n > 1024) must return MAGMA_ERR and touch nothing.
#include <tdls/magma.h>
#include <tdls/tdls.h>

#include <algorithm>
#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "support/batch.hpp"
#include "support/entry.hpp"
#include "support/factors.hpp"
#include "support/input.hpp"
#include "support/magma_checks.hpp"
#include "support/magma_fit.hpp"
#include "support/oracle.hpp"
#include "support/pointer_arrays.hpp"
#include "support/system_checks.hpp"

namespace {

using namespace tdls_fuzz;

enum class Routine { Gesv, Getrf, Getrs };
enum class Defect { None, ANull, AEntry, IpivNull, IpivEntry, BNull, BEntry, InfoNull };

struct Call {
    std::int32_t dtype = TDLS_FLOAT64;
    Routine routine = Routine::Gesv;
    Contents contents = Contents::Scaled;
    bool queue = false;       // a non-NULL queue (no MAGMA in this process)
    bool raw_pivots = false;  // getrs: pivots from the input, else from getrf
    magma_trans_t trans = MagmaNoTrans;
    magma_int_t m = 0, n = 0, nrhs = 0, ldda = 0, lddb = 0, batch = 0;
    Defect defect = Defect::None;
    std::uint8_t entry = 0; // which entry a NULL entry replaces
};

Call decode(Input& in) {
    Call call;
    const std::uint8_t head = in.byte();
    constexpr tdls_dtype_t functions[] = {TDLS_FLOAT32, TDLS_FLOAT64, TDLS_COMPLEX64, TDLS_COMPLEX128};
    call.dtype = functions[head & 3];
    constexpr Routine routines[] = {Routine::Gesv, Routine::Getrf, Routine::Getrs, Routine::Getrs};
    call.routine = routines[(head >> 2) & 3];
    call.contents = Contents((head >> 4) % std::uint8_t(Contents::Count));
    call.queue = (head >> 4) == 15;
    const std::uint8_t shape = in.byte();
    constexpr magma_trans_t transes[] = {MagmaNoTrans, MagmaTrans, MagmaConjTrans, MagmaConjTrans};
    // 7: any int a C caller could pass (mostly invalid; 111..113 valid).
    call.trans = (shape & 7) == 7 ? magma_trans_t(in.raw<std::int32_t>()) : transes[shape & 3];
    call.raw_pivots = (shape & 8) != 0;
    const std::int64_t n = fold_order(in.size(-2, 40));
    call.n = as_magma(n);
    call.m = (shape >> 4) == 15 ? as_magma(fold_order(in.size(-2, 40))) : call.n; // mostly square
    call.nrhs = as_magma(in.size(-2, 8));
    call.ldda = as_magma(in.at_least(std::max<std::int64_t>({1, n, call.m})));
    call.lddb = as_magma(in.at_least(std::max<std::int64_t>(1, n)));
    call.batch = as_magma(in.size(0, 40));
    const std::uint8_t flags = in.byte();
    constexpr Defect defects[16] = {Defect::None,   Defect::None,     Defect::None,      Defect::None,
                                    Defect::None,   Defect::None,     Defect::None,      Defect::None,
                                    Defect::ANull,  Defect::AEntry,   Defect::IpivNull,  Defect::IpivEntry,
                                    Defect::BNull,  Defect::BEntry,   Defect::InfoNull,  Defect::None};
    call.defect = defects[flags & 15];
    call.entry = in.byte();
    return call;
}

/// Where the documented order of checks stops.
enum class Verdict { Code, Quick, ArraysRead, Pivots, Solve };

struct Expected {
    Verdict verdict;
    magma_int_t code;
};

/// libtdls's checks after MAGMA's: the batch, the queue, then the host
/// arrays by position, then what libtdls does not serve.
Expected after_magma_checks(const Call& c, int batch_at, int A_at, int ipiv_at, int B_at, int info_at,
                            bool ipiv_required) {
    if (c.batch < 0) return {Verdict::Code, -batch_at};
    if (c.batch == 0) return {Verdict::Quick, 0};
    if (c.queue) return {Verdict::Code, MAGMA_ERR}; // not served here, and no libmagma to forward to
    switch (c.defect) { // in argument order: one defect at a time
    case Defect::ANull:
    case Defect::AEntry:
        return {Verdict::ArraysRead, -A_at};
    case Defect::IpivNull:
        if (ipiv_required) return {Verdict::ArraysRead, -ipiv_at};
        break;
    case Defect::IpivEntry:
        return {Verdict::ArraysRead, -ipiv_at};
    case Defect::BNull:
    case Defect::BEntry:
        if (B_at != 0) return {Verdict::ArraysRead, -B_at};
        break;
    case Defect::InfoNull:
        if (info_at != 0) return {Verdict::ArraysRead, -info_at};
        break;
    default:
        break;
    }
    if ((c.routine == Routine::Getrf && c.m != c.n) || c.n > TDLS_MAX_ORDER) return {Verdict::ArraysRead, MAGMA_ERR};
    return {c.routine == Routine::Getrs ? Verdict::Pivots : Verdict::Solve, 0};
}

Expected expected_code(const Call& c) {
    const magma_int_t n1 = std::max<magma_int_t>(1, c.n);
    switch (c.routine) {
    case Routine::Gesv:
        if (c.n < 0) return {Verdict::Code, -1};
        if (c.nrhs < 0) return {Verdict::Code, -2};
        if (c.ldda < n1) return {Verdict::Code, -4};
        if (c.lddb < n1) return {Verdict::Code, -6};
        if (c.n == 0 || c.nrhs == 0) return {Verdict::Quick, 0};
        return after_magma_checks(c, 9, 3, 5, 6, 8, false);
    case Routine::Getrf:
        if (c.m < 0) return {Verdict::Code, -1};
        if (c.n < 0) return {Verdict::Code, -2};
        if (c.ldda < std::max<magma_int_t>(1, c.m)) return {Verdict::Code, -4};
        if (c.m == 0 || c.n == 0) return {Verdict::Quick, 0};
        return after_magma_checks(c, 7, 3, 5, 0, 6, false);
    case Routine::Getrs:
        if (c.trans != MagmaNoTrans && c.trans != MagmaTrans && c.trans != MagmaConjTrans)
            return {Verdict::Code, -1};
        if (c.n < 0) return {Verdict::Code, -2};
        if (c.nrhs < 0) return {Verdict::Code, -3};
        if (c.ldda < n1) return {Verdict::Code, -5};
        if (c.lddb < n1) return {Verdict::Code, -8};
        if (c.n == 0 || c.nrhs == 0) return {Verdict::Quick, 0};
        return after_magma_checks(c, 9, 4, 6, 7, 0, true);
    }
    return {Verdict::Code, 0};
}

void fit(Call& c) {
    fit_magma_call(c.n, c.routine == Routine::Getrf, c.nrhs, c.ldda, c.lddb, c.batch);
}

template <typename T>
using Operands = PointerOperands<T, magma_int_t, T>;

/// MAGMA's functions for libtdls's T, and the name of each.
template <typename T>
struct Family;
#define TDLS_FUZZ_FAMILY(p, T, M)                                                                                \
    template <>                                                                                                  \
    struct Family<T> {                                                                                           \
        using Element = M;                                                                                       \
        static constexpr auto gesv = magma_##p##gesv_batched;                                                    \
        static constexpr auto getrf = magma_##p##getrf_batched;                                                  \
        static constexpr auto getrs = magma_##p##getrs_batched;                                                  \
        static constexpr const char* names[] = {"magma_" #p "gesv_batched", "magma_" #p "getrf_batched",         \
                                                "magma_" #p "getrs_batched"};                                    \
    };
TDLS_FUZZ_FAMILY(s, float, float)
TDLS_FUZZ_FAMILY(d, double, double)
// MAGMA's complex types are two consecutive reals, as std::complex is.
TDLS_FUZZ_FAMILY(c, std::complex<float>, magmaFloatComplex)
TDLS_FUZZ_FAMILY(z, std::complex<double>, magmaDoubleComplex)
#undef TDLS_FUZZ_FAMILY

template <typename T>
typename Family<T>::Element** as_magma_array(T** array) {
    return reinterpret_cast<typename Family<T>::Element**>(array);
}

template <typename T>
magma_int_t call_routine(const Call& c, T** A, magma_int_t** ipiv, T** B, magma_int_t* info, magma_queue_t queue) {
    using F = Family<T>;
    switch (c.routine) {
    case Routine::Gesv:
        return F::gesv(c.n, c.nrhs, as_magma_array(A), c.ldda, ipiv, as_magma_array(B), c.lddb, info, c.batch,
                       queue);
    case Routine::Getrf:
        return F::getrf(c.m, c.n, as_magma_array(A), c.ldda, ipiv, info, c.batch, queue);
    case Routine::Getrs:
        return F::getrs(c.trans, c.n, c.nrhs, as_magma_array(A), c.ldda, ipiv, as_magma_array(B), c.lddb, c.batch,
                        queue);
    }
    return 0;
}

template <typename T>
void check_results(const Call& c, Operands<T>& ops, const char* where) {
    const std::int64_t n = c.n, nrhs = c.nrhs;
    const bool pivots_given = c.defect != Defect::IpivNull;
    for (std::int64_t s = 0; s < c.batch; ++s) {
        Operand<T>& A = ops.A[std::size_t(s)];
        Operand<T>& B = ops.B[std::size_t(s)];
        if (c.routine == Routine::Getrs) {
            const magma_int_t* ipiv = ops.ipiv[std::size_t(s)].memory.data();
            const Strided<T> factors{A.memory.data(), 1, c.ldda};
            TDLS_FUZZ_CHECK(A.unchanged() && ops.ipiv[std::size_t(s)].unchanged(),
                            "%s: the factors or pivots of system %lld changed", where, (long long)s);
            TDLS_FUZZ_CHECK(outside_unchanged(B, 1, 0, n, nrhs, c.lddb),
                            "%s: dB_array[%lld] changed outside its matrix", where, (long long)s);
            const Strided<T> X{B.memory.data(), 1, c.lddb};
            const Strided<T> B0{B.before.data(), 1, c.lddb};
            check_solution(where, s, c.batch, n, nrhs, 0, factors, B0, X, [&] {
                Dense<T> op = matrix_of_factors(factors, ipiv, n, c.trans != MagmaNoTrans);
                if constexpr (!std::is_same_v<Real<T>, T>)
                    if (c.trans == MagmaConjTrans)
                        for (auto& e : op) e = std::conj(e);
                return op;
            });
            continue;
        }
        const std::int64_t info = ops.info.memory[std::size_t(s)];
        const Strided<T> factors =
            check_magma_factored(where, s, n, c.ldda, A, ops.ipiv[std::size_t(s)], pivots_given, info);
        if (c.routine == Routine::Getrf)
            TDLS_FUZZ_CHECK(B.unchanged(), "%s: B is no operand of getrf, but changed", where);
        else
            check_magma_solved(where, s, c.batch, n, nrhs, c.ldda, c.lddb, A, B, info, factors);
    }
}

template <typename T>
void run(Call& call, Input& in) {
    Expected expected = expected_code(call);
    std::int64_t entries = 0, systems = 1;
    SystemSizes size{refused_elements, refused_elements, refused_elements};
    const bool solving = expected.verdict == Verdict::Solve || expected.verdict == Verdict::Pivots;
    if (solving) {
        fit(call);
        expected = expected_code(call);
        entries = systems = call.batch;
        size = {std::int64_t(call.ldda) * call.n,
                call.routine == Routine::Getrf ? 0 : std::int64_t(call.lddb) * call.nrhs, call.n};
    } else {
        entries = refused_entries(call.batch, expected.verdict == Verdict::ArraysRead);
    }
    Operands<T> ops;
    allocate_systems(ops, entries, std::max<std::int64_t>(systems, 1), size, call.contents, in);
    const char* where = Family<T>::names[int(call.routine)];
    if (solving && call.routine == Routine::Getrs) {
        // Factors: the shim's own getrf of the decoded matrices, or the
        // matrices taken as factors with pivots from the input.
        std::vector<magma_int_t> verdicts(std::size_t(call.batch));
        const bool factored =
            !call.raw_pivots && Family<T>::getrf(call.n, call.n, as_magma_array(ops.A_array.data()), call.ldda,
                                                 ops.ipiv_array.data(), verdicts.data(), call.batch, nullptr) == 0;
        if (!factored)
            for (auto& pivots : ops.ipiv)
                for (std::int64_t k = 0; k < call.n; ++k) pivots.memory[std::size_t(k)] = pivot_value<magma_int_t>(in.byte(), k, call.n, in);
        for (const auto& pivots : ops.ipiv)
            for (const magma_int_t p : pivots.memory)
                if (p < 1 || p > call.n) expected = {Verdict::ArraysRead, MAGMA_ERR};
    }
    if (entries > 0) {
        const std::size_t at = call.entry % entries;
        if (call.defect == Defect::AEntry) ops.A_array[at] = nullptr;
        if (call.defect == Defect::IpivEntry) ops.ipiv_array[at] = nullptr;
        if (call.defect == Defect::BEntry) ops.B_array[at] = nullptr;
    }
    ops.keep();
    int queue_object = 0;
    const magma_queue_t queue = call.queue ? reinterpret_cast<magma_queue_t>(&queue_object) : nullptr;
    const magma_int_t code = call_routine<T>(
        call, call.defect == Defect::ANull ? nullptr : ops.A_array.data(),
        call.defect == Defect::IpivNull ? nullptr : ops.ipiv_array.data(),
        call.defect == Defect::BNull ? nullptr : ops.B_array.data(),
        call.defect == Defect::InfoNull ? nullptr : ops.info.memory.data(), queue);
    TDLS_FUZZ_CHECK(code == expected.code,
                    "%s(trans %d, m %lld, n %lld, nrhs %lld, ldda %lld, lddb %lld, batch %lld) returned %lld, "
                    "tdls/magma.h says %lld",
                    where, int(call.trans), (long long)call.m, (long long)call.n, (long long)call.nrhs,
                    (long long)call.ldda, (long long)call.lddb, (long long)call.batch, (long long)code,
                    (long long)expected.code);
    if (expected.code != 0 || expected.verdict == Verdict::Quick || expected.verdict == Verdict::Code) {
        TDLS_FUZZ_CHECK(ops.unchanged(), "%s returned %lld but changed an operand", where, (long long)code);
        return;
    }
    check_results(call, ops, where);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return test_one_input(
        data, size, decode, [](const Call& call) { return call.dtype; },
        [](auto type, Call& call, Input& in) { run<typename decltype(type)::type>(call, in); });
}
