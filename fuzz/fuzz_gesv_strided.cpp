// libtdls fuzzing: tdls_batched_gesv and tdls_batched_getrf on strided
// batches. Every argument is decoded from the input (fuzz/README.md has the
// layout); the status is compared with the contract's validation rules, a
// refused call must leave every byte alone, and a solved batch must pass the
// numerical oracles of support/oracle.hpp. getrf's factors are compared
// with gesv's on the same matrices ("getrf's outputs are gesv's").
#include <tdls/tdls.h>

#include <cstdint>
#include <vector>

#include "support/batch.hpp"
#include "support/contiguous.hpp"
#include "support/contract.hpp"
#include "support/entry.hpp"
#include "support/fields.hpp"
#include "support/input.hpp"
#include "support/oracle.hpp"
#include "support/raw_enums.h"
#include "support/strided.hpp"
#include "support/system_checks.hpp"

namespace {

using namespace tdls_fuzz;

struct Call : ComputeCall {
    ContiguousAlias alias = ContiguousAlias::None;
    std::uint8_t alias_offset = 0;
};

Call decode(Input& in) {
    Call call;
    CallShape& c = call.shape;
    const std::uint8_t head = in.byte();
    c.operation = head & 1 ? Operation::Getrf : Operation::Gesv;
    decode_head(std::uint8_t(head >> 1), call);
    c.form = Form::Strided;
    decode_scalars(in, c);
    decode_strided_dims(in, c);
    const std::uint8_t flags = in.byte();
    if (!decode_null_operand(flags & 15, c)) {
        if ((flags & 15) == 14) c.A_given = c.info_given = false;
        if ((flags & 15) == 15) c.A_given = c.ipiv_given = c.B_given = c.info_given = false;
    }
    if ((flags >> 4) == 13) call.alias = ContiguousAlias::BInA;
    if ((flags >> 4) >= 14) call.alias = ContiguousAlias::IpivInInfo;
    call.alias_offset = in.byte();
    return call;
}

template <typename T>
tdls_status_t call_library(const Call& call, ContiguousOperands<T>& ops) {
    const CallShape& c = call.shape;
    if (c.operation == Operation::Getrf)
        return raw_getrf(call.context.handle, c.dtype, c.layout, c.n, ops.A_ptr, c.lda, c.strideA,
                         ops.ipiv_ptr, c.strideIpiv, ops.info_ptr, c.batch);
    return raw_gesv(call.context.handle, c.dtype, c.layout, c.n, c.nrhs, ops.A_ptr, c.lda, c.strideA,
                    ops.ipiv_ptr, c.strideIpiv, ops.B_ptr, c.ldb, c.strideB, ops.info_ptr, c.batch);
}

/// The checks of a solved, unaliased batch.
template <typename T>
void check_solved(const Call& call, ContiguousOperands<T>& ops) {
    const CallShape& c = call.shape;
    const char* where = c.operation == Operation::Getrf ? "tdls_batched_getrf" : "tdls_batched_gesv";
    const std::int64_t n = c.n;
    if (c.batch == 0 || n == 0) {
        check_empty_batch(where, c.batch, n, ops.A.unchanged() && ops.B.unchanged() && ops.ipiv.unchanged(),
                          c.info_given ? ops.info.memory.data() : nullptr);
        return;
    }
    // Nothing outside the systems' elements may change (padding rows, gaps).
    TDLS_FUZZ_CHECK(outside_unchanged(ops.A, c.batch, c.strideA, n, n, c.lda),
                    "%s: A changed outside the systems", where);
    if (c.ipiv_given)
        TDLS_FUZZ_CHECK(outside_unchanged(ops.ipiv, c.batch, c.strideIpiv, n, 1, 0),
                        "%s: ipiv changed outside the systems' pivots", where);
    if (c.has_b()) {
        const std::int64_t rows = c.row_major() ? c.nrhs : n; // contiguous run of one stored column
        const std::int64_t cols = c.b_columns();
        if (c.nrhs == 0)
            TDLS_FUZZ_CHECK(ops.B.unchanged(), "%s: nrhs = 0 but B changed", where);
        else
            TDLS_FUZZ_CHECK(outside_unchanged(ops.B, c.batch, c.strideB, rows, cols, c.ldb),
                            "%s: B changed outside the systems", where);
    }

    const bool col = !c.row_major();
    for (std::int64_t s = 0; s < c.batch; ++s) {
        const Strided<T> factors{ops.A.memory.data() + s * c.strideA, 1, c.lda};
        const std::int32_t info = ops.info.memory[std::size_t(s)];
        const std::int32_t* ipiv = c.ipiv_given ? ops.ipiv.memory.data() + s * c.strideIpiv : nullptr;
        check_factor_verdict(where, s, n, info, ipiv, 1, factors, call.context.tau == 1.0);
        if (c.operation != Operation::Gesv || c.nrhs == 0) continue;
        const Strided<T> X{ops.B.memory.data() + s * c.strideB, col ? 1 : c.ldb, col ? c.ldb : 1};
        const Strided<T> B0{ops.B.before.data() + s * c.strideB, X.row, X.col};
        const Strided<T> A0{ops.A.before.data() + s * c.strideA, col ? 1 : c.lda, col ? c.lda : 1};
        check_solution(where, s, c.batch, n, c.nrhs, info, factors, B0, X, [&] { return dense(A0, n); });
    }
}

/// getrf against gesv on the same matrices, same context: identical factors,
/// pivots and verdicts.
template <typename T>
void check_getrf_is_gesv(const Call& call, const ContiguousOperands<T>& ops) {
    const CallShape& c = call.shape;
    if (c.batch == 0 || c.n == 0) return;
    std::vector<T> A = ops.A.before;
    std::vector<std::int32_t> ipiv = ops.ipiv.before, info = ops.info.before;
    std::vector<T> B(std::size_t(c.batch * c.n), T(1));
    const std::int64_t ldb = c.row_major() ? 1 : c.n;
    const tdls_status_t status = raw_gesv(call.context.handle, c.dtype, c.layout, c.n, 1, A.data(), c.lda,
                                          c.strideA, c.ipiv_given ? ipiv.data() : nullptr, c.strideIpiv,
                                          B.data(), ldb, c.n, info.data(), c.batch);
    TDLS_FUZZ_CHECK(status == TDLS_SUCCESS, "tdls_batched_gesv refused what tdls_batched_getrf solved: %s",
                    tdls_last_error());
    TDLS_FUZZ_CHECK(same_bits(A, ops.A.memory),
                    "tdls_batched_getrf's factors differ from tdls_batched_gesv's");
    TDLS_FUZZ_CHECK(same_bits(ipiv, ops.ipiv.memory),
                    "tdls_batched_getrf's pivots differ from tdls_batched_gesv's");
    TDLS_FUZZ_CHECK(same_bits(info, ops.info.memory),
                    "tdls_batched_getrf's info differs from tdls_batched_gesv's");
}

template <typename T>
void run(Call& call, Input& in) {
    CallShape& c = call.shape;
    Expected expected = expected_status(c);
    const Footprints f = footprints_for(c, expected, fit_strided, strided_footprints);
    ContiguousOperands<T> ops = allocate_contiguous<T>(f, call.contents, in);
    aim_and_keep(ops, c, call.alias, call.alias_offset);
    const char* function = c.operation == Operation::Getrf ? "tdls_batched_getrf" : "tdls_batched_gesv";
    const tdls_status_t status = call_library(call, ops);
    if (!check_status(function, status, expected.status, [&] { return ops.unchanged(); })) return;
    if (call.alias != ContiguousAlias::None) return; // aliased operands: no crash, no sanitizer report
    check_solved(call, ops);
    if (c.operation == Operation::Getrf) check_getrf_is_gesv(call, ops);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return test_one_input(data, size, decode, dtype_of_call,
                          [](auto type, Call& call, Input& in) { run<typename decltype(type)::type>(call, in); });
}
