// Test support: a group of real std::threads that call a solver together.
//
// The threads persist across runs (creating up to 32 threads per solver call
// would dominate the test time) and are released by a std::barrier. Each
// thread then spends a random number of yields before its call, so that the
// threads of a group do not enter the solver in lockstep, the condition the
// solver's barrier protocol must survive.
#pragma once

#include <barrier>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <thread>
#include <vector>

namespace tdls_test {

class ThreadGroup {
  public:
    explicit ThreadGroup(int size) : size_(size), start_(size + 1), done_(size + 1) {
        for (int tx = 0; tx < size_; ++tx) workers_.emplace_back([this, tx] { work(tx); });
    }
    ~ThreadGroup() {
        stop_ = true;
        start_.arrive_and_wait();
        for (auto& w : workers_) w.join();
    }
    ThreadGroup(const ThreadGroup&) = delete;
    ThreadGroup& operator=(const ThreadGroup&) = delete;

    int size() const { return size_; }

    /// Thread tx of the group calls fn(tx); returns once every thread is done.
    void run(const std::function<void(int)>& fn) {
        job_ = &fn;
        start_.arrive_and_wait();
        done_.arrive_and_wait();
        job_ = nullptr;
    }

  private:
    void work(int tx) {
        std::minstd_rand jitter(1234u + unsigned(tx));
        for (;;) {
            start_.arrive_and_wait();
            if (stop_) return;
            for (unsigned spins = jitter() % 4; spins > 0; --spins) std::this_thread::yield();
            (*job_)(tx);
            done_.arrive_and_wait();
        }
    }

    int size_;
    std::barrier<> start_;
    std::barrier<> done_;
    const std::function<void(int)>* job_ = nullptr;
    bool stop_ = false;
    std::vector<std::thread> workers_;
};

/// One persistent group per size, shared by the tests of a binary.
inline ThreadGroup& group_of(int size) {
    static std::map<int, std::unique_ptr<ThreadGroup>> groups;
    auto& g = groups[size];
    if (!g) g = std::make_unique<ThreadGroup>(size);
    return *g;
}

/// A caller-provided barrier for a group of CPU threads.
class UserBarrier {
  public:
    explicit UserBarrier(int size) : barrier_(size) {}
    auto callable() {
        return [this] { barrier_.arrive_and_wait(); };
    }

  private:
    std::barrier<> barrier_;
};

} // namespace tdls_test
