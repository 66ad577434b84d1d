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
//     group and stay consistent between calls (counter 0, flag 0 or 1). A
//     workspace found in another state on entry stops the program with a
//     message; a group waiting over a second is told once why.
// Inside the solvers the GPU group is found from the rank tx (consecutive
// lanes); make_sync(work), which has no rank, finds it by the workspace
// address, as upstream TDLS does (see README "Coming from TDLS").
// Any callable taking no argument, called by every thread of the group and
// making the memory writes of each thread visible to all of them, may replace
// it: a block barrier, a std::barrier wrapper, a Kokkos team barrier. NoSync
// is the absence of a barrier, valid only for a group of one thread: refused
// at compile time by the static solver, stopped on entry by the runtime one.
#pragma once

#include <concepts>
#include <cstdint>
#include <type_traits>

#include <tdls/core/macros.hpp>
#include <tdls/core/target.hpp>

#if !defined(TDLS_DEVICE_PASS)
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#else
#include <cstdio> // device printf
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
/// Whether the CPU barrier counts in the element type itself: a real type
/// with lock-free atomics (float, double).
template <typename T>
constexpr bool counts_in_element() noexcept {
    if constexpr (std::is_floating_point_v<T>)
        return std::atomic_ref<T>::is_always_lock_free;
    else
        return false;
}

/// Word the CPU barrier operates on inside a workspace element: the element
/// type itself where counts_in_element, otherwise a 32-bit word at the start
/// of the element (long double, whose atomics would need libatomic; complex
/// types, which have no atomic arithmetic).
template <typename T>
using barrier_word_t = std::conditional_t<counts_in_element<T>(), T, std::uint32_t>;

/// Prints the message once and stops the program: a group that cannot run
/// would otherwise spin forever or exchange garbage.
[[noreturn]] inline void stop_group(const char* message, int threads) noexcept {
    std::fprintf(stderr, message, threads);
    std::fflush(stderr);
    std::abort();
}

/// Sense-reversing barrier of `threads` CPU threads in two workspace elements:
/// [0] counts the arrivals of the current phase, [1] is the phase flag. The
/// last thread to arrive resets the counter, then flips the flag, which
/// releases the others. Zeroed elements are a valid initial state, and the
/// barrier leaves them in one between calls (counter 0, flag 0 or 1).
template <typename T>
class WorkspaceBarrier {
  public:
    using Word = barrier_word_t<T>;

    WorkspaceBarrier(T* state, int threads) noexcept : state_(state), threads_(threads) {}

    /// On entry to a solver call: a counter in [0, threads) and a flag of 0 or
    /// 1 are what the barrier leaves. Anything else is a workspace that was not
    /// zeroed (or is shared with another group, or was overwritten), which would
    /// make the threads wait forever: stop with a message instead.
    void check_state() const noexcept {
        const Word count = std::atomic_ref<Word>(word(0)).load(std::memory_order_relaxed);
        const Word flag = std::atomic_ref<Word>(word(1)).load(std::memory_order_relaxed);
        const bool valid_count = count >= Word(0) && count < Word(threads_) && count == Word(int(count));
        if (!valid_count || !(flag == Word(0) || flag == Word(1)))
            stop_group("TDLS: the workspace of a group of %d CPU threads was not zero before its first "
                       "use.\n",
                       threads_);
    }

    void operator()() const noexcept {
        if (threads_ <= 1) return;
        std::atomic_ref<Word> count(word(0));
        std::atomic_ref<Word> flag(word(1));
        // Read before arriving: the flag cannot change before this thread arrives.
        const Word phase = flag.load(std::memory_order_acquire);
        if (count.fetch_add(Word(1), std::memory_order_acq_rel) == Word(threads_ - 1)) {
            count.store(Word(0), std::memory_order_relaxed);
            flag.store(Word(1) - phase, std::memory_order_release);
            return;
        }
        // Groups may hold more threads than there are cores: spin briefly, then
        // give the core away so that the thread we wait for can run. A group
        // waiting over a second is told once per process why (it never stops:
        // a thread may be late for a good reason). The clock starts at the
        // first yield and is read every 16 yields: a yield on a loaded machine
        // can take a whole time slice, and at one read per 1024 yields the
        // first reading came seconds late, so a 1.5 s wait went untold.
        std::chrono::steady_clock::time_point since{};
        for (unsigned spins = 0; flag.load(std::memory_order_acquire) == phase; ++spins) {
            if (spins < 64) continue;
            if (spins == 64) since = std::chrono::steady_clock::now();
            std::this_thread::yield();
            if (spins % 16 == 0 && std::chrono::steady_clock::now() - since > std::chrono::seconds(1))
                warn_long_wait();
        }
    }

  private:
    Word& word(int i) const noexcept { return *reinterpret_cast<Word*>(state_ + i); }

    void warn_long_wait() const noexcept {
        static std::atomic<bool> warned{false};
        if (!warned.exchange(true))
            std::fprintf(stderr,
                         "TDLS: a group of %d CPU threads has waited for 1 s at a barrier. The threads of "
                         "a group must run concurrently: not in a worksharing loop, nor in parallel STL "
                         "or a SYCL kernel on the CPU.\n",
                         threads_);
    }

    T* state_;
    int threads_;
};
#endif

/// How a deduced GPU barrier finds the lanes of its group.
enum class GroupJoin {
    /// The caller's rank: lanes first .. first + threads - 1 of one warp,
    /// first = lane - tx. No lane needs to see the others first, so the
    /// result does not depend on which lanes are converged at that point.
    ByRank,
    /// The workspace address: the active lanes of the warp holding the same
    /// workspace (upstream TDLS's rule), for make_sync(work), which has no
    /// rank. The group may then be any lanes of one warp.
    ByAddress,
};

/// The barrier deduced for a group of `threads` threads on the current target.
/// The object has the same layout in every compilation pass; only the body of
/// the calls differs. A group of one thread does nothing, so that a one-thread
/// solve remains a constant expression.
template <typename T>
class DeducedBarrier {
  public:
    /// Joins the group: on GPU finds its lanes (a group not complete in one
    /// warp or wavefront traps); on the CPU checks the barrier's state in the
    /// workspace (see WorkspaceBarrier::check_state).
    TDLS_HOST_DEVICE constexpr DeducedBarrier(GroupJoin how, int tx, int threads, T* work) noexcept
        : work_(work), threads_(threads), mask_(0) {
        if (threads > 1) join(how, tx);
    }

    TDLS_HOST_DEVICE constexpr void operator()() const noexcept {
        if (threads_ > 1) wait();
    }

  private:
    TDLS_HOST_DEVICE void join(GroupJoin how, int tx) noexcept {
#if defined(TDLS_DEVICE_PASS)
        const unsigned linear = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
        const int lane = int(linear % unsigned(target::warp_size));
        if (how == GroupJoin::ByRank) {
            const int first = lane - tx;
            if (tx < 0 || tx >= threads_ || first < 0 || first + threads_ > target::warp_size) TDLS_TRAP();
            const unsigned long long bits = threads_ >= 64 ? ~0ull : ((1ull << threads_) - 1ull);
            mask_ = bits << first;
        } else {
            mask_ = lanes_holding(work_);
            if (__builtin_popcountll(mask_) != threads_) TDLS_TRAP();
        }
#else
        (void)how;
        (void)tx;
        WorkspaceBarrier<T>(work_, threads_).check_state();
#endif
    }

#if defined(TDLS_DEVICE_PASS)
    /// The active lanes of the warp whose key equals this lane's.
    TDLS_DEVICE static unsigned long long lanes_holding(const void* key) noexcept {
        const unsigned long long own = reinterpret_cast<unsigned long long>(key);
#if defined(TDLS_DEVICE_PASS_CUDA)
        return __match_any_sync(__activemask(), own);
#else
        // A wavefront has no match instruction: the lowest lane still looking
        // broadcasts its key, the lanes holding it take the ballot and leave.
        unsigned long long lanes = 0;
        bool found = false;
        while (__ballot(!found) != 0) {
            if (!found) {
                const unsigned low = __builtin_amdgcn_readfirstlane(unsigned(own));
                const unsigned high = __builtin_amdgcn_readfirstlane(unsigned(own >> 32));
                if (((static_cast<unsigned long long>(high) << 32) | low) == own) {
                    lanes = __ballot(1);
                    found = true;
                }
            }
        }
        return lanes;
#endif
    }
#endif

    TDLS_HOST_DEVICE void wait() const noexcept {
#if defined(TDLS_DEVICE_PASS_CUDA)
        __syncwarp(unsigned(mask_));
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

    T* work_;
    int threads_;
    unsigned long long mask_;
};

/// The runtime solver's group of several threads with tdls::NoSync: no
/// barrier can make it correct, so stop before any exchange.
TDLS_HOST_DEVICE inline void stop_unsynchronized_group(int threads) noexcept {
#if defined(TDLS_DEVICE_PASS)
    (void)threads;
    printf("TDLS: the runtime solver runs with tdls::NoSync on a group of several threads; pass "
           "tdls::AutoSync or a barrier.\n");
    TDLS_TRAP();
#else
    stop_group("TDLS: the runtime solver runs with tdls::NoSync on a group of %d threads; pass "
               "tdls::AutoSync or a barrier.\n",
               threads);
#endif
}

/// The deduced barrier of a group of Threads threads, known at compile time,
/// joined as `how` says: NoSync for one thread. make_sync joins by address;
/// the entry points and the kernels, which know their rank, by rank.
template <int Threads, typename T>
TDLS_HOST_DEVICE constexpr auto deduced_sync(GroupJoin how, int tx, T* work) noexcept {
    static_assert(Threads >= 1, "a group has at least one thread");
    if constexpr (Threads == 1) {
        (void)how;
        (void)tx;
        (void)work;
        return NoSync{};
    } else {
        return DeducedBarrier<T>(how, tx, Threads, work);
    }
}

} // namespace detail

/// The barrier a solver deduces for a group of Threads threads (known at
/// compile time) sharing the workspace `work`: NoSync for one thread, else the
/// group of the lanes (GPU) or threads (CPU) sharing that workspace. A caller
/// may use it for its own exchanges between solver calls.
template <int Threads, typename T>
TDLS_HOST_DEVICE constexpr auto make_sync(T* work) noexcept {
    return detail::deduced_sync<Threads>(detail::GroupJoin::ByAddress, 0, work);
}

/// The barrier deduced for a group whose size is known at run time only.
template <typename T>
TDLS_HOST_DEVICE constexpr detail::DeducedBarrier<T> make_sync(int threads, T* work) noexcept {
    return detail::DeducedBarrier<T>(detail::GroupJoin::ByAddress, 0, threads, work);
}

namespace detail {

/// Calls the barrier of the group. A plain (not constexpr) host-device
/// template in between lets nvcc accept a __device__-only barrier, such as a
/// lambda around __syncthreads, from the host-device solver code; NoSync and
/// the deduced barrier keep constexpr overloads so that a one-thread solve can
/// run at compile time.
TDLS_HOST_DEVICE constexpr void arrive_and_wait(NoSync&) noexcept {}
TDLS_HOST_DEVICE constexpr void arrive_and_wait(const NoSync&) noexcept {}
template <typename T>
TDLS_HOST_DEVICE constexpr void arrive_and_wait(DeducedBarrier<T>& sync) noexcept {
    sync();
}
template <typename T>
TDLS_HOST_DEVICE constexpr void arrive_and_wait(const DeducedBarrier<T>& sync) noexcept {
    sync();
}
template <typename Sync>
TDLS_HOST_DEVICE void arrive_and_wait(Sync& sync) {
    sync();
}

/// The barrier a solver entry point uses: the deduced one for AutoSync, the
/// caller's otherwise. StaticThreads is the group size when known at compile
/// time, 0 otherwise (the runtime solver, which checks a NoSync group on entry).
template <int StaticThreads, typename T, typename Sync>
TDLS_HOST_DEVICE constexpr decltype(auto) resolve_sync(Sync& sync, int tx, int threads, T* work) noexcept {
    using S = std::remove_cvref_t<Sync>;
    if constexpr (std::is_same_v<S, AutoSync>) {
#if defined(TDLS_DEVICE_PASS)
        static_assert(StaticThreads <= target::warp_size,
                      "TDLS: a group larger than a warp needs a barrier (sync argument), e.g. a lambda "
                      "calling __syncthreads");
#endif
        if constexpr (StaticThreads > 0)
            return deduced_sync<StaticThreads>(GroupJoin::ByRank, tx, work);
        else
            return DeducedBarrier<T>(GroupJoin::ByRank, tx, threads, work);
    } else if constexpr (std::is_same_v<S, NoSync>) {
        static_assert(StaticThreads <= 1,
                      "TDLS: a group of several threads cannot run with tdls::NoSync; pass "
                      "tdls::AutoSync or a barrier (sync argument)");
        if constexpr (StaticThreads == 0)
            if (threads > 1) stop_unsynchronized_group(threads);
        return static_cast<Sync&>(sync);
    } else {
        static_assert(GroupBarrier<S>, "a barrier is a callable taking no argument");
        return static_cast<Sync&>(sync);
    }
}

} // namespace detail
} // namespace tdls
