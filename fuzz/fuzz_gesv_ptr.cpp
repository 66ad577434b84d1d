// libtdls fuzzing: tdls_batched_gesv_ptr, pointer arrays with NULL and
// aliased entries. Every system's A, B and ipiv is an allocation of its own,
// exactly the size the contract lets the call touch, so that ASan sees any
// access past one system's end.
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

/// Pointer arrays of more entries than this are only passed to calls that
/// fail before reading them.
constexpr std::int64_t array_cap = 4096;

enum class NullEntry { None, A, Ipiv, B };
enum class Alias { None, SameA, BInA, SameIpiv, IpivInInfo };

struct Call {
    CallShape shape;
    Context context{};
    Contents contents = Contents::Scaled;
    NullEntry null_entry = NullEntry::None;
    Alias alias = Alias::None;
    std::uint8_t first = 0, second = 0; // which entries are NULL or aliased
};

Call decode(Input& in) {
    Call call;
    CallShape& c = call.shape;
    const std::uint8_t head = in.byte();
    call.context = context(head);
    call.contents = Contents((head >> 2) % std::uint8_t(Contents::Count));
    c.operation = Operation::Gesv;
    c.form = Form::Pointers;
    c.dtype = in.enumerator(2);
    c.layout = in.enumerator(2);
    c.n = fold_order(in.size(-2, 40));
    c.nrhs = in.size(-2, 8);
    c.batch = in.size(0, 40);
    c.lda = in.at_least(c.n);
    c.ldb = in.at_least(c.row_major() ? c.nrhs : c.n);
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
        call.null_entry = NullEntry::A;
        break;
    case 15:
        call.null_entry = (flags & 16) ? NullEntry::B : NullEntry::Ipiv;
        break;
    default:
        break;
    }
    switch (flags >> 5) {
    case 4:
        call.alias = Alias::SameA;
        break;
    case 5:
        call.alias = Alias::BInA;
        break;
    case 6:
        call.alias = Alias::SameIpiv;
        break;
    case 7:
        call.alias = Alias::IpivInInfo;
        break;
    default:
        break;
    }
    call.first = in.byte();
    call.second = in.byte();
    return call;
}

/// Elements of one system's operands.
struct SystemSizes {
    std::int64_t A, B, ipiv;
};

SystemSizes sizes_of(const CallShape& c) {
    return {saturated_mul(c.lda, c.n), saturated_mul(c.ldb, c.b_columns()), c.n};
}

bool shrink(std::int64_t& value, std::int64_t minimum) {
    if (value <= saturated_add(minimum, 8)) return false;
    value = minimum + (value - minimum) % 9;
    return true;
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
        if (shrink(c.lda, c.n) || shrink(c.ldb, c.row_major() ? c.nrhs : c.n)) continue;
        if (c.nrhs > 8) {
            c.nrhs %= 9;
            continue;
        }
        if (c.batch <= 1) return;
        c.batch /= 2;
    }
}

template <typename T>
struct Operands {
    std::vector<Operand<T>> A, B;
    std::vector<Operand<std::int32_t>> ipiv;
    Operand<std::int32_t> info;
    std::vector<void*> A_array, B_array;
    std::vector<std::int32_t*> ipiv_array;
    std::vector<void*> A_array_before, B_array_before;
    std::vector<std::int32_t*> ipiv_array_before;

    /// Everything but info: the systems and the pointer arrays.
    bool systems_unchanged() const {
        for (const auto& a : A)
            if (!a.unchanged()) return false;
        for (const auto& b : B)
            if (!b.unchanged()) return false;
        for (const auto& p : ipiv)
            if (!p.unchanged()) return false;
        return A_array == A_array_before && B_array == B_array_before && ipiv_array == ipiv_array_before;
    }
    bool unchanged() const { return systems_unchanged() && info.unchanged(); }
};

/// `systems` allocations per operand of the given sizes; the arrays have
/// `entries` entries, entry s pointing at allocation s % systems.
template <typename T>
Operands<T> allocate(const Call& call, std::int64_t entries, std::int64_t systems, const SystemSizes& size,
                     Input& in) {
    Operands<T> ops;
    ContentSource<T> contents(in, call.contents);
    ops.A.resize(std::size_t(systems));
    ops.B.resize(std::size_t(systems));
    ops.ipiv.resize(std::size_t(systems));
    for (std::int64_t s = 0; s < systems; ++s) {
        auto& a = ops.A[std::size_t(s)];
        auto& b = ops.B[std::size_t(s)];
        auto& p = ops.ipiv[std::size_t(s)];
        a.allocate(size.A);
        b.allocate(size.B);
        p.allocate(size.ipiv);
        contents.fill(a.memory.data(), a.memory.size());
        contents.fill(b.memory.data(), b.memory.size());
        for (std::int32_t& v : p.memory) v = -7;
    }
    ops.info.allocate(entries);
    for (std::int32_t& v : ops.info.memory) v = -9;
    for (std::int64_t s = 0; s < entries; ++s) {
        const std::size_t owner = std::size_t(s % systems);
        ops.A_array.push_back(ops.A[owner].memory.data());
        ops.B_array.push_back(ops.B[owner].memory.data());
        ops.ipiv_array.push_back(ops.ipiv[owner].memory.data());
    }
    if (entries > 0) {
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
    for (auto& a : ops.A) a.keep();
    for (auto& b : ops.B) b.keep();
    for (auto& p : ops.ipiv) p.keep();
    ops.info.keep();
    ops.A_array_before = ops.A_array;
    ops.B_array_before = ops.B_array;
    ops.ipiv_array_before = ops.ipiv_array;
    return ops;
}

template <typename T>
void check_solved(const Call& call, Operands<T>& ops) {
    const CallShape& c = call.shape;
    const char* where = "tdls_batched_gesv_ptr";
    const std::int64_t n = c.n;
    if (c.batch == 0 || n == 0) {
        TDLS_FUZZ_CHECK(ops.systems_unchanged(), "%s: an empty batch (batch %lld, n %lld) changed an operand",
                        where, (long long)c.batch, (long long)n);
        if (c.info_given)
            for (std::int64_t s = 0; s < c.batch; ++s)
                TDLS_FUZZ_CHECK(ops.info.memory[std::size_t(s)] == 0, "%s: n = 0 but info[%lld] = %d", where,
                                (long long)s, ops.info.memory[std::size_t(s)]);
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
        const Strided<T> B0{B.before.data(), col ? 1 : c.ldb, col ? c.ldb : 1};
        if (info > 0) {
            TDLS_FUZZ_CHECK(B.unchanged(), "%s: system %lld is singular (info %d) but B changed", where,
                            (long long)s, info);
            continue;
        }
        if (!residual_sampled(s, c.batch, n)) continue;
        plant_wrong_answer(X, n);
        const Strided<T> A0{A.before.data(), col ? 1 : c.lda, col ? c.lda : 1};
        check_backward_error(where, s, n, c.nrhs, dense(A0, n), factors, B0, X);
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
    } else if (expected.stage >= Stage::Pointers) {
        // Validation reads the arrays' entries, not what they point to.
        c.batch = std::min(c.batch, array_cap);
        entries = c.batch;
    } else {
        entries = std::clamp<std::int64_t>(c.batch, 0, 16);
    }
    Operands<T> ops = allocate<T>(call, entries, std::max<std::int64_t>(systems, 1), size, in);
    const tdls_status_t status = raw_gesv_ptr(
        call.context.handle, c.dtype, c.layout, c.n, c.nrhs, c.A_given ? ops.A_array.data() : nullptr, c.lda,
        c.ipiv_given ? ops.ipiv_array.data() : nullptr, c.B_given ? ops.B_array.data() : nullptr, c.ldb,
        c.info_given ? ops.info.memory.data() : nullptr, c.batch);
    const char* function = "tdls_batched_gesv_ptr";
    TDLS_FUZZ_CHECK(status == expected.status, "%s returned %s, the contract says %s (\"%s\")", function,
                    tdls_status_name(status), tdls_status_name(expected.status),
                    status == TDLS_SUCCESS ? "" : tdls_last_error());
    if (status != TDLS_SUCCESS) {
        check_last_error(function);
        TDLS_FUZZ_CHECK(ops.unchanged(), "%s failed (%s) but changed an operand", function,
                        tdls_status_name(status));
        return;
    }
    if (call.alias != Alias::None) return;
    check_solved(call, ops);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    Input in(data, size);
    Call call = decode(in);
    if (call.shape.dtype == TDLS_FLOAT32)
        run<float>(call, in);
    else
        run<double>(call, in);
    return 0;
}
