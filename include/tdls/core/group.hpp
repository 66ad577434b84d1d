// libtdls: groups of threads and their barriers.
//
// A cooperative solver runs one system on a group of threads that call it
// together. They exchange data through a workspace, between barriers. This
// header provides the barrier the solver deduces when the caller passes none
// (AutoSync):
//   - one thread: nothing to synchronise;
//   - CUDA device: __syncwarp on the lanes of the group, which must lie inside
//     one warp (checked on entry: a group straddling two warps traps);
//   - HIP device: a wavefront barrier (64 lanes on CDNA, 32 on RDNA); the
//     group must lie inside one wavefront, also checked on entry;
//   - CPU: a sense-reversing barrier of std::threads held in the first two
//     elements of the workspace, which must be zero before the first call of a
//     group and stay consistent between calls (counter 0, flag 0 or 1).
// Any callable taking no argument, called by every thread of the group and
// making the memory writes of each thread visible to all of them, may replace
// it: a block barrier, a std::barrier wrapper, a Kokkos team barrier. NoSync
// is the absence of a barrier, valid only for a group of one thread.
#pragma once

#include <concepts>
#include <cstdint>
#include <type_traits>

#include <tdls/core/macros.hpp>
#include <tdls/core/target.hpp>

#if !defined(TDLS_DEVICE_PASS)
#include <atomic>
#include <thread>
#endif

namespace tdls {

/// Tag: let the solver deduce the barrier of the group from the target.
struct AutoSync {};

/// No barrier at all: accepted only where the group has one thread.
struct NoSync {
    TDLS_HOST_DEVICE constexpr void operator()() const noexcept {}
};

/// A barrier the caller provides: any callable with no argument.
template <typename S>
concept GroupBarrier = std::invocable<S&>;

/// Workspace elements the deduced CPU barrier keeps at the front of every
/// solver workspace, whatever the target, so that one workspace layout serves
/// host and device code.
inline constexpr int barrier_workspace_elements = 2;

namespace detail {

#if !defined(TDLS_DEVICE_PASS)
/// Word the CPU barrier operates on inside a workspace element: the element
/// type itself when the hardware has lock-free atomics for it (float, double),
/// otherwise a 32-bit word at the start of the element (long double, whose
/// atomics would need libatomic).
template <typename T>
using barrier_word_t = std::conditional_t<std::atomic_ref<T>::is_always_lock_free, T, std::uint32_t>;

/// Sense-reversing barrier of `threads` CPU threads in two workspace elements:
/// [0] counts the arrivals of the current phase, [1] is the phase flag. The
/// last thread to arrive resets the counter, then flips the flag, which
/// releases the others. Zeroed elements are a valid initial state.
template <typename T>
class WorkspaceBarrier {
  public:
    WorkspaceBarrier(T* state, int threads) noexcept : state_(state), threads_(threads) {}

    void operator()() const noexcept {
        using Word = barrier_word_t<T>;
        if (threads_ <= 1) return;
        std::atomic_ref<Word> count(*reinterpret_cast<Word*>(state_));
        std::atomic_ref<Word> flag(*reinterpret_cast<Word*>(state_ + 1));
        // Read before arriving: the flag cannot change before this thread arrives.
        const Word phase = flag.load(std::memory_order_acquire);
        if (count.fetch_add(Word(1), std::memory_order_acq_rel) == Word(threads_ - 1)) {
            count.store(Word(0), std::memory_order_relaxed);
            flag.store(Word(1) - phase, std::memory_order_release);
            return;
        }
        // Groups may hold more threads than there are cores: spin briefly, then
        // give the core away so that the thread we wait for can run.
        for (int spins = 0; flag.load(std::memory_order_acquire) == phase; ++spins)
            if (spins >= 64) std::this_thread::yield();
    }

  private:
    T* state_;
    int threads_;
};
#endif

/// The barrier deduced for a group of `threads` threads on the current target.
/// The object has the same layout in every compilation pass; only the body of
/// the call differs.
template <typename T>
class DeducedBarrier {
  public:
    /// Checks that the group is one the deduced barrier knows, then prepares it.
    /// tx is the rank of the calling thread in the group, work the workspace.
    TDLS_HOST_DEVICE DeducedBarrier(int tx, int threads, T* work) noexcept
        : work_(work), threads_(threads), mask_(0) {
#if defined(TDLS_DEVICE_PASS)
        const unsigned linear = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
        const int lane = int(linear % unsigned(target::warp_size));
        const int first = lane - tx;
        // The group must be lanes first .. first + threads - 1 of one warp.
        if (tx < 0 || tx >= threads || first < 0 || first + threads > target::warp_size) TDLS_TRAP();
#if defined(TDLS_DEVICE_PASS_CUDA)
        const unsigned group_bits = threads >= 32 ? 0xffffffffu : ((1u << threads) - 1u);
        mask_ = group_bits << first;
#endif
#else
        (void)tx;
#endif
    }

    TDLS_HOST_DEVICE void operator()() const noexcept {
#if defined(TDLS_DEVICE_PASS_CUDA)
        __syncwarp(mask_);
#elif defined(TDLS_DEVICE_PASS_HIP)
        // A wavefront runs its lanes together; the fences order the workspace
        // accesses around the barrier and keep the compiler from moving them.
        __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront");
        __builtin_amdgcn_wave_barrier();
        __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront");
#else
        WorkspaceBarrier<T>(work_, threads_)();
#endif
    }

  private:
    T* work_;
    int threads_;
    unsigned mask_;
};

} // namespace detail

/// The barrier a solver deduces for a group of Threads threads (known at
/// compile time) sharing the workspace `work`: NoSync for one thread. A caller
/// may use it for its own exchanges between solver calls.
template <int Threads, typename T>
TDLS_HOST_DEVICE constexpr auto make_sync(int tx, T* work) noexcept {
    static_assert(Threads >= 1, "a group has at least one thread");
    if constexpr (Threads == 1) {
        (void)tx;
        (void)work;
        return NoSync{};
    } else {
        return detail::DeducedBarrier<T>(tx, Threads, work);
    }
}

/// The barrier deduced for a group whose size is known at run time only.
template <typename T>
TDLS_HOST_DEVICE detail::DeducedBarrier<T> make_sync(int tx, int threads, T* work) noexcept {
    return detail::DeducedBarrier<T>(tx, threads, work);
}

namespace detail {

/// Calls the barrier of the group. A plain (not constexpr) host-device
/// template in between lets nvcc accept a __device__-only barrier, such as a
/// lambda around __syncthreads, from the host-device solver code; NoSync keeps a
/// constexpr overload so that a one-thread solve can run at compile time.
TDLS_HOST_DEVICE constexpr void arrive_and_wait(NoSync&) noexcept {}
TDLS_HOST_DEVICE constexpr void arrive_and_wait(const NoSync&) noexcept {}
template <typename Sync>
TDLS_HOST_DEVICE void arrive_and_wait(Sync& sync) {
    sync();
}

/// The barrier a solver entry point uses: the deduced one for AutoSync, the
/// caller's otherwise. StaticThreads is the group size when known at compile
/// time, 0 otherwise.
template <int StaticThreads, typename T, typename Sync>
TDLS_HOST_DEVICE constexpr decltype(auto) resolve_sync(Sync& sync, int tx, int threads, T* work) noexcept {
    using S = std::remove_cvref_t<Sync>;
    if constexpr (std::is_same_v<S, AutoSync>) {
#if defined(TDLS_DEVICE_PASS)
        static_assert(StaticThreads <= target::warp_size,
                      "the deduced GPU barrier covers one warp or wavefront: pass a block barrier "
                      "(e.g. a lambda calling __syncthreads) for a larger group");
#endif
        if constexpr (StaticThreads > 0)
            return make_sync<StaticThreads>(tx, work);
        else
            return make_sync(tx, threads, work);
    } else {
        static_assert(!std::is_same_v<S, NoSync> || StaticThreads == 1,
                      "tdls::NoSync is only valid for a group of one thread known at compile "
                      "time; pass AutoSync or a barrier");
        static_assert(GroupBarrier<S>, "a barrier is a callable taking no argument");
        return static_cast<Sync&>(sync);
    }
}

} // namespace detail
} // namespace tdls
