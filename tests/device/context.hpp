// What every part of the suite shares: the two backends' handles and the
// user streams given to the CUDA handle.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <tdls/tdls.h>

#include "common/plan.hpp"

namespace tdls_device {

struct Context {
    tdls_handle_t cpu = nullptr;  // TDLS_BACKEND_CPU: the reference run on host copies
    tdls_handle_t cuda = nullptr; // TDLS_BACKEND_CUDA, device 0, given the streams below in turn
    cudaStream_t streams[2] = {nullptr, nullptr}; // non-blocking user streams
    tdls::runtime::DeviceProperties device{};     // device 0 as the plugin's plan sees it
};

/// Failures of a part of the suite: all are counted, the first few kept for
/// the report.
struct FailureLog {
    static constexpr std::size_t kept = 40;
    std::vector<std::string> lines;
    std::int64_t count = 0;

    void add(std::string line) {
        if (lines.size() < kept) lines.push_back(std::move(line));
        ++count;
    }
};

/// The calling thread's last tdls error message, quoted, or a note that it is empty.
inline std::string last_error_text() {
    const char* message = tdls_last_error();
    return message != nullptr && *message != '\0' ? std::string("\"") + message + "\"" : "(empty message)";
}

} // namespace tdls_device
