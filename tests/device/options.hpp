// The command line of tdls_device_suite.
#pragma once

#include <optional>
#include <string>

#include "sweep_plan.hpp"

namespace tdls_device {

inline constexpr const char* usage =
    "usage: tdls_device_suite [--quick] [--small] [--bench] [--out FILE]\n"
    "  (default)   the full correctness sweep, negative controls and error paths\n"
    "  --quick     a shorter sweep (n = 1..17, 32, 33, 64, 100, 128)\n"
    "  --small     a few cases only, for compute-sanitizer\n"
    "  --bench     the benchmark against cuBLAS; alone, it replaces the sweep;\n"
    "              with --quick or --small, that sweep runs first\n"
    "  --out FILE  append a markdown section with the device and the results\n"
    "  --model     print the performance model's table for the H200 (docs/gpu.md) and exit; no GPU needed\n"
    "exit status: 0 all checks passed, 1 a check failed, 2 no usable GPU or CUDA backend, 3 bad command "
    "line\n";

struct Options {
    bool sweep = true;
    SweepSize sweep_size = SweepSize::full;
    bool bench = false;
    bool help = false;
    bool model = false;       // print the model table only
    std::string out;          // "" : no report file
    std::string command_line; // as typed, for the report
};

/// The options, or nothing with `error` set.
std::optional<Options> parse_options(int argc, char** argv, std::string& error);

} // namespace tdls_device
