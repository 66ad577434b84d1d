// libtdls: the oneTBB executor of the CPU backend (see arena.hpp).
#include <algorithm>

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/info.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>

#include "arena.hpp"

namespace tdls::runtime::cpu {

struct Arena::Impl {
    oneapi::tbb::task_arena arena;
};

namespace {
/// More threads than the machine runs at once would only add oversubscription
/// (and oneTBB warns about it on stderr).
int usable_threads(int requested) {
    return std::max(1, std::min(requested, oneapi::tbb::info::default_concurrency()));
}
} // namespace

Arena::Arena(int threads)
    : threads_(threads), impl_(new Impl{oneapi::tbb::task_arena(usable_threads(threads))}) {}
Arena::~Arena() = default;

void parallel_tiles(std::int64_t tiles, std::int64_t grain, Arena* arena,
                    const std::function<void(std::int64_t, std::int64_t)>& body) {
    const auto loop = [&] {
        oneapi::tbb::parallel_for(oneapi::tbb::blocked_range<std::int64_t>(0, tiles, grain),
                                  [&](const oneapi::tbb::blocked_range<std::int64_t>& range) {
                                      body(range.begin(), range.end());
                                  });
    };
    if (arena)
        arena->impl().arena.execute(loop);
    else
        loop();
}

} // namespace tdls::runtime::cpu
