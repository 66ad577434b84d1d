// A plain std::thread parallel loop for the host-side work of the suite
// (input generation, backward errors): the machine that runs it has only the
// CUDA image, so no oneTBB or OpenMP.
#pragma once

#include <algorithm>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace tdls_device {

/// Calls body(begin, end) on disjoint ranges covering [0, count), on up to
/// every hardware thread; small counts run inline. The first exception of a
/// worker is rethrown here.
template <typename Body>
void parallel_for(std::int64_t count, std::int64_t min_per_thread, Body body) {
    const std::int64_t hardware = std::max(1u, std::thread::hardware_concurrency());
    const std::int64_t threads =
        std::clamp<std::int64_t>(count / std::max<std::int64_t>(1, min_per_thread), 1, hardware);
    if (threads == 1) {
        if (count > 0) body(std::int64_t(0), count);
        return;
    }
    std::exception_ptr failure;
    std::mutex failure_mutex;
    std::vector<std::thread> workers;
    workers.reserve(std::size_t(threads));
    for (std::int64_t t = 0; t < threads; ++t) {
        const std::int64_t begin = count * t / threads, end = count * (t + 1) / threads;
        workers.emplace_back([&, begin, end] {
            try {
                body(begin, end);
            } catch (...) {
                const std::lock_guard<std::mutex> lock(failure_mutex);
                if (!failure) failure = std::current_exception();
            }
        });
    }
    for (std::thread& worker : workers) worker.join();
    if (failure) std::rethrow_exception(failure);
}

} // namespace tdls_device
