// The library, handle and error functions of the C ABI (capi.md "Library,
// handles, errors" and tdls.h), and handles used from many threads at once.
#include <catch2/catch.hpp>

#include <tdls/tdls.h>

#include <atomic>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <future>
#include <limits>
#include <set>
#include <string>
#include <thread>
#include <vector>

// What this build provides: the GPU plugins are not built yet. A build with
// them defines these to 1 (the CUDA and HIP expectations below follow).
#ifndef TDLS_TEST_EXPECT_CUDA
#define TDLS_TEST_EXPECT_CUDA 0
#endif
#ifndef TDLS_TEST_EXPECT_HIP
#define TDLS_TEST_EXPECT_HIP 0
#endif

namespace {

bool starts_with(const std::string& text, const std::string& prefix) {
    return text.rfind(prefix, 0) == 0;
}
bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}
std::string last_error() {
    return tdls_last_error();
}

/// A handle value that no tdls_create returned: a failed create must leave it.
tdls_handle_t sentinel_handle() {
    static int storage = 0;
    return reinterpret_cast<tdls_handle_t>(&storage);
}

/// A batch of column-major systems with right-hand sides, and the solve of it.
struct Batch {
    std::int64_t n = 4, nrhs = 2, batch = 0;
    std::vector<double> A, B;
    std::vector<std::int32_t> ipiv, info;

    Batch(std::int64_t systems, std::uint64_t seed) : batch(systems) {
        A.resize(std::size_t(n * n * batch));
        B.resize(std::size_t(n * nrhs * batch));
        ipiv.assign(std::size_t(n * batch), -1);
        info.assign(std::size_t(batch), -1);
        std::uint64_t state = seed;
        const auto next = [&] {
            state = state * 6364136223846793005ull + 1442695040888963407ull;
            return double(state >> 11) / double(std::uint64_t(1) << 53) * 2.0 - 1.0;
        };
        for (double& a : A) a = next();
        for (double& b : B) b = next();
    }

    tdls_status_t solve(tdls_handle_t handle) {
        return tdls_batched_gesv(handle, TDLS_FLOAT64, TDLS_COL_MAJOR, n, nrhs, A.data(), n, n * n,
                                 ipiv.data(), n, B.data(), n, n * nrhs, info.data(), batch);
    }

    bool operator==(const Batch& other) const {
        // Bitwise: memcmp, so that -0.0 and NaN payloads count too.
        return A.size() == other.A.size() && B.size() == other.B.size() &&
               std::memcmp(A.data(), other.A.data(), A.size() * sizeof(double)) == 0 &&
               std::memcmp(B.data(), other.B.data(), B.size() * sizeof(double)) == 0 && ipiv == other.ipiv &&
               info == other.info;
    }
};

constexpr std::int64_t batch_systems = 2048; // enough that the CPU backend splits it over tasks
constexpr std::uint64_t batch_seed = 0x9E3779B97F4A7C15ull;

/// The batch solved by one thread on a handle limited to one CPU thread.
const Batch& serial_reference() {
    static const Batch reference = [] {
        Batch b(batch_systems, batch_seed);
        tdls_handle_t handle = nullptr;
        REQUIRE(tdls_create(&handle, TDLS_BACKEND_CPU, 0) == TDLS_SUCCESS);
        REQUIRE(tdls_set_num_threads(handle, 1) == TDLS_SUCCESS);
        REQUIRE(b.solve(handle) == TDLS_SUCCESS);
        REQUIRE(tdls_destroy(handle) == TDLS_SUCCESS);
        return b;
    }();
    return reference;
}

} // namespace

TEST_CASE("tdls_get_version: the header's version, any pointer NULL", "[capi][handles]") {
    int checks = 0;
    for (int mask = 0; mask < 8; ++mask) {
        int major = -1, minor = -1, patch = -1;
        tdls_get_version(mask & 1 ? &major : nullptr, mask & 2 ? &minor : nullptr,
                         mask & 4 ? &patch : nullptr);
        INFO("pointers given: " << mask);
        CHECK(major == (mask & 1 ? TDLS_VERSION_MAJOR : -1));
        CHECK(minor == (mask & 2 ? TDLS_VERSION_MINOR : -1));
        CHECK(patch == (mask & 4 ? TDLS_VERSION_PATCH : -1));
        ++checks;
    }
    REQUIRE(checks == 8);
}

TEST_CASE("tdls_backend_available: AUTO and CPU always, GPU backends as built", "[capi][handles]") {
    int checks = 0;
    const auto check = [&](int backend, int expected) {
        INFO("backend " << backend);
        CHECK(tdls_backend_available(static_cast<tdls_backend_t>(backend)) == expected);
        ++checks;
    };
    check(TDLS_BACKEND_AUTO, 1);
    check(TDLS_BACKEND_CPU, 1);
    check(TDLS_BACKEND_CUDA, TDLS_TEST_EXPECT_CUDA);
    check(TDLS_BACKEND_HIP, TDLS_TEST_EXPECT_HIP);
    check(4, 0);
    check(-1, 0);
    check(INT_MAX, 0);
    REQUIRE(checks == 7);
}

TEST_CASE("tdls_status_name and tdls_status_string", "[capi][handles]") {
    const char* const names[] = {"TDLS_SUCCESS",
                                 "TDLS_ERROR_INVALID_HANDLE",
                                 "TDLS_ERROR_INVALID_VALUE",
                                 "TDLS_ERROR_NOT_SUPPORTED",
                                 "TDLS_ERROR_BACKEND_UNAVAILABLE",
                                 "TDLS_ERROR_ALLOCATION",
                                 "TDLS_ERROR_EXECUTION",
                                 "TDLS_ERROR_INTERNAL"};
    int checks = 0;
    std::set<std::string> sentences;
    for (int s = 0; s <= 7; ++s) {
        const auto status = static_cast<tdls_status_t>(s);
        INFO("status " << s);
        REQUIRE(tdls_status_name(status) != nullptr);
        CHECK(std::string(tdls_status_name(status)) == names[s]);
        REQUIRE(tdls_status_string(status) != nullptr);
        const std::string sentence = tdls_status_string(status);
        INFO("sentence: \"" << sentence << "\"");
        CHECK(sentence.size() > 10);
        CHECK(sentence.back() == '.');
        sentences.insert(sentence);
        ++checks;
    }
    CHECK(sentences.size() == 8); // one sentence per status
    for (int s : {8, -1, 100, INT_MIN}) {
        const auto status = static_cast<tdls_status_t>(s);
        INFO("unknown status " << s);
        REQUIRE(tdls_status_name(status) != nullptr);
        CHECK(std::string(tdls_status_name(status)) == "TDLS_UNKNOWN_STATUS");
        REQUIRE(tdls_status_string(status) != nullptr);
        const std::string sentence = tdls_status_string(status);
        CHECK_FALSE(sentence.empty());
        CHECK(sentences.count(sentence) == 0);
        ++checks;
    }
    REQUIRE(checks == 12);
}

TEST_CASE("tdls_last_error: empty in a fresh thread, thread-local", "[capi][handles][threads]") {
    int checks = 0;
    // A fresh thread has no failed call yet.
    std::string fresh = "not read";
    bool fresh_not_null = false;
    std::thread([&] {
        fresh_not_null = tdls_last_error() != nullptr;
        if (fresh_not_null) fresh = tdls_last_error();
    }).join();
    CHECK(fresh_not_null);
    CHECK(fresh.empty());
    ++checks;

    // This thread fails; another thread, alive meanwhile, fails differently.
    REQUIRE(tdls_set_num_threads(sentinel_handle(), 3) == TDLS_ERROR_INVALID_HANDLE);
    const std::string mine = last_error();
    CHECK(starts_with(mine, "tdls_set_num_threads: "));

    std::promise<void> other_started, main_failed_again;
    std::future<void> main_failed_again_seen = main_failed_again.get_future();
    std::string other_before, other_after, other_after_main;
    tdls_status_t other_status = TDLS_SUCCESS;
    std::thread other([&] {
        other_before = tdls_last_error();
        other_status = tdls_create(nullptr, TDLS_BACKEND_CPU, 0);
        other_after = tdls_last_error();
        other_started.set_value();
        main_failed_again_seen.wait();
        other_after_main = tdls_last_error();
    });
    other_started.get_future().wait();
    // The other thread's failure does not show here...
    CHECK(last_error() == mine);
    ++checks;
    // ...and a failure here, while the other thread lives, does not show there.
    REQUIRE(tdls_set_pivot_threshold(sentinel_handle(), 0.5) == TDLS_ERROR_INVALID_HANDLE);
    const std::string mine_again = last_error();
    main_failed_again.set_value();
    other.join();
    CHECK(other_before.empty());
    CHECK(other_status == TDLS_ERROR_INVALID_VALUE);
    CHECK(starts_with(other_after, "tdls_create: "));
    CHECK(other_after_main == other_after);
    CHECK(starts_with(mine_again, "tdls_set_pivot_threshold: "));
    ++checks;

    // A successful call does not clear the message.
    tdls_handle_t handle = nullptr;
    REQUIRE(tdls_create(&handle, TDLS_BACKEND_CPU, 0) == TDLS_SUCCESS);
    REQUIRE(tdls_destroy(handle) == TDLS_SUCCESS);
    CHECK(last_error() == mine_again);
    ++checks;
    REQUIRE(checks == 4);
}

TEST_CASE("tdls_create: arguments, unavailable backends, the handle on failure", "[capi][handles]") {
    int checks = 0;
    const auto fails = [&](int backend, int device, tdls_status_t expected, const std::string& names) {
        tdls_handle_t handle = sentinel_handle();
        const tdls_status_t status = tdls_create(&handle, static_cast<tdls_backend_t>(backend), device);
        const std::string message = last_error();
        INFO("backend " << backend << ", device " << device << ": \"" << message << "\"");
        CHECK(status == expected);
        CHECK(handle == sentinel_handle()); // unchanged on failure
        CHECK(starts_with(message, "tdls_create: "));
        CHECK(contains(message, names));
        if (status == TDLS_SUCCESS) tdls_destroy(handle);
        ++checks;
    };
    // The out pointer itself NULL.
    CHECK(tdls_create(nullptr, TDLS_BACKEND_CPU, 0) == TDLS_ERROR_INVALID_VALUE);
    CHECK(starts_with(last_error(), "tdls_create: "));
    CHECK(contains(last_error(), "handle"));
    ++checks;
    fails(7, 0, TDLS_ERROR_INVALID_VALUE, "backend (7)");
    fails(-1, 0, TDLS_ERROR_INVALID_VALUE, "backend (-1)");
    fails(TDLS_BACKEND_CPU, -1, TDLS_ERROR_INVALID_VALUE, "device (-1)");
    fails(TDLS_BACKEND_AUTO, -2, TDLS_ERROR_INVALID_VALUE, "device (-2)");
    fails(TDLS_BACKEND_CPU, 1, TDLS_ERROR_INVALID_VALUE, "device (1)"); // the CPU has one device, 0
    fails(TDLS_BACKEND_AUTO, 1, TDLS_ERROR_INVALID_VALUE, "device (1)");
    if (!TDLS_TEST_EXPECT_CUDA) fails(TDLS_BACKEND_CUDA, 0, TDLS_ERROR_BACKEND_UNAVAILABLE, "backend (2)");
    if (!TDLS_TEST_EXPECT_HIP) fails(TDLS_BACKEND_HIP, 0, TDLS_ERROR_BACKEND_UNAVAILABLE, "backend (3)");
    // A device ordinal no machine has.
    fails(TDLS_BACKEND_CUDA, 4096, TDLS_ERROR_BACKEND_UNAVAILABLE, "backend (2)");

    for (int backend : {TDLS_BACKEND_AUTO, TDLS_BACKEND_CPU}) {
        tdls_handle_t handle = nullptr;
        REQUIRE(tdls_create(&handle, static_cast<tdls_backend_t>(backend), 0) == TDLS_SUCCESS);
        CHECK(handle != nullptr);
        CHECK(tdls_destroy(handle) == TDLS_SUCCESS);
        ++checks;
    }
    // Distinct live handles are distinct values.
    tdls_handle_t first = nullptr, second = nullptr;
    REQUIRE(tdls_create(&first, TDLS_BACKEND_CPU, 0) == TDLS_SUCCESS);
    REQUIRE(tdls_create(&second, TDLS_BACKEND_CPU, 0) == TDLS_SUCCESS);
    CHECK(first != second);
    CHECK(tdls_destroy(first) == TDLS_SUCCESS);
    CHECK(tdls_destroy(second) == TDLS_SUCCESS);
    ++checks;
    REQUIRE(checks ==
            1 + 2 + 4 + (TDLS_TEST_EXPECT_CUDA ? 0 : 1) + (TDLS_TEST_EXPECT_HIP ? 0 : 1) + 1 + 2 + 1);
}

TEST_CASE("tdls_destroy: NULL is a no-op, a destroyed handle INVALID_HANDLE", "[capi][handles]") {
    int checks = 0;
    CHECK(tdls_destroy(nullptr) == TDLS_SUCCESS);
    ++checks;
    tdls_handle_t handle = nullptr;
    REQUIRE(tdls_create(&handle, TDLS_BACKEND_CPU, 0) == TDLS_SUCCESS);
    CHECK(tdls_destroy(handle) == TDLS_SUCCESS);
    CHECK(tdls_destroy(handle) == TDLS_ERROR_INVALID_HANDLE);
    CHECK(starts_with(last_error(), "tdls_destroy: "));
    CHECK(contains(last_error(), "handle"));
    ++checks;
    // A pointer that tdls_create never returned.
    CHECK(tdls_destroy(sentinel_handle()) == TDLS_ERROR_INVALID_HANDLE);
    ++checks;
    // Every other function refuses the destroyed handle too.
    // HIP marks "not written": no CPU handle reports it.
    tdls_backend_t backend = TDLS_BACKEND_HIP;
    CHECK(tdls_get_backend(handle, &backend) == TDLS_ERROR_INVALID_HANDLE);
    CHECK(backend == TDLS_BACKEND_HIP);
    CHECK(tdls_set_stream(handle, nullptr) == TDLS_ERROR_INVALID_HANDLE);
    CHECK(tdls_set_pivot_threshold(handle, 1.0) == TDLS_ERROR_INVALID_HANDLE);
    CHECK(tdls_set_num_threads(handle, 1) == TDLS_ERROR_INVALID_HANDLE);
    CHECK(starts_with(last_error(), "tdls_set_num_threads: "));
    ++checks;
    REQUIRE(checks == 4);
}

TEST_CASE("tdls_get_backend", "[capi][handles]") {
    int checks = 0;
    tdls_backend_t backend = TDLS_BACKEND_HIP;                  // a value none of these calls reports
    CHECK(tdls_get_backend(nullptr, &backend) == TDLS_SUCCESS); // the default context
    CHECK(backend == TDLS_BACKEND_AUTO);
    ++checks;
    for (int created : {TDLS_BACKEND_CPU, TDLS_BACKEND_AUTO}) {
        tdls_handle_t handle = nullptr;
        REQUIRE(tdls_create(&handle, static_cast<tdls_backend_t>(created), 0) == TDLS_SUCCESS);
        backend = TDLS_BACKEND_HIP;
        CHECK(tdls_get_backend(handle, &backend) == TDLS_SUCCESS);
        CHECK(backend == created);
        CHECK(tdls_get_backend(handle, nullptr) == TDLS_ERROR_INVALID_VALUE);
        CHECK(starts_with(last_error(), "tdls_get_backend: "));
        CHECK(contains(last_error(), "backend"));
        CHECK(tdls_destroy(handle) == TDLS_SUCCESS);
        ++checks;
    }
    CHECK(tdls_get_backend(nullptr, nullptr) == TDLS_ERROR_INVALID_VALUE);
    ++checks;
    REQUIRE(checks == 4);
}

TEST_CASE("tdls_set_stream: CPU handles take NULL only; the default context is fixed", "[capi][handles]") {
    int checks = 0;
    tdls_handle_t handle = nullptr;
    REQUIRE(tdls_create(&handle, TDLS_BACKEND_CPU, 0) == TDLS_SUCCESS);
    CHECK(tdls_set_stream(handle, nullptr) == TDLS_SUCCESS);
    ++checks;
    int not_a_stream = 0;
    CHECK(tdls_set_stream(handle, &not_a_stream) == TDLS_ERROR_NOT_SUPPORTED);
    CHECK(starts_with(last_error(), "tdls_set_stream: "));
    CHECK(contains(last_error(), "stream"));
    ++checks;
    // The refused stream left the handle as it was: it still solves.
    Batch b(batch_systems, batch_seed);
    CHECK(b.solve(handle) == TDLS_SUCCESS);
    CHECK(b == serial_reference());
    ++checks;
    CHECK(tdls_set_stream(nullptr, nullptr) == TDLS_ERROR_INVALID_HANDLE);
    CHECK(starts_with(last_error(), "tdls_set_stream: "));
    CHECK(tdls_set_stream(nullptr, &not_a_stream) == TDLS_ERROR_INVALID_HANDLE);
    ++checks;
    CHECK(tdls_destroy(handle) == TDLS_SUCCESS);
    REQUIRE(checks == 4);
}

TEST_CASE("tdls_set_pivot_threshold: tau in (0, 1], and it changes the pivots", "[capi][handles]") {
    int checks = 0;
    tdls_handle_t handle = nullptr;
    REQUIRE(tdls_create(&handle, TDLS_BACKEND_CPU, 0) == TDLS_SUCCESS);
    for (double tau : {0.0, -0.0, -1.0, 1.5, 1.0000000000000002, std::nan(""),
                       std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()}) {
        INFO("tau " << tau);
        CHECK(tdls_set_pivot_threshold(handle, tau) == TDLS_ERROR_INVALID_VALUE);
        CHECK(starts_with(last_error(), "tdls_set_pivot_threshold: "));
        CHECK(contains(last_error(), "tau"));
        ++checks;
    }
    for (double tau : {1.0, 0.25, 1e-300}) {
        INFO("tau " << tau);
        CHECK(tdls_set_pivot_threshold(handle, tau) == TDLS_SUCCESS);
        ++checks;
    }

    // Column 0 of A is (0.5, 1): tau = 1 pivots on row 2 (LAPACK); tau = 0.25
    // keeps row 1, whose 0.5 reaches 0.25 * 1. Both solve exactly: x = (1, 1).
    const auto pivot_of = [&](double tau_set) {
        REQUIRE(tdls_set_pivot_threshold(handle, tau_set) == TDLS_SUCCESS);
        // A failed setting afterwards leaves tau_set in place.
        REQUIRE(tdls_set_pivot_threshold(handle, 2.0) == TDLS_ERROR_INVALID_VALUE);
        double A[4] = {0.5, 1.0, 1.0, 1.0}; // column-major [[0.5, 1], [1, 1]]
        double B[2] = {1.5, 2.0};
        std::int32_t ipiv[2] = {-1, -1};
        std::int32_t info = -1;
        REQUIRE(tdls_batched_gesv(handle, TDLS_FLOAT64, TDLS_COL_MAJOR, 2, 1, A, 2, 4, ipiv, 2, B, 2, 2,
                                  &info, 1) == TDLS_SUCCESS);
        CHECK(info == 0);
        CHECK(B[0] == 1.0);
        CHECK(B[1] == 1.0);
        CHECK(ipiv[1] == 2);
        return ipiv[0];
    };
    CHECK(pivot_of(1.0) == 2);
    CHECK(pivot_of(0.25) == 1);
    CHECK(pivot_of(0.5) == 1); // 0.5 reaches 0.5 * 1 exactly
    CHECK(pivot_of(0.5000000000000001) == 2);
    checks += 4;
    CHECK(tdls_destroy(handle) == TDLS_SUCCESS);
    REQUIRE(checks == 8 + 3 + 4);
}

TEST_CASE("tdls_set_num_threads: 0 (all) and any positive count, same results", "[capi][handles][threads]") {
    int checks = 0;
    tdls_handle_t handle = nullptr;
    REQUIRE(tdls_create(&handle, TDLS_BACKEND_CPU, 0) == TDLS_SUCCESS);
    for (int threads : {-1, -64, INT_MIN}) {
        INFO("threads " << threads);
        CHECK(tdls_set_num_threads(handle, threads) == TDLS_ERROR_INVALID_VALUE);
        CHECK(starts_with(last_error(), "tdls_set_num_threads: "));
        CHECK(contains(last_error(), "threads (" + std::to_string(threads) + ")"));
        ++checks;
    }
    for (int threads : {0, 1, 2, 64, 2, 0}) {
        INFO("threads " << threads);
        CHECK(tdls_set_num_threads(handle, threads) == TDLS_SUCCESS);
        Batch b(batch_systems, batch_seed);
        CHECK(b.solve(handle) == TDLS_SUCCESS);
        CHECK(b == serial_reference());
        ++checks;
    }
    // Negative control of the comparison: another right-hand side differs.
    Batch other(batch_systems, batch_seed);
    other.B[0] += 1.0;
    REQUIRE(other.solve(handle) == TDLS_SUCCESS);
    CHECK_FALSE(other == serial_reference());
    ++checks;
    CHECK(tdls_destroy(handle) == TDLS_SUCCESS);
    REQUIRE(checks == 3 + 6 + 1);
}

TEST_CASE("many threads: own handles created, used and destroyed, and the default context",
          "[capi][handles][threads]") {
    const Batch& reference = serial_reference();
    constexpr int handle_threads = 8;
    constexpr int default_threads = 4;
    constexpr int rounds = 20;
    std::atomic<int> solved{0}, mismatches{0}, failures{0}, foreign_messages{0};
    std::atomic<bool> go{false};
    std::vector<std::thread> threads;
    for (int t = 0; t < handle_threads; ++t) {
        threads.emplace_back([&, t] {
            while (!go.load()) std::this_thread::yield();
            for (int round = 0; round < rounds; ++round) {
                tdls_handle_t handle = nullptr;
                const auto backend = (t + round) % 2 ? TDLS_BACKEND_CPU : TDLS_BACKEND_AUTO;
                if (tdls_create(&handle, backend, 0) != TDLS_SUCCESS) {
                    ++failures;
                    continue;
                }
                // Arenas of different sizes, created and dropped concurrently.
                if (tdls_set_num_threads(handle, (t + round) % 4) != TDLS_SUCCESS) ++failures;
                // A failure of this thread, with a value only this thread uses.
                const int bad = -(1000 + t * rounds + round);
                if (tdls_set_num_threads(handle, bad) != TDLS_ERROR_INVALID_VALUE) ++failures;
                const std::string expected = "threads (" + std::to_string(bad) + ")";
                Batch b(batch_systems, batch_seed);
                if (b.solve(handle) != TDLS_SUCCESS) ++failures;
                if (!(b == reference)) ++mismatches;
                // Other threads' failures meanwhile did not replace this thread's message.
                if (!contains(last_error(), expected)) ++foreign_messages;
                if (tdls_destroy(handle) != TDLS_SUCCESS) ++failures;
                ++solved;
            }
        });
    }
    for (int t = 0; t < default_threads; ++t) {
        threads.emplace_back([&] {
            while (!go.load()) std::this_thread::yield();
            for (int round = 0; round < rounds; ++round) {
                Batch b(batch_systems, batch_seed);
                if (b.solve(nullptr) != TDLS_SUCCESS) ++failures;
                if (!(b == reference)) ++mismatches;
                ++solved;
            }
        });
    }
    go.store(true);
    for (std::thread& thread : threads) thread.join();
    CHECK(failures.load() == 0);
    CHECK(mismatches.load() == 0);
    CHECK(foreign_messages.load() == 0);
    REQUIRE(solved.load() == (handle_threads + default_threads) * rounds);
}

TEST_CASE("handles destroyed or re-threaded while another thread solves with them", "[capi][handles][threads]") {
    // The contract asks for one thread per handle at a time; a program that
    // breaks it by destroying a handle (or changing its thread count) while
    // another thread is inside a call with it must still not free memory under
    // that call: the call finishes on the arena it started with. A call that
    // starts after the destroy gets INVALID_HANDLE (or, if the allocator gave
    // the address to a new handle meanwhile, runs on that live handle).
    const Batch& reference = serial_reference();
    constexpr int rounds = 40;
    std::atomic<int> solved{0}, refused{0}, mismatches{0}, failures{0};
    for (int round = 0; round < rounds; ++round) {
        tdls_handle_t handle = nullptr;
        REQUIRE(tdls_create(&handle, TDLS_BACKEND_CPU, 0) == TDLS_SUCCESS);
        REQUIRE(tdls_set_num_threads(handle, 2) == TDLS_SUCCESS);
        std::atomic<bool> started{false};
        std::thread solver([&] {
            for (int call = 0; call < 4; ++call) {
                Batch b(batch_systems, batch_seed);
                started.store(true);
                const tdls_status_t status = b.solve(handle);
                if (status == TDLS_SUCCESS) {
                    ++solved;
                    if (!(b == reference)) ++mismatches;
                } else if (status == TDLS_ERROR_INVALID_HANDLE) {
                    ++refused;
                } else {
                    ++failures;
                }
            }
        });
        while (!started.load()) std::this_thread::yield();
        if (round % 2 == 0) {
            // Change the arena under the running call, then destroy the handle.
            if (tdls_set_num_threads(handle, 3) != TDLS_SUCCESS) ++failures;
            if (tdls_set_num_threads(handle, 0) != TDLS_SUCCESS) ++failures;
        }
        if (tdls_destroy(handle) != TDLS_SUCCESS) ++failures;
        solver.join();
    }
    CHECK(failures.load() == 0);
    CHECK(mismatches.load() == 0);
    REQUIRE(solved.load() + refused.load() == rounds * 4);
    // Both outcomes happened (which call lands on which side is up to the scheduler).
    CHECK(solved.load() >= 1);
    CHECK(refused.load() >= 1);
}

TEST_CASE("handle create and destroy from many threads, handles passed between threads", "[capi][handles][threads]") {
    // Creators hand their handles to destroyers through a queue, so that each
    // handle is created on one thread and destroyed on another while more are
    // created; every handle is destroyed exactly once, a second destroy is refused.
    constexpr int creators = 4, per_creator = 200;
    std::vector<std::vector<tdls_handle_t>> made(creators);
    std::atomic<int> failures{0};
    std::vector<std::thread> threads;
    for (int c = 0; c < creators; ++c)
        threads.emplace_back([&, c] {
            for (int i = 0; i < per_creator; ++i) {
                tdls_handle_t h = nullptr;
                if (tdls_create(&h, i % 2 ? TDLS_BACKEND_CPU : TDLS_BACKEND_AUTO, 0) != TDLS_SUCCESS) ++failures;
                if (tdls_set_pivot_threshold(h, 0.5) != TDLS_SUCCESS) ++failures;
                made[c].push_back(h);
            }
        });
    for (std::thread& t : threads) t.join();
    threads.clear();
    std::atomic<int> destroyed{0}, refused{0};
    for (int c = 0; c < creators; ++c)
        threads.emplace_back([&, c] {
            // Destroy another creator's handles, while a sibling destroys these.
            for (tdls_handle_t h : made[(c + 1) % creators]) {
                if (tdls_destroy(h) == TDLS_SUCCESS) ++destroyed;
                tdls_backend_t backend;
                if (tdls_get_backend(h, &backend) == TDLS_ERROR_INVALID_HANDLE) ++refused;
            }
        });
    for (std::thread& t : threads) t.join();
    CHECK(failures.load() == 0);
    REQUIRE(destroyed.load() == creators * per_creator);
    CHECK(refused.load() == creators * per_creator);
    int second = 0;
    for (const auto& list : made)
        for (tdls_handle_t h : list) second += tdls_destroy(h) == TDLS_ERROR_INVALID_HANDLE;
    CHECK(second == creators * per_creator);
}
