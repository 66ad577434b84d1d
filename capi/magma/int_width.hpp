// magma_int_t against libtdls's int32 pivots and verdicts. libtdls_magma
// (magma_int_t = int) hands the caller's arrays through; libtdls_magma64
// (long long) gives libtdls int32 scratch: outputs widened into the caller's
// arrays only once the call succeeded, so a failed call writes nothing, and
// input pivots narrowed before the call.
#pragma once

#include <tdls/magma.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <new>
#include <type_traits>
#include <vector>

namespace tdls::magma {

inline constexpr bool ints_pass_through = std::is_same_v<magma_int_t, std::int32_t>;

/// n * batch pivots in checked arithmetic: a wrapped product would size
/// scratch below what the call writes.
inline std::size_t pivot_count(magma_int_t n, magma_int_t batch) {
    std::size_t count = 0;
    if (__builtin_mul_overflow(std::size_t(n), std::size_t(batch), &count)) throw std::bad_alloc();
    return count;
}

/// Pivots (ipiv may be NULL) and verdicts a call writes. The caller's pivot
/// arrays are read once, at construction: the call may overwrite them (kept
/// inside a B, which the contract forbids), and widening would then follow
/// garbage addresses.
class OutputInts {
  public:
    OutputInts(magma_int_t n, magma_int_t batch, magma_int_t* const* ipiv, magma_int_t* info)
        : n_(n), batch_(batch), ipiv_(ipiv), info_(info) {
        if constexpr (!ints_pass_through) {
            verdicts_.resize(std::size_t(batch));
            if (ipiv != nullptr) {
                scratch_.resize(pivot_count(n, batch));
                destinations_.assign(ipiv, ipiv + batch);
                for (std::size_t s = 0; s < std::size_t(batch); ++s)
                    arrays_.push_back(scratch_.data() + s * std::size_t(n));
            }
        }
    }

    std::int32_t* const* pivots() const {
        if constexpr (ints_pass_through) return reinterpret_cast<std::int32_t* const*>(ipiv_);
        return ipiv_ != nullptr ? arrays_.data() : nullptr;
    }
    std::int32_t* verdicts() {
        if constexpr (ints_pass_through) return reinterpret_cast<std::int32_t*>(info_);
        return verdicts_.data();
    }

    /// After a successful call: the results into the caller's arrays.
    void commit() const {
        if constexpr (!ints_pass_through) {
            for (std::size_t s = 0; s < std::size_t(batch_); ++s) {
                info_[s] = verdicts_[s];
                if (ipiv_ != nullptr)
                    for (std::size_t i = 0; i < std::size_t(n_); ++i) destinations_[s][i] = arrays_[s][i];
            }
        }
    }

  private:
    magma_int_t n_, batch_;
    magma_int_t* const* ipiv_;
    magma_int_t* info_;
    std::vector<std::int32_t> scratch_, verdicts_;
    std::vector<std::int32_t*> arrays_;
    std::vector<magma_int_t*> destinations_;
};

/// Pivots a call reads (getrs). A 64-bit value outside int32 becomes 0,
/// which libtdls refuses as outside 1..n like any other bad pivot.
class InputPivots {
  public:
    InputPivots(magma_int_t n, magma_int_t batch, magma_int_t* const* ipiv) : ipiv_(ipiv) {
        if constexpr (!ints_pass_through) {
            scratch_.resize(pivot_count(n, batch));
            for (std::size_t s = 0; s < std::size_t(batch); ++s) {
                const magma_int_t* from = ipiv[s];
                std::int32_t* to = scratch_.data() + s * std::size_t(n);
                for (std::size_t i = 0; i < std::size_t(n); ++i)
                    to[i] = from[i] >= 1 && from[i] <= std::numeric_limits<std::int32_t>::max()
                                ? std::int32_t(from[i])
                                : 0;
                arrays_.push_back(to);
            }
        }
    }

    const std::int32_t* const* pivots() const {
        if constexpr (ints_pass_through) return reinterpret_cast<const std::int32_t* const*>(ipiv_);
        return arrays_.data();
    }

  private:
    magma_int_t* const* ipiv_;
    std::vector<std::int32_t> scratch_;
    std::vector<const std::int32_t*> arrays_;
};

} // namespace tdls::magma
