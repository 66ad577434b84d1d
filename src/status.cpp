// libtdls: status names and sentences, and the thread-local last error.
#include "status.hpp"

#include <new>

namespace tdls::runtime {

namespace {

struct StatusText {
    const char* name;
    const char* sentence;
};

// Indexed by the status value, which capi.md fixes.
constexpr StatusText status_texts[] = {
    {"TDLS_SUCCESS", "The call succeeded."},
    {"TDLS_ERROR_INVALID_HANDLE", "The handle was destroyed or never created."},
    {"TDLS_ERROR_INVALID_VALUE", "An argument is out of range; tdls_last_error() names it."},
    {"TDLS_ERROR_NOT_SUPPORTED",
     "The arguments are valid, but this build or backend does not provide the case."},
    {"TDLS_ERROR_BACKEND_UNAVAILABLE", "The backend has no plugin, no runtime or no device on this machine."},
    {"TDLS_ERROR_ALLOCATION", "Memory could not be allocated."},
    {"TDLS_ERROR_EXECUTION", "A kernel launch or the device failed."},
    {"TDLS_ERROR_INTERNAL", "An internal error occurred in libtdls; please report it."},
};
constexpr int status_count = sizeof(status_texts) / sizeof(status_texts[0]);

bool known(tdls_status_t status) noexcept {
    return int(status) >= 0 && int(status) < status_count;
}

thread_local std::string last_error_message;

} // namespace

const char* status_name(tdls_status_t status) noexcept {
    return known(status) ? status_texts[status].name : "TDLS_UNKNOWN_STATUS";
}

const char* status_string(tdls_status_t status) noexcept {
    return known(status) ? status_texts[status].sentence : "This value is not a tdls_status_t.";
}

void set_last_error(const std::string& message) noexcept {
    try {
        last_error_message = message;
    } catch (...) {
        last_error_message.clear(); // out of memory: an empty detail beats none at all
    }
}

const char* last_error() noexcept {
    return last_error_message.c_str();
}

tdls_status_t status_of_current_exception(const char* function) noexcept {
    try {
        throw;
    } catch (const Error& error) {
        set_last_error(error.what());
        return error.status();
    } catch (const std::bad_alloc&) {
        set_last_error(std::string(function) + ": out of memory");
        return TDLS_ERROR_ALLOCATION;
    } catch (const std::exception& error) {
        set_last_error(std::string(function) + ": internal error: " + error.what());
        return TDLS_ERROR_INTERNAL;
    } catch (...) {
        set_last_error(std::string(function) + ": internal error: unknown exception");
        return TDLS_ERROR_INTERNAL;
    }
}

} // namespace tdls::runtime
