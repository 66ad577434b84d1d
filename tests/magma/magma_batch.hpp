// A batch laid out the way a MAGMA program lays it out: one allocation per
// operand, host pointer arrays into it (dA_array[s], dipiv_array[s],
// dB_array[s]), leading dimensions above the order, and every element that
// belongs to no system (the padding rows ldda - n and lddb - n, the gaps
// between systems, the guard entries after the last one) holding a sentinel
// so that a write or a read of one is seen.
#pragma once

#include <tdls/magma.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "capi_support.hpp"

namespace magma_test {

using capi_test::sentinel;

inline constexpr magma_int_t pivot_sentinel = -7777;
inline constexpr magma_int_t info_sentinel = -999;
inline constexpr int gap = 3; // elements between consecutive systems

template <typename E>
bool same_bits(const std::vector<E>& a, const std::vector<E>& b) {
    return capi_test::same_bits(a, b);
}

template <typename T>
struct MagmaBatch {
    int n = 0, nrhs = 0;
    magma_int_t ldda = 0, lddb = 0, batch = 0;
    std::vector<T> A_storage, B_storage;
    std::vector<magma_int_t> ipiv_storage, info; // info: batch entries then two guards
    std::vector<T*> dA_array, dB_array;
    std::vector<magma_int_t*> dipiv_array;

    MagmaBatch(const capi_test::SystemSet<T>& set, int lda_extra, int ldb_extra)
        : n(set.n), nrhs(set.nrhs), ldda(set.n + lda_extra), lddb(set.n + ldb_extra), batch(set.batch()) {
        const std::size_t a_step = std::size_t(ldda) * n + gap, b_step = std::size_t(lddb) * nrhs + gap,
                          p_step = std::size_t(n) + gap;
        A_storage.assign(a_step * batch + 1, sentinel<T>());
        B_storage.assign(b_step * batch + 1, sentinel<T>());
        ipiv_storage.assign(p_step * batch + 1, pivot_sentinel);
        info.assign(std::size_t(batch) + 2, info_sentinel);
        for (magma_int_t s = 0; s < batch; ++s) {
            dA_array.push_back(A_storage.data() + s * a_step);
            dB_array.push_back(B_storage.data() + s * b_step);
            dipiv_array.push_back(ipiv_storage.data() + s * p_step);
            for (int c = 0; c < n; ++c)
                for (int r = 0; r < n; ++r) dA_array[s][r + c * ldda] = set.A[s][std::size_t(c) * n + r];
            for (int c = 0; c < nrhs; ++c)
                for (int r = 0; r < n; ++r) dB_array[s][r + c * lddb] = set.B[s][std::size_t(c) * n + r];
        }
    }

    /// System s's factors, solution and pivots, packed.
    std::vector<T> A(magma_int_t s) const { return packed<T>(dA_array[s], ldda, n, n); }
    std::vector<T> B(magma_int_t s) const { return packed<T>(dB_array[s], lddb, n, nrhs); }
    std::vector<magma_int_t> ipiv(magma_int_t s) const { return {dipiv_array[s], dipiv_array[s] + n}; }

    /// Every element outside the systems still holds its sentinel.
    bool guards_intact() const {
        return outside_intact(A_storage, dA_array, ldda, n, sentinel<T>()) &&
               outside_intact(B_storage, dB_array, lddb, nrhs, sentinel<T>()) &&
               outside_intact(ipiv_storage, dipiv_array, magma_int_t(n), 1, pivot_sentinel) &&
               info[batch] == info_sentinel && info[batch + 1] == info_sentinel;
    }

    /// Everything the library could write (the pointer arrays too, as
    /// offsets into their storage), for bitwise before/after comparisons.
    bool same_memory(const MagmaBatch& other) const {
        return same_bits(A_storage, other.A_storage) && same_bits(B_storage, other.B_storage) &&
               same_bits(ipiv_storage, other.ipiv_storage) && same_bits(info, other.info) &&
               offsets(dA_array, A_storage) == offsets(other.dA_array, other.A_storage) &&
               offsets(dB_array, B_storage) == offsets(other.dB_array, other.B_storage) &&
               offsets(dipiv_array, ipiv_storage) == offsets(other.dipiv_array, other.ipiv_storage);
    }

    /// Copying rebases the pointer arrays onto the copy's own storage.
    MagmaBatch(const MagmaBatch& other)
        : n(other.n), nrhs(other.nrhs), ldda(other.ldda), lddb(other.lddb), batch(other.batch),
          A_storage(other.A_storage), B_storage(other.B_storage), ipiv_storage(other.ipiv_storage),
          info(other.info) {
        for (magma_int_t s = 0; s < batch; ++s) {
            dA_array.push_back(A_storage.data() + (other.dA_array[s] - other.A_storage.data()));
            dB_array.push_back(B_storage.data() + (other.dB_array[s] - other.B_storage.data()));
            dipiv_array.push_back(ipiv_storage.data() + (other.dipiv_array[s] - other.ipiv_storage.data()));
        }
    }
    MagmaBatch& operator=(const MagmaBatch&) = delete;

  private:
    template <typename E>
    static std::vector<E> packed(const E* base, magma_int_t ld, int rows, int cols) {
        std::vector<E> out(std::size_t(rows) * cols);
        for (int c = 0; c < cols; ++c)
            for (int r = 0; r < rows; ++r) out[std::size_t(c) * rows + r] = base[r + c * ld];
        return out;
    }
    template <typename E>
    static std::vector<std::ptrdiff_t> offsets(const std::vector<E*>& pointers,
                                               const std::vector<E>& storage) {
        std::vector<std::ptrdiff_t> out;
        for (E* p : pointers) out.push_back(p == nullptr ? -1 : p - storage.data());
        return out;
    }
    /// Storage with every system's rows x cols (leading dimension ld) reset
    /// to the sentinel equals a storage of sentinels only.
    template <typename E>
    bool outside_intact(const std::vector<E>& storage, const std::vector<E*>& pointers, magma_int_t ld,
                        int cols, E guard) const {
        std::vector<E> copy = storage;
        for (E* p : pointers)
            for (int c = 0; c < cols; ++c)
                for (int r = 0; r < n; ++r) copy[std::size_t(p - storage.data()) + r + c * ld] = guard;
        return same_bits(copy, std::vector<E>(copy.size(), guard));
    }
};

} // namespace magma_test
