// libtdls: the verdict a factorization returns.
#pragma once

#include <tdls/core/macros.hpp>

namespace tdls {

/// Outcome of a factorization, identical in every thread of the group. It
/// converts implicitly to bool (true: nonsingular), which is what upstream
/// TDLS's entry points return, so that `bool ok = Solver::solve(...)` and
/// `ok[tx] = ...` compile; info is libtdls's extension.
struct Verdict {
    /// LAPACK's info: 0 when every pivot is at or above the singular floor,
    /// otherwise k > 0 where column k (1-based) is the first singular one. The
    /// factorization runs to the end either way.
    int info = 0;

    TDLS_HOST_DEVICE constexpr bool nonsingular() const noexcept { return info == 0; }
    TDLS_HOST_DEVICE constexpr operator bool() const noexcept {
        return info == 0;
    } // NOLINT: implicit by design
    friend constexpr bool operator==(const Verdict&, const Verdict&) = default;
};

} // namespace tdls
