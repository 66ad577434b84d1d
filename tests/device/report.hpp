// The markdown section --out appends: the device, the run and its results.
#pragma once

#include <string>
#include <vector>

namespace tdls_device {

/// "NVIDIA H200 (compute capability 9.0, 132 SMs, 139.8 GiB), driver CUDA 13.0,
/// runtime CUDA 13.0", or what could be learnt when there is no device.
std::string device_description();

struct Report {
    std::string command_line;
    std::string verdict;               // "PASS", "FAIL" or "NOT RUN (...)"
    std::vector<std::string> summary;  // one line per part
    std::vector<std::string> failures; // the first few
    std::string bench_table;           // markdown, or ""
};

/// Appends the section to `path`; false (with a message on stderr) if the
/// file cannot be written.
bool append_report(const std::string& path, const Report& report);

} // namespace tdls_device
