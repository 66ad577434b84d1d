// The GPU plugin loader (src/backends/plugin/loader.hpp) against stand-in
// plugins (fake_plugin.c): a plugin without a device, with one, speaking
// another ABI version, without the entry point, and no plugin at all. In each
// case the first calls of the process come from 16 threads at once; all must
// get the same answers, the plugin must be opened and asked exactly once, the
// failures must say why, and the CPU backend must work as always.
//
// Usage: test_plugin_loader <case> <plugin directory>; a plain main, so that
// nothing calls the library before the threads (the loader runs once).
#include <tdls/tdls.h>

#include <dlfcn.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "released_together.hpp"
#include "plain_checks.hpp"

namespace {

using tdls_test::check;
using tdls_test::checks;
using tdls_test::contains;
using tdls_test::failures;

struct Answers {
    int cuda_available = -1, hip_available = -1;
    tdls_status_t create = TDLS_ERROR_INTERNAL, hip_create = TDLS_ERROR_INTERNAL;
    std::string create_message, hip_message;
    tdls_status_t gpu_solve = TDLS_ERROR_INTERNAL;
    std::string gpu_solve_message;
};

/// A 2x2 system on the default context (the CPU): x = (1, 2).
bool cpu_solves() {
    double A[4] = {2, 1, 1, 3}; // column-major [[2, 1], [1, 3]]
    double B[2] = {4, 7};
    int32_t ipiv[2] = {0, 0}, info = -1;
    const tdls_status_t s =
        tdls_batched_gesv(nullptr, TDLS_FLOAT64, TDLS_COL_MAJOR, 2, 1, A, 2, 4, ipiv, 2, B, 2, 2, &info, 1);
    return s == TDLS_SUCCESS && info == 0 && std::fabs(B[0] - 1) < 1e-14 && std::fabs(B[1] - 2) < 1e-14;
}

Answers first_calls() {
    Answers a;
    a.cuda_available = tdls_backend_available(TDLS_BACKEND_CUDA);
    tdls_handle_t h = nullptr;
    a.create = tdls_create(&h, TDLS_BACKEND_CUDA, 0);
    a.create_message = tdls_last_error();
    if (a.create == TDLS_SUCCESS) {
        float A[1] = {2}, B[1] = {1};
        int32_t info = -1;
        a.gpu_solve =
            tdls_batched_gesv(h, TDLS_FLOAT32, TDLS_COL_MAJOR, 1, 1, A, 1, 1, nullptr, 1, B, 1, 1, &info, 1);
        a.gpu_solve_message = tdls_last_error();
        tdls_destroy(h);
    }
    a.hip_available = tdls_backend_available(TDLS_BACKEND_HIP);
    tdls_handle_t g = nullptr;
    a.hip_create = tdls_create(&g, TDLS_BACKEND_HIP, 0);
    a.hip_message = tdls_last_error();
    return a;
}

bool same(const Answers& x, const Answers& y) {
    return x.cuda_available == y.cuda_available && x.hip_available == y.hip_available && x.create == y.create &&
           x.hip_create == y.hip_create && x.create_message == y.create_message && x.hip_message == y.hip_message &&
           x.gpu_solve == y.gpu_solve && x.gpu_solve_message == y.gpu_solve_message;
}

/// How often the stand-in plugin was called (-1: it is not loaded).
int plugin_count(const std::string& dir, const char* counter) {
    const std::string path = dir + "/libtdls_cuda.so";
    void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD);
    if (library == nullptr) return -1;
    const auto f = reinterpret_cast<int (*)()>(dlsym(library, counter));
    const int count = f ? f() : -2;
    dlclose(library);
    return count;
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: %s nodevice|device|wrongabi|noentry|missing <plugin dir>\n", argv[0]);
        return 2;
    }
    const std::string which = argv[1], dir = argv[2];
    setenv("TDLS_PLUGIN_DIR", dir.c_str(), 1);

    constexpr int thread_count = 16;
    std::vector<Answers> answers(thread_count);
    tdls_test::run_released_together(thread_count, [&](int t) { answers[t] = first_calls(); });

    for (int t = 1; t < thread_count; ++t)
        check(same(answers[t], answers[0]), "thread " + std::to_string(t) + " got other answers than thread 0");
    const Answers& a = answers[0];
    check(same(first_calls(), a), "a later call got other answers than the first ones");
    check(cpu_solves(), "the CPU backend solves with the plugin " + which);
    check(tdls_backend_available(TDLS_BACKEND_CPU) == 1, "CPU available");

    // HIP: never a stand-in here, so always the missing-plugin path.
    check(a.hip_available == 0, "HIP unavailable");
    check(a.hip_create == TDLS_ERROR_BACKEND_UNAVAILABLE, "HIP create refused");
    check(contains(a.hip_message, "cannot load") && contains(a.hip_message, dir + "/libtdls_hip.so"),
          "HIP message names the file it looked for: " + a.hip_message);

    const bool loads = which != "missing";
    const bool has_entry = loads && which != "noentry";
    if (has_entry) {
        check(plugin_count(dir, "fake_plugin_entry_calls") == 1,
              "entry point called once, was " + std::to_string(plugin_count(dir, "fake_plugin_entry_calls")));
    }
    if (which == "nodevice" || which == "device")
        check(plugin_count(dir, "fake_plugin_device_count_calls") == 1, "devices counted once");

    if (which == "device") {
        check(a.cuda_available == 1, "CUDA available with a device");
        check(a.create == TDLS_SUCCESS, "CUDA handle created: " + a.create_message);
        // Host operands for a CUDA handle: refused before the plugin sees them
        // (test_plugin_dispatch covers the calls that reach it).
        check(a.gpu_solve == TDLS_ERROR_INVALID_VALUE && contains(a.gpu_solve_message, "A is host memory"),
              "a CUDA call on host memory is refused: " + a.gpu_solve_message);
    } else {
        check(a.cuda_available == 0, "CUDA unavailable");
        check(a.create == TDLS_ERROR_BACKEND_UNAVAILABLE, "CUDA create refused");
        std::string expected;
        if (which == "nodevice") expected = "no cuda device (cudaGetDeviceCount: stand-in error 35)";
        if (which == "wrongabi") expected = "does not speak plugin ABI version 3 (it offers version 2)";
        if (which == "noentry") expected = "exports no tdls_plugin_entry";
        if (which == "missing") expected = "cannot load " + dir + "/libtdls_cuda.so";
        check(contains(a.create_message, expected),
              "message '" + a.create_message + "' contains '" + expected + "'");
        check(contains(a.create_message, "tdls_create: backend (2) is unavailable"), "message names the call");
    }
    // Negative control: the message check sees a wrong expectation.
    check(!contains(a.create_message, "an expectation no message meets"), "negative control");

    std::printf("plugin loader, %s: %d threads, %d checks, %d failed\n", which.c_str(), thread_count, checks,
                failures);
    return failures == 0 && checks >= 10 ? 0 : 1;
}
