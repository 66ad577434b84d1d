// libtdls: a step a launcher must have taken once on each device before its
// kernel runs there (raising the kernel's dynamic shared-memory limit), taken
// by the first call that needs it and never again. Plain host code, so that
// the policy is tested on machines without a GPU (tests/test_gpu_driver.cpp).
//
// Why once, and to the device's opt-in maximum rather than to each call's
// size: the limit belongs to the kernel on the device, not to a launch. Set
// per call to that call's size, two host threads launching the same kernel
// with different sizes could lower it under each other between the attribute
// and the launch (a spurious launch failure). Set once to the maximum, no
// later call ever changes it, and calls that find it done pay an atomic load.
#pragma once

#include <atomic>
#include <mutex>

namespace tdls::kernels::gpu {

class OncePerDevice {
  public:
    /// Devices tracked; a larger ordinal takes the step on every call
    /// (correct, only slower).
    static constexpr int tracked_devices = 64;

    /// Runs `step()` (returning true on success) unless it succeeded before
    /// on `device`; returns whether the step is done. A failed step is not
    /// remembered: the next call tries again. Thread-safe: concurrent first
    /// calls run the step once.
    template <typename Step>
    bool ensure(int device, Step&& step) {
        if (device < 0 || device >= tracked_devices) return step();
        std::atomic<bool>& done = done_[device];
        if (done.load(std::memory_order_acquire)) return true;
        const std::lock_guard<std::mutex> lock(mutex_);
        if (done.load(std::memory_order_relaxed)) return true;
        if (!step()) return false;
        done.store(true, std::memory_order_release);
        return true;
    }

    /// Whether the step succeeded on `device` (for the tests).
    bool done(int device) const {
        return device >= 0 && device < tracked_devices && done_[device].load(std::memory_order_acquire);
    }

  private:
    std::mutex mutex_;
    std::atomic<bool> done_[tracked_devices] = {};
};

} // namespace tdls::kernels::gpu
