// What tdls-bench asks of every solver it times: start from a fresh copy,
// solve the whole batch once (timed), then be checked.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <utility>

#include <tdls/check/backward_error.hpp>

namespace bench {

/// Outcome of the backward-error check after a solver's last sample.
struct CheckResult {
    double max_ratio = 0; // largest LAPACK backward error ratio over systems and rhs
    std::int64_t nonzero_info = 0;
    bool checked = false;
    bool a_intact = true; // a read-only solver left its A as it was
    /// These systems are all nonsingular: any nonzero info, NaN or ratio
    /// above LAPACK's bound fails, and so does a read-only A that changed.
    bool passed() const {
        return checked && a_intact && nonzero_info == 0 && std::isfinite(max_ratio) &&
               max_ratio <= tdls::check::backward_error_bound;
    }
};

class Solver {
  public:
    virtual ~Solver() = default;
    /// Row label: "tdls", "lapacke", "eigen", "cublas".
    virtual std::string name() const = 0;
    /// Storage it solves, e.g. "strided col" (peers: the column-major strided batch).
    virtual std::string form() const = 0;
    /// False for a solver that ignores the CPU thread count (the GPU).
    virtual bool threaded() const { return true; }
    /// True when it writes the factors back (every peer, tdls gesv); false
    /// for tdls solve, whose A is read-only. Decides the roofline's traffic.
    virtual bool in_place() const { return true; }
    /// Empty when it can run; else why not ("unavailable: ...").
    virtual std::string unavailable() const { return {}; }
    /// Restores the pristine systems into the working buffers; untimed.
    virtual void reset() = 0;
    /// Solves the batch once on `threads` CPU threads; returns seconds, or a
    /// negative value after printing why the call failed.
    virtual double run(int threads) = 0;
    /// Backward error of the working buffers against the pristine systems.
    virtual CheckResult check() = 0;
    /// Negative control: spoils one solution element.
    virtual void perturb() = 0;
};

/// A peer that has no routine of this type (complex in the cuBLAS peer and
/// oneMKL's compact LU): a row that says so instead of a number.
class NotForType final : public Solver {
  public:
    NotForType(std::string name, bool threaded, std::string why)
        : name_(std::move(name)), threaded_(threaded), why_(std::move(why)) {}
    std::string name() const override { return name_; }
    std::string form() const override { return "strided col"; }
    bool threaded() const override { return threaded_; }
    std::string unavailable() const override { return why_; }
    void reset() override {}
    double run(int) override { return -1; }
    CheckResult check() override { return {}; }
    void perturb() override {}

  private:
    std::string name_;
    bool threaded_;
    std::string why_;
};

} // namespace bench
