// Test support: `count` threads that each run body(t), released at the same
// moment once all of them exist, so that their first calls into the library
// really race (the point of the first-use and plugin-loader tests).
#pragma once

#include <atomic>
#include <thread>
#include <vector>

namespace tdls_test {

template <typename Body>
void run_released_together(int count, Body body) {
    std::atomic<int> ready{0};
    std::atomic<bool> go{false};
    std::vector<std::thread> threads;
    for (int t = 0; t < count; ++t)
        threads.emplace_back([&, t] {
            ++ready;
            while (!go.load(std::memory_order_acquire)) std::this_thread::yield();
            body(t);
        });
    while (ready.load() < count) std::this_thread::yield();
    go.store(true, std::memory_order_release);
    for (std::thread& thread : threads) thread.join();
}

} // namespace tdls_test
