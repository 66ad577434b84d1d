// The benchmark's answer check: the largest backward error ratio of a solved
// batch (tdls::check::backward_error_ratio, shared with the tests) and the
// number of nonzero info verdicts. These systems are all nonsingular, so any
// nonzero info, NaN or ratio above LAPACK's bound of 30 fails the run.
#pragma once

#include <algorithm>
#include <cmath>

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_reduce.h>
#include <tdls/check/backward_error.hpp>

#include "batch.hpp"
#include "solver.hpp"

namespace bench {

/// Checks work_B (X) against the pristine A and B; info as the solver left it
/// (info_valid false for solvers that report no per-system verdicts here).
template <typename T>
CheckResult check_batch(const HostBatch<T>& batch, bool info_valid = true) {
    const Storage& st = batch.storage;
    CheckResult result;
    result.checked = true;
    result.max_ratio = oneapi::tbb::parallel_reduce(
        oneapi::tbb::blocked_range<std::int64_t>(0, st.count, 1024), 0.0,
        [&](const oneapi::tbb::blocked_range<std::int64_t>& range, double worst) {
            for (std::int64_t s = range.begin(); s != range.end(); ++s)
                for (int k = 0; k < st.nrhs; ++k) {
                    const double ratio = tdls::check::backward_error_ratio(
                        st.n, batch.A.data() + st.a_offset(s), st.a_row_stride(), st.a_col_stride(),
                        batch.work_B.data() + st.b_offset(s, k), st.b_row_stride(),
                        batch.B.data() + st.b_offset(s, k), st.b_row_stride());
                    // A NaN must win the max, whatever order std::max sees it in.
                    worst = std::isnan(ratio) ? INFINITY : std::max(worst, ratio);
                }
            return worst;
        },
        [](double a, double b) { return std::max(a, b); });
    if (info_valid)
        result.nonzero_info =
            std::count_if(batch.info.begin(), batch.info.end(), [](int v) { return v != 0; });
    return result;
}

/// The negative control: one solution element of the middle system moves by
/// a few percent of the solution's size, far beyond any rounding.
template <typename T>
void perturb_batch(HostBatch<T>& batch) {
    const Storage& st = batch.storage;
    T* x = batch.work_B.data() + st.b_offset(st.count / 2, 0);
    x[0] = x[0] + T(tdls::real_type_t<T>(0.05) * (tdls::real_type_t<T>(tdls::magnitude(x[0])) + 1));
}

} // namespace bench
