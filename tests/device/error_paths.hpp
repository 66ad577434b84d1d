// The error paths on the device: a refused call must return its status with
// a message and leave every operand, on the device or the host, exactly as
// it was; the quick returns must do what capi.md says and nothing more.
#pragma once

#include <string>
#include <vector>

#include "context.hpp"

namespace tdls_device {

struct ErrorPathTotals {
    int run = 0;
    int passed = 0;
    FailureLog failures;

    bool all_passed() const { return run > 0 && passed == run && failures.count == 0; }
    std::string summary() const;
};

ErrorPathTotals run_error_paths(const Context& context);

} // namespace tdls_device
