// libtdls: the std::thread executor of the CPU backend, built for the
// ThreadSanitizer build and builds without oneTBB (TDLS_CPU_EXECUTOR=threads;
// see arena.hpp): fork-join over the same chunks as
// the oneTBB executor, every synchronisation visible to the sanitizer.
#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

#include "arena.hpp"

namespace tdls::runtime::cpu {

struct Arena::Impl {};

Arena::Arena(int threads) : threads_(threads), impl_(new Impl{}) {}
Arena::~Arena() = default;

void parallel_tiles(std::int64_t tiles, std::int64_t grain, Arena* arena,
                    const std::function<void(std::int64_t, std::int64_t)>& body) {
    const std::int64_t chunks = (tiles + grain - 1) / grain;
    const std::int64_t machine = std::max(1u, std::thread::hardware_concurrency());
    const std::int64_t allowed = arena ? std::min<std::int64_t>(arena->threads(), machine) : machine;
    const std::int64_t workers = std::max<std::int64_t>(1, std::min(chunks, allowed));
    std::atomic<std::int64_t> next{0};
    const auto work = [&] {
        for (std::int64_t c = next.fetch_add(1); c < chunks; c = next.fetch_add(1))
            body(c * grain, std::min(tiles, (c + 1) * grain));
    };
    std::vector<std::thread> helpers;
    for (std::int64_t w = 1; w < workers; ++w) helpers.emplace_back(work);
    work(); // the caller takes chunks too
    for (std::thread& helper : helpers) helper.join();
}

} // namespace tdls::runtime::cpu
