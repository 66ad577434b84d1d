// The correctness sweep (see sweep.hpp).
#include "sweep.hpp"

#include <algorithm>
#include <chrono>
#include <complex>
#include <cstdio>
#include <string>
#include <vector>

#include "case_run.hpp"
#include "random.hpp"

namespace tdls_device {

namespace {

/// The case that hosts a type's negative controls: its first gesv with a
/// right-hand side, a few rows and a singular system (system 6).
bool hosts_controls(const Case& c) {
    return c.operation == Operation::gesv && c.nrhs > 0 && c.n >= 4 && c.batch >= 7;
}

/// run_case in the C++ type of the case's dtype.
CaseOutcome run_case_of_type(const Context& context, const Case& c, std::uint64_t seed, Way way,
                             cudaStream_t stream, bool with_controls, FailureLog& log) {
    switch (c.dtype) {
    case TDLS_FLOAT32:
        return run_case<float>(context, c, seed, way, stream, with_controls, log);
    case TDLS_FLOAT64:
        return run_case<double>(context, c, seed, way, stream, with_controls, log);
    case TDLS_COMPLEX64:
        return run_case<std::complex<float>>(context, c, seed, way, stream, with_controls, log);
    case TDLS_COMPLEX128:
        return run_case<std::complex<double>>(context, c, seed, way, stream, with_controls, log);
    }
    log.add(describe(c) + ": no C++ type for dtype " + std::to_string(int(c.dtype)));
    CaseOutcome failed;
    failed.passed = false;
    return failed;
}

} // namespace

bool SweepTotals::passed() const {
    return cases_failed == 0 && failures.count == 0 && cases_run == cases_defined && cases_defined > 0 &&
           controls_expected > 0 && controls_run == controls_expected && controls_detected == controls_run;
}

std::string SweepTotals::summary() const {
    char line[512];
    std::snprintf(
        line, sizeof line,
        "sweep %s: %lld/%lld cases run, %lld failed, %lld refused by design as predicted; %lld systems (%lld calls on the CUDA handle with "
        "a user stream, %lld on the NULL handle); %lld solutions checked, worst backward error ratio "
        "%.3g (bound %.0f); negative controls %d/%d detected (%d expected); %.1f s; %s",
        name(size), (long long)cases_run, (long long)cases_defined, (long long)cases_failed, (long long)cases_refused,
        (long long)systems, (long long)explicit_calls, (long long)default_calls, (long long)solutions_checked,
        worst_ratio, tdls::check::backward_error_bound, controls_detected, controls_run, controls_expected, seconds,
        passed() ? "PASS" : "FAIL");
    return line;
}

SweepTotals run_sweep(const Context& context, SweepSize size) {
    const auto start = std::chrono::steady_clock::now();
    auto elapsed = [&] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    SweepTotals totals;
    totals.size = size;
    totals.cases_defined = expected_case_count(size);
    const std::vector<Case> cases = sweep_cases(size);
    std::printf("sweep %s starts, %zu cases (the plan defines %lld)\n", name(size), cases.size(),
                (long long)totals.cases_defined);
    std::fflush(stdout);

    // Each type's checks are compiled apart (complex compares both parts):
    // each type hosts the controls once.
    std::vector<tdls_dtype_t> types, controls_done;
    for (const Case& c : cases)
        if (std::find(types.begin(), types.end(), c.dtype) == types.end()) types.push_back(c.dtype);
    totals.controls_expected = negative_control_count * int(types.size());
    const auto done = [&](tdls_dtype_t t) {
        return std::find(controls_done.begin(), controls_done.end(), t) != controls_done.end();
    };
    for (std::size_t index = 0; index < cases.size(); ++index) {
        const Case& c = cases[index];
        const Way way = index % 2 == 0 ? Way::explicit_handle : Way::default_context;
        const cudaStream_t stream = context.streams[totals.explicit_calls % 2];
        const bool with_controls = !done(c.dtype) && hosts_controls(c);
        CaseOutcome outcome;
        try {
            const std::uint64_t seed = mix(0x7D15ull + index);
            outcome = run_case_of_type(context, c, seed, way, stream, with_controls, totals.failures);
        } catch (const CudaFailure& failure) {
            // A CUDA error may be sticky (the context is lost): stop here;
            // the floor on cases run fails the sweep.
            totals.failures.add(describe(c) + ": CUDA runtime failure: " + failure.what());
            ++totals.cases_failed;
            break;
        }
        ++totals.cases_run;
        totals.systems += c.batch;
        (way == Way::explicit_handle ? totals.explicit_calls : totals.default_calls) += 1;
        totals.solutions_checked += outcome.backward.checked;
        totals.worst_ratio = std::max(totals.worst_ratio, outcome.backward.worst);
        if (!outcome.passed) ++totals.cases_failed;
        if (outcome.refused) ++totals.cases_refused;
        if (with_controls) {
            controls_done.push_back(c.dtype);
            totals.controls_run += outcome.controls.run;
            totals.controls_detected += outcome.controls.detected;
            for (const std::string& missed : outcome.controls.missed)
                totals.failures.add("negative control not detected: " + missed);
        }
        const bool group_ends = index + 1 == cases.size() || cases[index + 1].n != c.n;
        if (group_ends) {
            std::printf("  n=%lld done: %lld cases, %lld failed so far, %.1f s\n", (long long)c.n,
                        (long long)totals.cases_run, (long long)totals.cases_failed, elapsed());
            std::fflush(stdout);
        }
    }
    for (tdls_dtype_t t : types)
        if (!done(t))
            totals.failures.add("negative controls of dtype " + std::to_string(int(t)) +
                                " did not run: no case could host them");
    totals.seconds = elapsed();
    return totals;
}

} // namespace tdls_device
