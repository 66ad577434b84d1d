#include "arena.hpp"

#include <oneapi/tbb/task_arena.h>

namespace tdls::runtime::cpu {

struct Arena::Impl {
    oneapi::tbb::task_arena arena;
};

Arena::Arena(int threads) : threads_(threads), impl_(new Impl{oneapi::tbb::task_arena(threads)}) {}
Arena::~Arena() = default;

void Arena::execute(const std::function<void()>& work) { impl_->arena.execute(work); }

} // namespace tdls::runtime::cpu
