// libtdls: statuses, the exception that carries a failed call's status and
// message up to the C ABI, and the thread-local message of the last failure.
#pragma once

#include <exception>
#include <sstream>
#include <string>

#include <tdls/tdls.h>

namespace tdls::runtime {

/// A call that cannot proceed: thrown below the C ABI, turned into its status
/// (and tdls_last_error's message) by the extern "C" shell.
class Error : public std::exception {
  public:
    Error(tdls_status_t status, std::string message) : status_(status), message_(std::move(message)) {}
    tdls_status_t status() const noexcept { return status_; }
    const char* what() const noexcept override { return message_.c_str(); }

  private:
    tdls_status_t status_;
    std::string message_;
};

/// Throws Error(status, "function: " + the parts streamed one after another).
template <typename... Parts>
[[noreturn]] void fail(tdls_status_t status, const char* function, const Parts&... parts) {
    std::ostringstream message;
    message << function << ": ";
    (message << ... << parts);
    throw Error(status, message.str());
}

const char* status_name(tdls_status_t status) noexcept;
const char* status_string(tdls_status_t status) noexcept;

void set_last_error(const std::string& message) noexcept;
const char* last_error() noexcept;

/// Inside a catch block of an extern "C" shell: the status of the exception
/// in flight, its message recorded for tdls_last_error.
tdls_status_t status_of_current_exception(const char* function) noexcept;

} // namespace tdls::runtime
