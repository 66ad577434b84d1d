// libtdls fuzzing: magma_{s,d,c,z}gesv_batched_small.
// Built twice: against libtdls_magma (magma_int_t = int) as fuzz_magma and
// against libtdls_magma64 (long long, MAGMA_ILP64) as fuzz_magma64; the two
// export the same names, hence two executables. The return code is compared
// with the order tdls/magma.h documents; a nonzero code or a quick return
// must leave every operand alone; a solved batch passes the same oracles as
// the C ABI's (column-major, one allocation per system).
#include <tdls/magma.h>
#include <tdls/tdls.h>

#include <algorithm>
#include <complex>
#include <cstdint>
#include <vector>

#include "support/batch.hpp"
#include "support/entry.hpp"
#include "support/input.hpp"
#include "support/magma_checks.hpp"
#include "support/magma_fit.hpp"
#include "support/oracle.hpp"
#include "support/pointer_arrays.hpp"
#include "support/system_checks.hpp"

namespace {

using namespace tdls_fuzz;

enum class Defect { None, ANull, AEntry, IpivNull, IpivEntry, BNull, BEntry, InfoNull };
enum class Alias { None, SameA, BInA, SameIpiv };

struct Call {
    std::int32_t dtype = TDLS_FLOAT64; // the function's type: s, d, c or z
    Contents contents = Contents::Scaled;
    bool queue = false; // a non-NULL queue (no MAGMA in this process to read it)
    magma_int_t n = 0, nrhs = 0, ldda = 0, lddb = 0, batch = 0;
    Defect defect = Defect::None;
    Alias alias = Alias::None;
    std::uint8_t first = 0, second = 0;
};

Call decode(Input& in) {
    Call call;
    const std::uint8_t head = in.byte();
    constexpr tdls_dtype_t functions[] = {TDLS_FLOAT32, TDLS_FLOAT64, TDLS_COMPLEX64, TDLS_COMPLEX128};
    call.dtype = functions[head & 3];
    call.contents = Contents((head >> 2) % std::uint8_t(Contents::Count));
    call.queue = (head >> 3) == 31;
    const std::int64_t n = fold_order(in.size(-2, 40));
    call.n = as_magma(n);
    call.nrhs = as_magma(in.size(-2, 8));
    call.ldda = as_magma(in.at_least(n));
    call.lddb = as_magma(in.at_least(n));
    call.batch = as_magma(in.size(0, 40));
    const std::uint8_t flags = in.byte();
    switch (flags & 15) {
    case 8:
    case 9:
        call.defect = Defect::IpivNull;
        break;
    case 10:
        call.defect = Defect::ANull;
        break;
    case 11:
        call.defect = Defect::AEntry;
        break;
    case 12:
        call.defect = Defect::IpivEntry;
        break;
    case 13:
        call.defect = Defect::BNull;
        break;
    case 14:
        call.defect = (flags & 16) ? Defect::BEntry : Defect::InfoNull;
        break;
    default:
        break;
    }
    // The top 3 bits: most inputs alias nothing.
    constexpr Alias aliases[8] = {Alias::None, Alias::None,  Alias::None, Alias::None,
                                  Alias::None, Alias::SameA, Alias::BInA, Alias::SameIpiv};
    call.alias = aliases[flags >> 5];
    call.first = in.byte();
    call.second = in.byte();
    return call;
}

/// Where the documented order of checks stops.
enum class Verdict { Code, Quick, ArraysRead, Solve };

struct Expected {
    Verdict verdict;
    magma_int_t code;
};

Expected expected_code(const Call& c) {
    if (c.n < 0) return {Verdict::Code, -1};
    if (c.nrhs < 0) return {Verdict::Code, -2};
    if (c.n == 0 || c.nrhs == 0) return {Verdict::Quick, 0};
    if (c.ldda < c.n) return {Verdict::Code, -4};
    if (c.lddb < c.n) return {Verdict::Code, -7};
    if (c.batch < 0) return {Verdict::Code, -9};
    if (c.batch == 0) return {Verdict::Quick, 0};
    if (c.queue) return {Verdict::Code, MAGMA_ERR};
    switch (c.defect) { // in argument order: one defect at a time
    case Defect::ANull:
    case Defect::AEntry:
        return {Verdict::ArraysRead, -3};
    case Defect::IpivEntry:
        return {Verdict::ArraysRead, -5};
    case Defect::BNull:
    case Defect::BEntry:
        return {Verdict::ArraysRead, -6};
    case Defect::InfoNull:
        return {Verdict::ArraysRead, -8};
    default:
        break;
    }
    if (c.n > TDLS_MAX_ORDER) return {Verdict::ArraysRead, MAGMA_ERR};
    return {Verdict::Solve, 0};
}

void fit(Call& c) {
    fit_magma_call(c.n, false, c.nrhs, c.ldda, c.lddb, c.batch);
}

template <typename T>
using Operands = PointerOperands<T, magma_int_t, T>;

/// The decoded aliases and NULL entry, on entries `first` and `second`.
template <typename T>
void alias_entries(const Call& call, Operands<T>& ops, std::int64_t entries, const SystemSizes& size) {
    if (entries == 0) return;
    const std::size_t first = call.first % entries, second = call.second % entries;
    if (call.alias == Alias::SameA) ops.A_array[first] = ops.A_array[second];
    if (call.alias == Alias::BInA && size.B <= size.A) ops.B_array[first] = ops.A_array[second];
    if (call.alias == Alias::SameIpiv) ops.ipiv_array[first] = ops.ipiv_array[second];
    // After the aliases, so that no alias replaces the NULL entry.
    if (call.defect == Defect::AEntry) ops.A_array[first] = nullptr;
    if (call.defect == Defect::IpivEntry) ops.ipiv_array[first] = nullptr;
    if (call.defect == Defect::BEntry) ops.B_array[first] = nullptr;
}

magma_int_t solve(float** A, magma_int_t** ipiv, float** B, magma_int_t* info, const Call& c,
                  magma_queue_t queue) {
    return magma_sgesv_batched_small(c.n, c.nrhs, A, c.ldda, ipiv, B, c.lddb, info, c.batch, queue);
}
magma_int_t solve(double** A, magma_int_t** ipiv, double** B, magma_int_t* info, const Call& c,
                  magma_queue_t queue) {
    return magma_dgesv_batched_small(c.n, c.nrhs, A, c.ldda, ipiv, B, c.lddb, info, c.batch, queue);
}
// MAGMA's complex types are two consecutive reals, as std::complex is.
magma_int_t solve(std::complex<float>** A, magma_int_t** ipiv, std::complex<float>** B, magma_int_t* info,
                  const Call& c, magma_queue_t queue) {
    return magma_cgesv_batched_small(c.n, c.nrhs, reinterpret_cast<magmaFloatComplex**>(A), c.ldda, ipiv,
                                     reinterpret_cast<magmaFloatComplex**>(B), c.lddb, info, c.batch, queue);
}
magma_int_t solve(std::complex<double>** A, magma_int_t** ipiv, std::complex<double>** B, magma_int_t* info,
                  const Call& c, magma_queue_t queue) {
    return magma_zgesv_batched_small(c.n, c.nrhs, reinterpret_cast<magmaDoubleComplex**>(A), c.ldda, ipiv,
                                     reinterpret_cast<magmaDoubleComplex**>(B), c.lddb, info, c.batch, queue);
}

/// The name of the function run<T> calls.
const char* function_of(const Call& c) {
    switch (c.dtype) {
    case TDLS_FLOAT32:
        return "magma_sgesv_batched_small";
    case TDLS_COMPLEX64:
        return "magma_cgesv_batched_small";
    case TDLS_COMPLEX128:
        return "magma_zgesv_batched_small";
    default:
        return "magma_dgesv_batched_small";
    }
}

template <typename T>
void check_solved(const Call& c, Operands<T>& ops) {
    const char* where = function_of(c);
    const bool pivots = c.defect != Defect::IpivNull;
    for (std::int64_t s = 0; s < c.batch; ++s) {
        Operand<T>& A = ops.A[std::size_t(s)];
        const std::int64_t info = ops.info.memory[std::size_t(s)];
        const Strided<T> factors =
            check_magma_factored(where, s, c.n, c.ldda, A, ops.ipiv[std::size_t(s)], pivots, info);
        check_magma_solved(where, s, c.batch, c.n, c.nrhs, c.ldda, c.lddb, A, ops.B[std::size_t(s)], info, factors);
    }
}

template <typename T>
void run(Call& call, Input& in) {
    Expected expected = expected_code(call);
    std::int64_t entries = 0, systems = 1;
    SystemSizes size{refused_elements, refused_elements, refused_elements};
    if (expected.verdict == Verdict::Solve) {
        fit(call);
        expected = expected_code(call);
        entries = systems = call.batch;
        size = {std::int64_t(call.ldda) * call.n, std::int64_t(call.lddb) * call.nrhs, call.n};
    } else {
        entries = refused_entries(call.batch, expected.verdict == Verdict::ArraysRead);
    }
    Operands<T> ops;
    allocate_systems(ops, entries, std::max<std::int64_t>(systems, 1), size, call.contents, in);
    alias_entries(call, ops, entries, size);
    ops.keep();
    int queue_object = 0;
    const magma_queue_t queue = call.queue ? reinterpret_cast<magma_queue_t>(&queue_object) : nullptr;
    const magma_int_t code =
        solve(call.defect == Defect::ANull ? nullptr : ops.A_array.data(),
              call.defect == Defect::IpivNull ? nullptr : ops.ipiv_array.data(),
              call.defect == Defect::BNull ? nullptr : ops.B_array.data(),
              call.defect == Defect::InfoNull ? nullptr : ops.info.memory.data(), call, queue);
    const char* where = function_of(call);
    TDLS_FUZZ_CHECK(code == expected.code,
                    "%s(n %lld, nrhs %lld, ldda %lld, lddb %lld, batch %lld) returned %lld, "
                    "tdls/magma.h says %lld",
                    where, (long long)call.n, (long long)call.nrhs, (long long)call.ldda,
                    (long long)call.lddb, (long long)call.batch, (long long)code, (long long)expected.code);
    if (expected.verdict != Verdict::Solve) {
        TDLS_FUZZ_CHECK(ops.unchanged(), "%s returned %lld but changed an operand", where, (long long)code);
        return;
    }
    if (call.alias != Alias::None) return;
    check_solved(call, ops);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return test_one_input(
        data, size, decode, [](const Call& call) { return call.dtype; },
        [](auto type, Call& call, Input& in) { run<typename decltype(type)::type>(call, in); });
}
