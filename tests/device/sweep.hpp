// The correctness sweep: every case of the plan on both backends, compared
// bit for bit, with the negative controls and the floor on cases run.
#pragma once

#include <cstdint>
#include <string>

#include "context.hpp"
#include "sweep_plan.hpp"

namespace tdls_device {

struct SweepTotals {
    SweepSize size = SweepSize::full;
    std::int64_t cases_defined = 0, cases_run = 0, cases_failed = 0;
    std::int64_t cases_refused = 0; // refused by design, as the plan predicts (passed)
    std::int64_t systems = 0;
    std::int64_t explicit_calls = 0, default_calls = 0;
    std::int64_t solutions_checked = 0;
    double worst_ratio = 0;
    int controls_expected = 0; // negative_control_count per type of the sweep's cases
    int controls_run = 0, controls_detected = 0;
    FailureLog failures;
    double seconds = 0;

    bool passed() const;
    /// One line: counts, worst backward error, controls, verdict.
    std::string summary() const;
};

SweepTotals run_sweep(const Context& context, SweepSize size);

} // namespace tdls_device
