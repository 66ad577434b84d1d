// What the error-path checks share: a small batch on the host and the
// device, and the checker that counts and reports each expectation.
#pragma once

#include <cstdio>
#include <functional>
#include <string>

#include "compare.hpp"
#include "cuda_support.hpp"
#include "error_paths.hpp"
#include "images.hpp"
#include "tdls_calls.hpp"

namespace tdls_device {

/// A small double column-major packed batch, on the host and on the device.
struct Fixture {
    Case c;
    Geometry g;
    Images<double> host;
    DeviceMemory a, ipiv, b, info;

    Fixture() {
        c.operation = Operation::gesv;
        c.n = 4;
        c.nrhs = 2;
        c.batch = 9; // system 6 singular
        g = make_geometry(c);
        host = make_input<double>(c, g, 0xE770ull);
        a = to_device(host.a);
        ipiv = to_device(host.ipiv);
        b = to_device(host.b);
        info = to_device(host.info);
    }
    double* dev_a() const { return a.as<double>() + g.a.origin; }
    std::int32_t* dev_ipiv() const { return ipiv.as<std::int32_t>() + g.ipiv.origin; }
    double* dev_b() const { return b.as<double>() + g.b.origin; }
    std::int32_t* dev_info() const { return info.as<std::int32_t>() + g.info.origin; }
    double* host_a() { return host.a.data() + g.a.origin; }
    std::int32_t* host_ipiv() { return host.ipiv.data() + g.ipiv.origin; }
    double* host_b() { return host.b.data() + g.b.origin; }
    std::int32_t* host_info() { return host.info.data() + g.info.origin; }

    /// "" when every device buffer still holds the input, else which does not.
    std::string device_unchanged() const {
        TDLS_DEVICE_CUDA(cudaDeviceSynchronize());
        std::string why;
        auto check = [&](const char* name, const auto& expected, const DeviceMemory& memory,
                         const OperandMap& map) {
            using E = typename std::decay_t<decltype(expected)>::value_type;
            if (auto m = compare_bits(name, expected, to_host<E>(memory), map.owners()))
                why += explain(*m) + "; ";
        };
        check("device A", host.a, a, g.a);
        check("device ipiv", host.ipiv, ipiv, g.ipiv);
        check("device B", host.b, b, g.b);
        check("device info", host.info, info, g.info);
        return why;
    }
};

/// Leaves a known message of a harmless failure behind, so that a refused
/// call that stores no message of its own cannot pass on a stale one.
inline const std::string& forget_last_error() {
    tdls_handle_t none = nullptr;
    if (tdls_create(&none, tdls_backend_t(99), 0) == TDLS_SUCCESS) (void)tdls_destroy(none);
    static const std::string stale = last_error_text();
    return stale;
}

class Checker {
  public:
    explicit Checker(ErrorPathTotals& totals) : totals_(totals) {}

    /// One check: `status` must be `expected`, a failure must leave a
    /// message, and `unchanged` (operands as they were, ...) must say "".
    void expect(const std::string& label, tdls_status_t status, tdls_status_t expected,
                const std::function<std::string()>& unchanged = {}) {
        ++totals_.run;
        std::string why;
        const std::string message = last_error_text();
        if (status != expected)
            why = std::string("returned ") + tdls_status_name(status) + ", expected " +
                  tdls_status_name(expected) + (status != TDLS_SUCCESS ? " (" + message + ")" : "");
        else if (expected != TDLS_SUCCESS && (message == "(empty message)" || message == forget_last_error()))
            why = "the failure stored no message of its own for tdls_last_error()";
        if (why.empty() && unchanged) why = unchanged();
        if (why.empty()) {
            ++totals_.passed;
            std::printf("  ok: %s%s\n", label.c_str(),
                        expected != TDLS_SUCCESS ? (" -> " + message).c_str() : "");
        } else {
            totals_.failures.add("error path: " + label + ": " + why);
            std::printf("  FAILED: %s: %s\n", label.c_str(), why.c_str());
        }
    }

  private:
    ErrorPathTotals& totals_;
};

/// The per-system verdicts found on the device (per_system_errors.cpp).
void check_device_side_verdicts(const Context& context, Checker& checker);

} // namespace tdls_device
