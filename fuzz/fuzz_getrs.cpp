// libtdls fuzzing: tdls_batched_getrs on strided batches, with factors either
// made by tdls_batched_getrf from decoded matrices or taken raw from the
// input, and pivots that may lie outside 1..n. The contract checks every
// pivot of every system before solving any; a solved batch must satisfy
// A X = B for the A = P^T L U its factors stand for, and leave A and ipiv
// (const operands) untouched.
#include <tdls/tdls.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "support/batch.hpp"
#include "support/contiguous.hpp"
#include "support/contract.hpp"
#include "support/entry.hpp"
#include "support/factors.hpp"
#include "support/fields.hpp"
#include "support/input.hpp"
#include "support/oracle.hpp"
#include "support/raw_enums.h"
#include "support/strided.hpp"
#include "support/system_checks.hpp"

namespace {

using namespace tdls_fuzz;

struct Call : ComputeCall {
    bool factor_first = true; // factors from tdls_batched_getrf, else raw
    bool B_in_A = false;
    std::uint8_t bad_pivot = 0, bad_system = 0, bad_entry = 0;
};

Call decode(Input& in) {
    Call call;
    CallShape& c = call.shape;
    const std::uint8_t head = in.byte();
    decode_head(head, call);
    call.factor_first = (head & 0x20) == 0;
    c.operation = Operation::Getrs;
    c.form = Form::Strided;
    decode_scalars(in, c);
    decode_strided_dims(in, c);
    const std::uint8_t flags = in.byte();
    switch (flags & 15) {
    case 11:
        c.A_given = false;
        break;
    case 12:
        c.ipiv_given = false;
        break;
    case 13:
        c.B_given = false;
        break;
    default:
        break;
    }
    call.B_in_A = (flags >> 4) == 15;
    call.bad_pivot = in.byte();
    call.bad_system = in.byte();
    call.bad_entry = in.byte();
    return call;
}

template <typename T>
void run(Call& call, Input& in) {
    CallShape& c = call.shape;
    Expected expected = expected_status(c);
    // info is allocated too but never handed to getrs (it has no verdicts).
    const Footprints f = footprints_for(c, expected, fit_strided, strided_footprints);
    ContiguousOperands<T> ops = allocate_contiguous<T>(f, call.contents, in);
    // The gaps between systems' pivots keep the garbage allocate_contiguous wrote.
    const bool full = operands_are_read(expected);
    if (full && c.n > 0 && c.batch > 0) {
        std::vector<std::int32_t> info(std::size_t(c.batch));
        const bool factored =
            call.factor_first &&
            raw_getrf(nullptr, c.dtype, c.layout, c.n, ops.A.memory.data(), c.lda, c.strideA,
                      ops.ipiv.memory.data(), c.strideIpiv, info.data(), c.batch) == TDLS_SUCCESS;
        if (!factored)
            for (std::int64_t s = 0; s < c.batch; ++s)
                for (std::int64_t k = 0; k < c.n; ++k)
                    ops.ipiv.memory[std::size_t(s * c.strideIpiv + k)] = pivot_value<std::int32_t>(in.byte(), k, c.n, in);
        if (call.bad_pivot >= 0xC0) { // one pivot anywhere in the batch made invalid (or not)
            const std::int64_t s = call.bad_system % c.batch, k = call.bad_entry % c.n;
            ops.ipiv.memory[std::size_t(s * c.strideIpiv + k)] =
                pivot_value<std::int32_t>(std::uint8_t(call.bad_pivot | 0xE0), k, c.n, in);
        }
    }
    aim_and_keep(ops, c, call.B_in_A ? ContiguousAlias::BInA : ContiguousAlias::None, 0);

    tdls_status_t expected_status_value = expected.status;
    if (expected.stage == Stage::Pivots)
        for (std::int64_t s = 0; s < c.batch; ++s)
            for (std::int64_t k = 0; k < c.n; ++k) {
                const std::int32_t p = ops.ipiv.memory[std::size_t(s * c.strideIpiv + k)];
                if (p < 1 || p > c.n) expected_status_value = TDLS_ERROR_INVALID_VALUE;
            }

    const tdls_status_t status =
        raw_getrs(call.context.handle, c.dtype, c.layout, c.n, c.nrhs, ops.A_ptr, c.lda, c.strideA,
                  ops.ipiv_ptr, c.strideIpiv, ops.B_ptr, c.ldb, c.strideB, c.batch);
    const char* where = "tdls_batched_getrs";
    if (!check_status(where, status, expected_status_value, [&] { return ops.unchanged(); })) return;
    if (ops.aliased) return; // B aliased into A: no crash, no report, nothing more
    TDLS_FUZZ_CHECK(ops.A.unchanged() && ops.ipiv.unchanged(), "%s changed its const operands A or ipiv",
                    where);
    const std::int64_t n = c.n, nrhs = c.nrhs;
    if (c.batch == 0 || n == 0 || nrhs == 0) {
        TDLS_FUZZ_CHECK(ops.B.unchanged(), "%s: nothing to solve, but B changed", where);
        return;
    }
    const bool col = !c.row_major();
    TDLS_FUZZ_CHECK(outside_unchanged(ops.B, c.batch, c.strideB, col ? n : nrhs, col ? nrhs : n, c.ldb),
                    "%s: B changed outside the systems", where);
    for (std::int64_t s = 0; s < c.batch; ++s) {
        const Strided<T> factors{ops.A.memory.data() + s * c.strideA, 1, c.lda};
        const Strided<T> X{ops.B.memory.data() + s * c.strideB, col ? 1 : c.ldb, col ? c.ldb : 1};
        const Strided<T> B0{ops.B.before.data() + s * c.strideB, X.row, X.col};
        const std::int32_t* ipiv = ops.ipiv.memory.data() + s * c.strideIpiv;
        // info 0: getrs solves every system it is given (no singular verdict).
        check_solution(where, s, c.batch, n, nrhs, 0, factors, B0, X,
                       [&] { return matrix_of_factors(factors, ipiv, n, c.row_major()); });
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return test_one_input(data, size, decode, dtype_of_call,
                          [](auto type, Call& call, Input& in) { run<typename decltype(type)::type>(call, in); });
}
