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
#include "support/contract.hpp"
#include "support/input.hpp"
#include "support/oracle.hpp"
#include "support/raw_enums.h"

namespace {

using namespace tdls_fuzz;

enum class Alias { None, BInA, IpivInInfo };

struct Call {
    CallShape shape;
    Context context{};
    Contents contents = Contents::Scaled;
    Alias alias = Alias::None;
    std::uint8_t alias_offset = 0;
};

Call decode(Input& in) {
    Call call;
    CallShape& c = call.shape;
    const std::uint8_t head = in.byte();
    c.operation = head & 1 ? Operation::Getrf : Operation::Gesv;
    call.context = context(std::uint8_t(head >> 1));
    call.contents = Contents((head >> 3) % std::uint8_t(Contents::Count));
    c.form = Form::Strided;
    c.dtype = in.enumerator(2);
    c.layout = in.enumerator(2);
    c.n = fold_order(in.size(-2, 40));
    c.nrhs = in.size(-2, 8);
    c.batch = in.size(0, 40);
    c.lda = in.at_least(c.n);
    c.strideA = in.at_least(saturated_mul(c.lda, c.n));
    c.strideIpiv = in.at_least(c.n);
    c.ldb = in.at_least(c.row_major() ? c.nrhs : c.n);
    c.strideB = in.at_least(saturated_mul(c.ldb, c.b_columns()));
    const std::uint8_t flags = in.byte();
    switch (flags & 15) {
    case 8:
    case 9:
    case 10:
        c.ipiv_given = false;
        break;
    case 11:
        c.A_given = false;
        break;
    case 12:
        c.B_given = false;
        break;
    case 13:
        c.info_given = false;
        break;
    case 14:
        c.A_given = c.info_given = false;
        break;
    case 15:
        c.A_given = c.ipiv_given = c.B_given = c.info_given = false;
        break;
    default:
        break;
    }
    switch (flags >> 4) {
    case 13:
        call.alias = Alias::BInA;
        break;
    case 14:
    case 15:
        call.alias = Alias::IpivInInfo;
        break;
    default:
        break;
    }
    call.alias_offset = in.byte();
    return call;
}

struct Footprints {
    std::int64_t A = 0, ipiv = 0, B = 0, info = 0;
};

/// Elements the contract lets the call touch: system s's operand at
/// s*stride, the last one lda*n (ldb*columns, n) long.
Footprints footprints(const CallShape& c) {
    Footprints f;
    if (c.batch <= 0) return f;
    const auto span = [&](std::int64_t stride, std::int64_t last) {
        return saturated_add(saturated_mul(c.batch - 1, stride), last);
    };
    f.A = span(c.strideA, saturated_mul(c.lda, c.n));
    f.ipiv = span(c.strideIpiv, c.n);
    f.B = c.has_b() ? span(c.strideB, saturated_mul(c.ldb, c.b_columns())) : 0;
    f.info = c.batch;
    return f;
}

bool shrink(std::int64_t& value, std::int64_t minimum) {
    if (value <= saturated_add(minimum, 8)) return false;
    value = minimum + (value - minimum) % 9;
    return true;
}

/// Shrinks a valid call until its operands and its work fit the caps,
/// keeping it valid: leading dimensions and strides towards their minimum,
/// then nrhs, then the batch.
void fit(CallShape& c) {
    c.batch = std::min(c.batch, batch_cap);
    for (;;) {
        const Footprints f = footprints(c);
        const bool too_big = f.A > element_cap || f.B > element_cap || f.ipiv > element_cap ||
                             saturated_mul(c.batch, work_of(c.n, c.has_b() ? c.nrhs : 0)) > work_cap;
        if (!too_big) return;
        if (shrink(c.lda, c.n) || shrink(c.ldb, c.row_major() ? c.nrhs : c.n)) continue;
        if (c.batch > 1 && (shrink(c.strideA, saturated_mul(c.lda, c.n)) || shrink(c.strideIpiv, c.n) ||
                            shrink(c.strideB, saturated_mul(c.ldb, c.b_columns()))))
            continue;
        if (c.nrhs > 8) {
            c.nrhs %= 9;
            continue;
        }
        if (c.batch <= 1) return; // n <= order_cap: cannot happen
        c.batch /= 2;
    }
}

template <typename T>
struct Operands {
    Operand<T> A, B;
    Operand<std::int32_t> ipiv, info;
    T* A_ptr = nullptr;
    T* B_ptr = nullptr;
    std::int32_t* ipiv_ptr = nullptr;
    std::int32_t* info_ptr = nullptr;

    bool unchanged() const { return A.unchanged() && B.unchanged() && ipiv.unchanged() && info.unchanged(); }
};

template <typename T>
Operands<T> allocate(const Call& call, const Footprints& f, Input& in) {
    const CallShape& c = call.shape;
    Operands<T> ops;
    ops.A.allocate(f.A);
    ops.B.allocate(f.B);
    ops.ipiv.allocate(f.ipiv);
    ops.info.allocate(f.info);
    ContentSource<T> contents(in, call.contents);
    contents.fill(ops.A.memory.data(), ops.A.memory.size());
    contents.fill(ops.B.memory.data(), ops.B.memory.size());
    // Pivots and verdicts start as garbage the call must overwrite.
    for (std::int32_t& p : ops.ipiv.memory) p = -7;
    for (std::int32_t& v : ops.info.memory) v = -9;
    ops.A_ptr = ops.A.memory.data();
    ops.B_ptr = ops.B.memory.data();
    ops.ipiv_ptr = ops.ipiv.memory.data();
    ops.info_ptr = ops.info.memory.data();
    if (call.alias == Alias::BInA && ops.B.memory.size() <= ops.A.memory.size())
        ops.B_ptr = ops.A_ptr + call.alias_offset % (ops.A.memory.size() - ops.B.memory.size() + 1);
    if (call.alias == Alias::IpivInInfo) {
        if (ops.ipiv.memory.size() <= ops.info.memory.size())
            ops.ipiv_ptr = ops.info_ptr;
        else
            ops.info_ptr = ops.ipiv_ptr;
    }
    if (!c.A_given) ops.A_ptr = nullptr;
    if (!c.B_given) ops.B_ptr = nullptr;
    if (!c.ipiv_given) ops.ipiv_ptr = nullptr;
    if (!c.info_given) ops.info_ptr = nullptr;
    ops.A.keep();
    ops.B.keep();
    ops.ipiv.keep();
    ops.info.keep();
    return ops;
}

template <typename T>
tdls_status_t call_library(const Call& call, Operands<T>& ops) {
    const CallShape& c = call.shape;
    if (c.operation == Operation::Getrf)
        return raw_getrf(call.context.handle, c.dtype, c.layout, c.n, ops.A_ptr, c.lda, c.strideA,
                         ops.ipiv_ptr, c.strideIpiv, ops.info_ptr, c.batch);
    return raw_gesv(call.context.handle, c.dtype, c.layout, c.n, c.nrhs, ops.A_ptr, c.lda, c.strideA,
                    ops.ipiv_ptr, c.strideIpiv, ops.B_ptr, c.ldb, c.strideB, ops.info_ptr, c.batch);
}

/// The checks of a solved, unaliased batch.
template <typename T>
void check_solved(const Call& call, Operands<T>& ops) {
    const CallShape& c = call.shape;
    const char* where = c.operation == Operation::Getrf ? "tdls_batched_getrf" : "tdls_batched_gesv";
    const std::int64_t n = c.n;
    if (c.batch == 0 || n == 0) {
        TDLS_FUZZ_CHECK(ops.A.unchanged() && ops.B.unchanged() && ops.ipiv.unchanged(),
                        "%s: an empty batch (batch %lld, n %lld) changed an operand", where,
                        (long long)c.batch, (long long)n);
        for (std::int64_t s = 0; s < c.batch && c.info_given; ++s)
            TDLS_FUZZ_CHECK(ops.info.memory[std::size_t(s)] == 0, "%s: n = 0 but info[%lld] = %d", where,
                            (long long)s, ops.info.memory[std::size_t(s)]);
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
        T* A_s = ops.A.memory.data() + s * c.strideA;
        T* A0_s = ops.A.before.data() + s * c.strideA;
        const Strided<T> factors{A_s, 1, c.lda};
        const std::int32_t info = ops.info.memory[std::size_t(s)];
        const std::int32_t* ipiv = c.ipiv_given ? ops.ipiv.memory.data() + s * c.strideIpiv : nullptr;
        check_factor_verdict(where, s, n, info, ipiv, 1, factors, call.context.tau == 1.0);
        if (c.operation != Operation::Gesv || c.nrhs == 0) continue;
        const Strided<T> X{ops.B.memory.data() + s * c.strideB, col ? 1 : c.ldb, col ? c.ldb : 1};
        const Strided<T> B0{ops.B.before.data() + s * c.strideB, col ? 1 : c.ldb, col ? c.ldb : 1};
        if (info > 0) {
            TDLS_FUZZ_CHECK(same_bits(X, B0, n, c.nrhs),
                            "%s: system %lld is singular (info %d) but B changed", where, (long long)s, info);
            continue;
        }
        if (!residual_sampled(s, c.batch, n)) continue;
        plant_wrong_answer(X, n);
        const Strided<T> A0{A0_s, col ? 1 : c.lda, col ? c.lda : 1};
        check_backward_error(where, s, n, c.nrhs, dense(A0, n), factors, B0, X);
    }
}

/// getrf against gesv on the same matrices, same context: identical factors,
/// pivots and verdicts.
template <typename T>
void check_getrf_is_gesv(const Call& call, const Operands<T>& ops) {
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
    Footprints f;
    if (operands_are_read(expected)) {
        fit(c);
        expected = expected_status(c);
        f = footprints(c);
    } else {
        f = {refused_elements, refused_elements, refused_elements, refused_elements};
    }
    Operands<T> ops = allocate<T>(call, f, in);
    const char* function = c.operation == Operation::Getrf ? "tdls_batched_getrf" : "tdls_batched_gesv";
    const tdls_status_t status = call_library(call, ops);
    TDLS_FUZZ_CHECK(status == expected.status, "%s returned %s, the contract says %s (\"%s\")", function,
                    tdls_status_name(status), tdls_status_name(expected.status),
                    status == TDLS_SUCCESS ? "" : tdls_last_error());
    if (status != TDLS_SUCCESS) {
        check_last_error(function);
        TDLS_FUZZ_CHECK(ops.unchanged(), "%s failed (%s) but changed an operand", function,
                        tdls_status_name(status));
        return;
    }
    if (call.alias != Alias::None) return; // aliased operands: no crash, no sanitizer report, nothing more
    check_solved(call, ops);
    if (c.operation == Operation::Getrf) check_getrf_is_gesv(call, ops);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    Input in(data, size);
    Call call = decode(in);
    if (call.shape.dtype == TDLS_FLOAT32)
        run<float>(call, in);
    else
        run<double>(call, in); // and every refused dtype: its buffers are never read
    return 0;
}
