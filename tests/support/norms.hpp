// Test support: normwise backward error, LAPACK's test ratio. The loop itself
// lives in <tdls/check/backward_error.hpp>, shared with bench/.
#pragma once

#include <vector>

#include <tdls/check/backward_error.hpp>

namespace tdls_test {

/// The ratio of tdls::check::backward_error_ratio for A = S (ColMajor) or
/// A = S^T (RowMajor), S packed n x n.
template <typename T>
double backward_error_ratio(const std::vector<T>& S, int n, bool row_major, const std::vector<T>& x,
                            const std::vector<T>& b) {
    return tdls::check::backward_error_ratio(n, S.data(), row_major ? n : 1, row_major ? 1 : n, x.data(), 1,
                                             b.data(), 1);
}

inline constexpr double backward_error_bound = tdls::check::backward_error_bound;

} // namespace tdls_test
