// The library's one-time initialisation under contention: 16 host threads,
// released at once, make this process's very first calls into libtdls (the
// backend table, the CPU kernel family and its TDLS_CPU_KERNEL override, the
// handle table, oneTBB's scheduler, the per-thread error message), each with
// its own handle and with the default context, on batches of several orders
// that reach every kernel family path (static SIMD orders, the dynamic
// solver). Every result must be the bits of the same calls made serially
// afterwards. Run as its own process (ctest), never after another test; the
// ThreadSanitizer build runs it too.
//
// A plain main, not Catch2: nothing may call the library before the threads.
#include <cstdio>
#include <cstring>
#include <vector>

#include "capi_support.hpp"
#include "released_together.hpp"

using namespace capi_test;

namespace {

constexpr int thread_count = 16;
constexpr int orders[] = {1, 3, 8, 16, 33, 70};

struct Results {
    std::vector<Outcome<double>> outcomes;
    int availability[5] = {};
    tdls_status_t create = TDLS_ERROR_INTERNAL, destroy = TDLS_ERROR_INTERNAL;
    bool stale_refused = false;
};

SystemSet<double> systems_for(int n, int thread) {
    std::vector<Kind> kinds;
    for (int s = 0; s < 37; ++s) kinds.push_back(s % 9 == 4 ? Kind::ZeroColumn : Kind::Uniform);
    return make_set<double>(n, 2, thread % 2 ? TDLS_ROW_MAJOR : TDLS_COL_MAJOR, kinds, 1000u + thread);
}

/// What one thread does: the calls it makes are the first of the process.
Results first_calls(int thread) {
    Results r;
    const tdls_backend_t backends[] = {TDLS_BACKEND_AUTO, TDLS_BACKEND_CPU, TDLS_BACKEND_CUDA, TDLS_BACKEND_HIP,
                                       tdls_backend_t(77)};
    // Half the threads start with a solve, half with the tables.
    if (thread % 2 == 0)
        for (const int n : orders) r.outcomes.push_back(run_strided(nullptr, systems_for(n, thread)));
    for (int b = 0; b < 5; ++b) r.availability[b] = tdls_backend_available(backends[b]);
    tdls_handle_t handle = nullptr;
    r.create = tdls_create(&handle, thread % 3 ? TDLS_BACKEND_AUTO : TDLS_BACKEND_CPU, 0);
    if (r.create == TDLS_SUCCESS) {
        tdls_set_num_threads(handle, 1 + thread % 2);
        for (const int n : orders) r.outcomes.push_back(run_interleaved(handle, systems_for(n, thread), 8));
        r.destroy = tdls_destroy(handle);
        r.stale_refused = tdls_set_num_threads(handle, 1) == TDLS_ERROR_INVALID_HANDLE;
    }
    if (thread % 2 == 1)
        for (const int n : orders) r.outcomes.push_back(run_strided(nullptr, systems_for(n, thread)));
    return r;
}

} // namespace

int main() {
    std::vector<Results> concurrent(thread_count);
    tdls_test::run_released_together(thread_count, [&](int t) { concurrent[t] = first_calls(t); });

    int failures = 0, compared = 0;
    auto expect = [&](bool ok, const char* what, int t) {
        if (!ok) {
            std::fprintf(stderr, "thread %d: %s\n", t, what);
            ++failures;
        }
    };
    for (int t = 0; t < thread_count; ++t) {
        const Results serial = first_calls(t);
        const Results& c = concurrent[t];
        expect(c.create == TDLS_SUCCESS && c.destroy == TDLS_SUCCESS, "create/destroy failed", t);
        expect(c.stale_refused, "a destroyed handle was accepted", t);
        expect(std::memcmp(c.availability, serial.availability, sizeof c.availability) == 0,
               "backend availability differs from the serial answer", t);
        expect(c.availability[0] == 1 && c.availability[1] == 1 && c.availability[4] == 0,
               "AUTO and CPU must be available, an invalid backend not", t);
        expect(c.outcomes.size() == serial.outcomes.size(), "different number of calls", t);
        for (std::size_t i = 0; i < c.outcomes.size() && i < serial.outcomes.size(); ++i) {
            expect(c.outcomes[i].status == TDLS_SUCCESS && c.outcomes[i].guards_intact, "a call failed", t);
            expect(same_outcome(c.outcomes[i], serial.outcomes[i]), "results differ from the serial call", t);
            ++compared;
        }
    }
    // Negative control: the comparison sees a one-bit difference.
    Results control = first_calls(0);
    control.outcomes[0].B[1][0] = std::nextafter(control.outcomes[0].B[1][0], 1e300);
    const bool control_seen = !same_outcome(control.outcomes[0], concurrent[0].outcomes[0]);
    expect(control_seen, "negative control: a changed bit was not seen", 0);

    const int expected = thread_count * 2 * int(std::size(orders));
    std::printf("first use: %d threads, %d calls compared with serial calls, %d failures\n", thread_count, compared,
                failures);
    if (compared != expected) {
        std::fprintf(stderr, "expected %d comparisons\n", expected);
        return 1;
    }
    return failures == 0 ? 0 : 1;
}
