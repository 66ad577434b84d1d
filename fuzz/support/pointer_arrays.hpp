// libtdls fuzzing: the operands of a pointer-array call (tdls_batched_gesv_ptr
// and the MAGMA shim): one allocation per system and operand, so that ASan
// sees any access past one system's end, and the arrays of pointers to them.
// The harness applies its own aliases and NULL entries between
// allocate_systems() and keep().
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "batch.hpp"
#include "input.hpp"

namespace tdls_fuzz {

/// Pointer arrays of more entries than this are only passed to calls that
/// fail before reading them (validation reads every entry).
inline constexpr std::int64_t array_cap = 4096;

/// Elements of one system's operands.
struct SystemSizes {
    std::int64_t A, B, ipiv;
};

/// T: the element type; P: the pivots' and verdicts' type (int32 in the C
/// ABI, magma_int_t in the shim); Entry: what A's and B's arrays point to
/// (void in the C ABI, T in the shim).
template <typename T, typename P, typename Entry>
struct PointerOperands {
    std::vector<Operand<T>> A, B;
    std::vector<Operand<P>> ipiv;
    Operand<P> info;
    std::vector<Entry*> A_array, B_array;
    std::vector<P*> ipiv_array;
    std::vector<Entry*> A_array_before, B_array_before;
    std::vector<P*> ipiv_array_before;

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

    /// The copies every "nothing changed" check compares with.
    void keep() {
        for (auto& a : A) a.keep();
        for (auto& b : B) b.keep();
        for (auto& p : ipiv) p.keep();
        info.keep();
        A_array_before = A_array;
        B_array_before = B_array;
        ipiv_array_before = ipiv_array;
    }
};

/// `systems` allocations per operand of the given sizes, each system's A
/// then B filled from the input (this order is part of the input layout),
/// pivots and verdicts as garbage the call must overwrite; the arrays have
/// `entries` entries, entry s pointing at allocation s % systems.
template <typename T, typename P, typename Entry>
void allocate_systems(PointerOperands<T, P, Entry>& ops, std::int64_t entries, std::int64_t systems,
                      const SystemSizes& size, Contents mode, Input& in) {
    ContentSource<T> contents(in, mode);
    ops.A.resize(std::size_t(systems));
    ops.B.resize(std::size_t(systems));
    ops.ipiv.resize(std::size_t(systems));
    for (std::size_t s = 0; s < std::size_t(systems); ++s) {
        ops.A[s].allocate(size.A);
        ops.B[s].allocate(size.B);
        ops.ipiv[s].allocate(size.ipiv);
        contents.fill(ops.A[s].memory.data(), ops.A[s].memory.size());
        contents.fill(ops.B[s].memory.data(), ops.B[s].memory.size());
        for (P& v : ops.ipiv[s].memory) v = -7;
    }
    ops.info.allocate(entries);
    for (P& v : ops.info.memory) v = -9;
    for (std::int64_t s = 0; s < entries; ++s) {
        const std::size_t owner = std::size_t(s % systems);
        ops.A_array.push_back(ops.A[owner].memory.data());
        ops.B_array.push_back(ops.B[owner].memory.data());
        ops.ipiv_array.push_back(ops.ipiv[owner].memory.data());
    }
}

/// Entries of the arrays for a call that fails before touching the
/// systems: every entry validation reads when it reads them (the batch,
/// capped, and the batch with it), else a few. I: the batch's type.
template <typename I>
std::int64_t refused_entries(I& batch, bool arrays_read) {
    if (!arrays_read) return std::clamp<std::int64_t>(batch, 0, 16);
    batch = I(std::min<std::int64_t>(batch, array_cap));
    return batch;
}

} // namespace tdls_fuzz
