// libtdls: the CPU threads of a handle (tdls_set_num_threads), kept with the
// handle so that its workers stay warm between calls, and the fork-join loop
// that runs a call's tiles on them. Two executors implement both:
//  - executor_tbb.cpp: oneTBB (a task_arena limited to the handle's threads,
//    parallel_for); the library's executor;
//  - executor_threads.cpp: plain std::threads, fork-join, the same chunks;
//    only for the ThreadSanitizer build, because Debian's libtbb is not
//    instrumented and its synchronisation is invisible to TSan (every
//    parallel_for would be reported as a race).
#pragma once

#include <cstdint>
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

    struct Impl; // the executor's state
    Impl& impl() const noexcept { return *impl_; }

  private:
    int threads_;
    std::unique_ptr<Impl> impl_;
};

/// Calls body(first, last) over [0, tiles) in chunks of about `grain` tiles,
/// on the arena's threads (all of the machine's when arena is null), and
/// returns when every chunk is done: what the caller wrote before is visible
/// to every chunk, and what the chunks wrote is visible to the caller after.
void parallel_tiles(std::int64_t tiles, std::int64_t grain, Arena* arena,
                    const std::function<void(std::int64_t first, std::int64_t last)>& body);

} // namespace tdls::runtime::cpu
