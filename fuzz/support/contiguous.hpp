// libtdls fuzzing: the operands of a call whose A, B, ipiv and info are each
// one allocation (strided and interleaved forms): allocated at the size the
// caller worked out, filled from the input, then aimed at (with aliasing and
// NULL operands applied) and copied for the "nothing changed" checks.
#pragma once

#include <cstdint>

#include "batch.hpp"
#include "contract.hpp"
#include "input.hpp"

namespace tdls_fuzz {

/// How two operands share memory (decoded by the harness).
enum class ContiguousAlias { None, BInA, IpivInInfo };

template <typename T>
struct ContiguousOperands {
    Operand<T> A, B;
    Operand<std::int32_t> ipiv, info;
    // What the call is handed: the memory above, aliased or NULL.
    T* A_ptr = nullptr;
    T* B_ptr = nullptr;
    std::int32_t* ipiv_ptr = nullptr;
    std::int32_t* info_ptr = nullptr;
    bool aliased = false; // an alias was applied: the results mean nothing

    bool unchanged() const { return A.unchanged() && B.unchanged() && ipiv.unchanged() && info.unchanged(); }
};

/// The footprints a call gets: when the contract lets it touch its operands,
/// the whole batch's, after `fit` shrank the call (and `expected` is worked
/// out again for it); else small real buffers that validation alone must
/// refuse to touch. FootprintsOf: Footprints(const CallShape&).
template <typename Fit, typename FootprintsOf>
Footprints footprints_for(CallShape& c, Expected& expected, Fit fit, FootprintsOf footprints_of) {
    if (!operands_are_read(expected))
        return {refused_elements, refused_elements, refused_elements, refused_elements};
    fit(c);
    expected = expected_status(c);
    return footprints_of(c);
}

/// Allocates the footprints and fills A then B from the input (this order is
/// part of the input layout). Pivots and verdicts start as garbage the call
/// must overwrite.
template <typename T>
ContiguousOperands<T> allocate_contiguous(const Footprints& f, Contents mode, Input& in) {
    ContiguousOperands<T> ops;
    ops.A.allocate(f.A);
    ops.B.allocate(f.B);
    ops.ipiv.allocate(f.ipiv);
    ops.info.allocate(f.info);
    ContentSource<T> contents(in, mode);
    contents.fill(ops.A.memory.data(), ops.A.memory.size());
    contents.fill(ops.B.memory.data(), ops.B.memory.size());
    for (std::int32_t& p : ops.ipiv.memory) p = -7;
    for (std::int32_t& v : ops.info.memory) v = -9;
    return ops;
}

/// Sets the pointers handed to the call, then keeps the copies. An alias
/// applies only where the aliased operand fits in the other's memory (B at
/// b_offset elements into A, modulo the room left); operands the shape does
/// not give become NULL last, so that no alias hides a NULL argument.
template <typename T>
void aim_and_keep(ContiguousOperands<T>& ops, const CallShape& c, ContiguousAlias alias,
                  std::size_t b_offset) {
    ops.A_ptr = ops.A.memory.data();
    ops.B_ptr = ops.B.memory.data();
    ops.ipiv_ptr = ops.ipiv.memory.data();
    ops.info_ptr = ops.info.memory.data();
    if (alias == ContiguousAlias::BInA && ops.B.memory.size() <= ops.A.memory.size()) {
        ops.B_ptr = ops.A_ptr + b_offset % (ops.A.memory.size() - ops.B.memory.size() + 1);
        ops.aliased = true;
    }
    if (alias == ContiguousAlias::IpivInInfo) {
        if (ops.ipiv.memory.size() <= ops.info.memory.size())
            ops.ipiv_ptr = ops.info_ptr;
        else
            ops.info_ptr = ops.ipiv_ptr;
        ops.aliased = true;
    }
    if (!c.A_given) ops.A_ptr = nullptr;
    if (!c.B_given) ops.B_ptr = nullptr;
    if (!c.ipiv_given) ops.ipiv_ptr = nullptr;
    if (!c.info_given) ops.info_ptr = nullptr;
    ops.A.keep();
    ops.B.keep();
    ops.ipiv.keep();
    ops.info.keep();
}

} // namespace tdls_fuzz
