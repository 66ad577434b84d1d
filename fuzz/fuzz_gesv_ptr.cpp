// libtdls fuzzing: tdls_batched_gesv_ptr, pointer arrays with NULL and
// aliased entries. Every system's A, B and ipiv is an allocation of its own,
// exactly the size the contract lets the call touch, so that ASan sees any
// access past one system's end.
#include <tdls/tdls.h>

#include <cstdint>
#include <vector>

#include "support/batch.hpp"
#include "support/contract.hpp"
#include "support/entry.hpp"
#include "support/fields.hpp"
#include "support/input.hpp"
#include "support/oracle.hpp"
#include "support/pointer_arrays.hpp"
#include "support/raw_enums.h"
#include "support/system_checks.hpp"

namespace {

using namespace tdls_fuzz;

enum class NullEntry { None, A, Ipiv, B };
enum class Alias { None, SameA, BInA, SameIpiv, IpivInInfo };

struct Call : ComputeCall {
    NullEntry null_entry = NullEntry::None;
    Alias alias = Alias::None;
    std::uint8_t first = 0, second = 0; // which entries are NULL or aliased
};

Call decode(Input& in) {
    Call call;
    CallShape& c = call.shape;
    const std::uint8_t head = in.byte();
    decode_head(head, call);
    c.operation = Operation::Gesv;
    c.form = Form::Pointers;
    decode_scalars(in, c);
    c.lda = in.at_least(c.n);
    c.ldb = in.at_least(c.row_major() ? c.nrhs : c.n);
    const std::uint8_t flags = in.byte();
    if (!decode_null_operand(flags & 15, c)) {
        if ((flags & 15) == 14) call.null_entry = NullEntry::A;
        if ((flags & 15) == 15) call.null_entry = (flags & 16) ? NullEntry::B : NullEntry::Ipiv;
    }
    // The top 3 bits: half the inputs alias nothing.
    constexpr Alias aliases[8] = {Alias::None,  Alias::None, Alias::None,     Alias::None,
                                  Alias::SameA, Alias::BInA, Alias::SameIpiv, Alias::IpivInInfo};
    call.alias = aliases[flags >> 5];
    call.first = in.byte();
    call.second = in.byte();
    return call;
}

SystemSizes sizes_of(const CallShape& c) {
    return {saturated_mul(c.lda, c.n), saturated_mul(c.ldb, c.b_columns()), c.n};
}

void fit(CallShape& c) {
    c.batch = std::min(c.batch, batch_cap);
    for (;;) {
        const SystemSizes s = sizes_of(c);
        const std::int64_t systems = std::max<std::int64_t>(c.batch, 1); // one is allocated even for batch 0
        const bool too_big = saturated_mul(systems, s.A) > element_cap ||
                             saturated_mul(systems, s.B) > element_cap ||
                             saturated_mul(c.batch, work_of(c.n, c.nrhs)) > work_cap;
        if (!too_big) return;
        if (shrink_towards(c.lda, c.n) || shrink_towards(c.ldb, c.row_major() ? c.nrhs : c.n)) continue;
        if (!shrink_nrhs_then_batch(c.nrhs, c.batch)) return;
    }
}

template <typename T>
using Operands = PointerOperands<T, std::int32_t, void>;

/// The decoded aliases and NULL entry, on entries `first` and `second`.
template <typename T>
void alias_entries(const Call& call, Operands<T>& ops, std::int64_t entries, const SystemSizes& size) {
    if (entries == 0) return;
    const std::size_t first = call.first % entries, second = call.second % entries;
    switch (call.alias) {
    case Alias::SameA:
        ops.A_array[first] = ops.A_array[second];
        break;
    case Alias::BInA: // B's footprint inside A's, when it fits
        if (size.B <= size.A) ops.B_array[first] = ops.A_array[second];
        break;
    case Alias::SameIpiv:
        ops.ipiv_array[first] = ops.ipiv_array[second];
        break;
    case Alias::IpivInInfo:
        if (size.ipiv <= entries) ops.ipiv_array[first] = ops.info.memory.data();
        break;
    case Alias::None:
        break;
    }
    // After the aliases, so that no alias replaces the NULL entry.
    switch (call.null_entry) {
    case NullEntry::A:
        ops.A_array[first] = nullptr;
        break;
    case NullEntry::B:
        ops.B_array[first] = nullptr;
        break;
    case NullEntry::Ipiv:
        ops.ipiv_array[first] = nullptr;
        break;
    case NullEntry::None:
        break;
    }
}

template <typename T>
void check_solved(const Call& call, Operands<T>& ops) {
    const CallShape& c = call.shape;
    const char* where = "tdls_batched_gesv_ptr";
    const std::int64_t n = c.n;
    if (c.batch == 0 || n == 0) {
        check_empty_batch(where, c.batch, n, ops.systems_unchanged(),
                          c.info_given ? ops.info.memory.data() : nullptr);
        return;
    }
    const bool col = !c.row_major();
    for (std::int64_t s = 0; s < c.batch; ++s) {
        Operand<T>& A = ops.A[std::size_t(s)];
        Operand<T>& B = ops.B[std::size_t(s)];
        const std::int32_t info = ops.info.memory[std::size_t(s)];
        TDLS_FUZZ_CHECK(outside_unchanged(A, 1, 0, n, n, c.lda),
                        "%s: A_array[%lld] changed outside its system", where, (long long)s);
        const Strided<T> factors{A.memory.data(), 1, c.lda};
        const std::int32_t* ipiv = c.ipiv_given ? ops.ipiv[std::size_t(s)].memory.data() : nullptr;
        if (!c.ipiv_given)
            TDLS_FUZZ_CHECK(ops.ipiv[std::size_t(s)].unchanged(), "%s: ipiv written though NULL", where);
        check_factor_verdict(where, s, n, info, ipiv, 1, factors, call.context.tau == 1.0);
        if (c.nrhs == 0) {
            TDLS_FUZZ_CHECK(B.unchanged(), "%s: nrhs = 0 but B_array[%lld] changed", where, (long long)s);
            continue;
        }
        TDLS_FUZZ_CHECK(outside_unchanged(B, 1, 0, col ? n : c.nrhs, col ? c.nrhs : n, c.ldb),
                        "%s: B_array[%lld] changed outside its system", where, (long long)s);
        const Strided<T> X{B.memory.data(), col ? 1 : c.ldb, col ? c.ldb : 1};
        const Strided<T> B0{B.before.data(), X.row, X.col};
        const Strided<T> A0{A.before.data(), col ? 1 : c.lda, col ? c.lda : 1};
        check_solution(where, s, c.batch, n, c.nrhs, info, factors, B0, X, [&] { return dense(A0, n); });
    }
}

template <typename T>
void run(Call& call, Input& in) {
    CallShape& c = call.shape;
    c.A_entry_null = call.null_entry == NullEntry::A && c.batch > 0;
    c.ipiv_entry_null = call.null_entry == NullEntry::Ipiv && c.batch > 0;
    c.B_entry_null = call.null_entry == NullEntry::B && c.batch > 0;
    Expected expected = expected_status(c);
    std::int64_t entries = 0, systems = 1;
    SystemSizes size{refused_elements, refused_elements, refused_elements};
    if (operands_are_read(expected)) {
        fit(c);
        expected = expected_status(c);
        entries = systems = c.batch;
        size = sizes_of(c);
    } else {
        // Validation reads the arrays' entries, not what they point to.
        entries = refused_entries(c.batch, expected.stage >= Stage::Pointers);
    }
    Operands<T> ops;
    allocate_systems(ops, entries, std::max<std::int64_t>(systems, 1), size, call.contents, in);
    alias_entries(call, ops, entries, size);
    ops.keep();
    const tdls_status_t status = raw_gesv_ptr(
        call.context.handle, c.dtype, c.layout, c.n, c.nrhs, c.A_given ? ops.A_array.data() : nullptr, c.lda,
        c.ipiv_given ? ops.ipiv_array.data() : nullptr, c.B_given ? ops.B_array.data() : nullptr, c.ldb,
        c.info_given ? ops.info.memory.data() : nullptr, c.batch);
    if (!check_status("tdls_batched_gesv_ptr", status, expected.status, [&] { return ops.unchanged(); }))
        return;
    if (call.alias != Alias::None) return;
    check_solved(call, ops);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return test_one_input(data, size, decode, dtype_of_call,
                          [](auto type, Call& call, Input& in) { run<typename decltype(type)::type>(call, in); });
}
