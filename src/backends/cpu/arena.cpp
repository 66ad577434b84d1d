#include "arena.hpp"

#include <algorithm>

#include <oneapi/tbb/info.h>
#include <oneapi/tbb/task_arena.h>

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

void Arena::execute(const std::function<void()>& work) {
    impl_->arena.execute(work);
}

} // namespace tdls::runtime::cpu
