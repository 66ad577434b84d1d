// libtdls: the CPU threads of a handle (tdls_set_num_threads): a oneTBB arena
// limited to that many threads, kept with the handle so that its workers stay
// warm between calls.
#pragma once

#include <functional>
#include <memory>

namespace tdls::runtime::cpu {

class Arena {
  public:
    explicit Arena(int threads);
    ~Arena();
    Arena(const Arena&) = delete;
    Arena& operator=(const Arena&) = delete;

    int threads() const noexcept { return threads_; }
    /// Runs work inside the arena: its parallel loops use at most threads() threads.
    void execute(const std::function<void()>& work);

  private:
    struct Impl;
    int threads_;
    std::unique_ptr<Impl> impl_;
};

} // namespace tdls::runtime::cpu
