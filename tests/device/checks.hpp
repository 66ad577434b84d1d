// The checks of one case that do not lean on the CPU backend: LAPACK's
// backward error of every solution, the singular systems' verdicts and
// untouched right-hand sides, and pivots in range.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include <tdls/check/backward_error.hpp>

#include "geometry.hpp"
#include "parallel.hpp"

namespace tdls_device {

struct BackwardErrors {
    double worst = 0;         // largest ratio seen
    std::int64_t checked = 0; // solutions (system, column) checked
    std::int64_t failed = 0;  // ratios above the bound, NaN included
    std::int64_t first_failed = -1;
    double first_ratio = 0;
};

/// The ratio of every column of every system marked in `checked_systems`,
/// x read from `solution` and A, b from the case's original images.
template <typename T>
BackwardErrors backward_errors(const Case& c, const Geometry& g, const std::vector<T>& original_a,
                               const std::vector<T>& original_b, const std::vector<T>& solution,
                               const std::vector<std::uint8_t>& checked_systems) {
    BackwardErrors result;
    std::mutex merge;
    parallel_for(c.batch, 16, [&](std::int64_t begin, std::int64_t end) {
        BackwardErrors local;
        for (std::int64_t s = begin; s < end; ++s) {
            if (!checked_systems[std::size_t(s)]) continue;
            for (std::int64_t k = 0; k < g.b.cols; ++k) {
                const std::int64_t at = g.b.at(s, 0, k);
                const double ratio = tdls::check::backward_error_ratio<T>(
                    int(c.n), original_a.data() + g.a.at(s, 0, 0), g.a.row_stride, g.a.col_stride,
                    solution.data() + at, g.b.row_stride, original_b.data() + at, g.b.row_stride);
                ++local.checked;
                local.worst = std::max(local.worst, ratio);
                if (!(ratio <= tdls::check::backward_error_bound)) {
                    if (local.failed++ == 0) {
                        local.first_failed = s;
                        local.first_ratio = ratio;
                    }
                }
            }
        }
        const std::lock_guard<std::mutex> lock(merge);
        result.worst = std::max(result.worst, local.worst);
        result.checked += local.checked;
        if (local.failed > 0 && (result.failed == 0 || local.first_failed < result.first_failed)) {
            result.first_failed = local.first_failed;
            result.first_ratio = local.first_ratio;
        }
        result.failed += local.failed;
    });
    return result;
}

/// "" when info[s] > 0 exactly for the systems made singular (and at most
/// n), else the first system that breaks it.
inline std::string check_verdicts(const Case& c, const Geometry& g, const std::vector<std::int32_t>& info) {
    for (std::int64_t s = 0; s < c.batch; ++s) {
        const std::int32_t verdict = info[std::size_t(g.info.at(s, 0, 0))];
        const bool ok = made_singular(s) ? verdict > 0 && verdict <= c.n : verdict == 0;
        if (!ok)
            return "info[" + std::to_string(s) + "] = " + std::to_string(verdict) + ", expected " +
                   (made_singular(s) ? "1.." + std::to_string(c.n) + " (zero column " +
                                           std::to_string(zero_column(s, c.n) + 1) + ")"
                                     : std::string("0"));
    }
    return "";
}

/// "" when every pivot is LAPACK-shaped: ipiv[i] in i+1..n (1-based).
inline std::string check_pivot_range(const Case& c, const Geometry& g,
                                     const std::vector<std::int32_t>& ipiv) {
    for (std::int64_t s = 0; s < c.batch; ++s)
        for (std::int64_t i = 0; i < c.n; ++i) {
            const std::int32_t p = ipiv[std::size_t(g.ipiv.at(s, i, 0))];
            if (p < i + 1 || p > c.n)
                return "ipiv of system " + std::to_string(s) + " row " + std::to_string(i) + " = " +
                       std::to_string(p) + ", outside " + std::to_string(i + 1) + ".." + std::to_string(c.n);
        }
    return "";
}

} // namespace tdls_device
