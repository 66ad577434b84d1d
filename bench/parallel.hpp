// How a peer's per-system loop uses T threads: T = 1 is a plain loop on the
// calling thread; T > 1 is tbb::parallel_for over the systems with a static
// partitioner inside a task_arena(T), as in ../shared/peers.
#pragma once

#include <cstdint>
#include <map>
#include <memory>

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/partitioner.h>
#include <oneapi/tbb/task_arena.h>

namespace bench {

/// The arena of `threads` threads, created and initialized once, outside any
/// timed region.
inline oneapi::tbb::task_arena& arena_of(int threads) {
    static std::map<int, std::unique_ptr<oneapi::tbb::task_arena>> arenas;
    auto& arena = arenas[threads];
    if (!arena) {
        arena = std::make_unique<oneapi::tbb::task_arena>(threads);
        arena->initialize();
    }
    return *arena;
}

/// Calls fn(begin, end) over [0, count) split across `threads` threads.
template <typename Fn>
void for_systems(std::int64_t count, int threads, Fn&& fn) {
    if (threads <= 1) {
        fn(std::int64_t(0), count);
        return;
    }
    arena_of(threads).execute([&] {
        oneapi::tbb::parallel_for(
            oneapi::tbb::blocked_range<std::int64_t>(0, count),
            [&](const oneapi::tbb::blocked_range<std::int64_t>& range) { fn(range.begin(), range.end()); },
            oneapi::tbb::static_partitioner());
    });
}

} // namespace bench
