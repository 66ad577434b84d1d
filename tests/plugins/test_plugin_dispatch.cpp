// The core's side of a GPU call (src/placement.cpp, src/backends/plugin/
// gpu_backend.cpp) against the stand-in plugin, whose "device memory" is an
// arena it claims through locate: which backend a call goes to (AUTO by
// residency, explicit handles), what the plugin receives (every argument, the
// handle's stream and threshold, the device), what is refused before the
// plugin is called (operands in different places, host memory for a GPU
// handle, device memory for a CPU handle, a device out of range), that device
// operands are never read by the host (pointer-array entries, getrs pivots),
// and that the plugin's failures reach the caller with its sentence.
//
// Usage: test_plugin_dispatch <directory of the stand-in libtdls_cuda.so with a device>.
#include <tdls/tdls.h>

#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "plugin_abi.h"
#include "plain_checks.hpp"

namespace {

using tdls_test::check;
using tdls_test::checks;
using tdls_test::contains;
using tdls_test::failures;

/// The stand-in plugin, as the library loaded it.
struct StandIn {
    unsigned char* arena = nullptr;
    std::size_t bytes = 0;
    int (*solve_calls)() = nullptr;
    const tdls_plugin_call* (*last_call)() = nullptr;

    explicit StandIn(const std::string& dir) {
        const std::string path = dir + "/libtdls_cuda.so";
        void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD);
        if (library == nullptr) return;
        auto arena_of = reinterpret_cast<void* (*)(std::size_t*)>(dlsym(library, "fake_plugin_arena"));
        solve_calls = reinterpret_cast<int (*)()>(dlsym(library, "fake_plugin_solve_calls"));
        last_call = reinterpret_cast<const tdls_plugin_call* (*)()>(dlsym(library, "fake_plugin_last_call"));
        if (arena_of) arena = static_cast<unsigned char*>(arena_of(&bytes));
    }
    bool ok() const { return arena != nullptr && solve_calls != nullptr && last_call != nullptr; }
    /// Device "allocation" at a byte offset of the arena.
    template <typename T>
    T* at(std::size_t offset) const {
        return reinterpret_cast<T*>(arena + offset);
    }
};

/// Runs a call and reports whether the plugin was reached.
template <typename Call>
bool reached(const StandIn& p, Call&& call, tdls_status_t expected, const std::string& what,
             const std::string& message_part = "") {
    const int before = p.solve_calls();
    const tdls_status_t s = call();
    const std::string message = tdls_last_error();
    check(s == expected, what + ": status " + tdls_status_name(s) + ", expected " + tdls_status_name(expected) +
                             " (" + message + ")");
    if (!message_part.empty())
        check(contains(message, message_part), what + ": message '" + message + "' contains '" + message_part + "'");
    return p.solve_calls() == before + 1;
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s <stand-in plugin directory>\n", argv[0]);
        return 2;
    }
    const std::string dir = argv[1];
    setenv("TDLS_PLUGIN_DIR", dir.c_str(), 1);
    check(tdls_backend_available(TDLS_BACKEND_CUDA) == 1, "the stand-in's CUDA backend is available");
    const StandIn p(dir);
    if (!p.ok()) {
        std::fprintf(stderr, "FAILED: the stand-in plugin is not loaded from %s\n", dir.c_str());
        return 1;
    }
    constexpr int n = 4, nrhs = 2, batch = 3, lda = 5, ldb = 6;
    double* A = p.at<double>(0);
    int32_t* ipiv = p.at<int32_t>(4096);
    double* B = p.at<double>(8192);
    int32_t* info = p.at<int32_t>(12288);
    double host_B[ldb * nrhs * batch] = {};
    double host_A[lda * n * batch] = {};
    int32_t host_info[batch] = {};

    // AUTO (the NULL handle) sends device operands to the plugin, untouched by the host.
    std::memset(p.arena, 0xA5, 16384);
    const bool auto_reached = reached(
        p,
        [&] {
            return tdls_batched_gesv(nullptr, TDLS_FLOAT64, TDLS_ROW_MAJOR, n, nrhs, A, lda, lda * n + 1, ipiv, n + 2,
                                     B, ldb, ldb * n + 3, info, batch);
        },
        TDLS_SUCCESS, "AUTO on device memory");
    check(auto_reached, "AUTO on device memory reaches the plugin");
    const tdls_plugin_call& c = *p.last_call();
    check(c.operation == TDLS_PLUGIN_GESV && c.dtype == TDLS_FLOAT64 && c.row_major == 1 &&
              c.form == TDLS_PLUGIN_STRIDED,
          "operation, type, layout, form");
    check(c.n == n && c.nrhs == nrhs && c.batch == batch, "sizes");
    check(c.A == A && c.lda == lda && c.strideA == lda * n + 1, "A");
    check(c.ipiv == ipiv && c.strideIpiv == n + 2, "ipiv");
    check(c.B == B && c.ldb == ldb && c.strideB == ldb * n + 3, "B");
    check(c.info == info && c.device == 0 && c.stream == nullptr && c.pivot_threshold == 1.0,
          "info, device 0, default stream, tau 1");
    unsigned char untouched[16384];
    std::memset(untouched, 0xA5, sizeof untouched);
    check(std::memcmp(p.arena, untouched, sizeof untouched) == 0, "the host wrote no device operand");

    // An explicit CUDA handle passes its stream and threshold.
    tdls_handle_t h = nullptr;
    check(tdls_create(&h, TDLS_BACKEND_CUDA, 0) == TDLS_SUCCESS, "CUDA handle");
    void* const stream = reinterpret_cast<void*>(std::uintptr_t(0x5eed));
    check(tdls_set_stream(h, stream) == TDLS_SUCCESS, "stream set");
    check(tdls_set_pivot_threshold(h, 0.25) == TDLS_SUCCESS, "threshold set");
    check(reached(
              p,
              [&] {
                  return tdls_batched_gesv_interleaved(h, TDLS_FLOAT32, TDLS_COL_MAJOR, n, 1, A, ipiv, B, info, 70,
                                                       32);
              },
              TDLS_SUCCESS, "CUDA handle, interleaved"),
          "the CUDA handle reaches the plugin");
    check(p.last_call()->stream == stream && p.last_call()->pivot_threshold == 0.25 &&
              p.last_call()->form == TDLS_PLUGIN_INTERLEAVED && p.last_call()->block == 32 &&
              p.last_call()->dtype == TDLS_FLOAT32 && p.last_call()->row_major == 0,
          "stream, threshold, interleaved block and type reach the plugin");

    // Complex goes to the plugin like the real types, its dtype intact; the
    // host writes no device operand.
    std::memset(p.arena, 0xA5, 16384);
    for (const tdls_dtype_t complex_type : {TDLS_COMPLEX64, TDLS_COMPLEX128}) {
        check(reached(
                  p,
                  [&] {
                      return tdls_batched_gesv_interleaved(h, complex_type, TDLS_COL_MAJOR, n, 1, A, ipiv, B, info,
                                                           70, 32);
                  },
                  TDLS_SUCCESS, "complex, CUDA handle"),
              "a complex call on the CUDA handle reaches the plugin");
        check(p.last_call()->dtype == complex_type && p.last_call()->form == TDLS_PLUGIN_INTERLEAVED,
              "the complex type reaches the plugin");
    }
    check(std::memcmp(p.arena, untouched, sizeof untouched) == 0, "a complex call's host side wrote no device operand");

    // Device pointer arrays are not read by the host: NULL entries and all.
    void** A_array = p.at<void*>(20000 & ~7);
    std::memset(A_array, 0, 64);
    check(reached(
              p,
              [&] {
                  return tdls_batched_gesv_ptr(h, TDLS_FLOAT64, TDLS_COL_MAJOR, n, 0, A_array, n, nullptr, nullptr,
                                               n, info, 8);
              },
              TDLS_SUCCESS, "device pointer arrays with NULL entries"),
          "pointer arrays reach the plugin unread");
    // getrs on device pivots that would be refused on the host (zeros).
    std::memset(ipiv, 0, 64);
    check(reached(
              p,
              [&] {
                  return tdls_batched_getrs(nullptr, TDLS_FLOAT64, TDLS_COL_MAJOR, n, 1, A, n, n * n, ipiv, n, B, n,
                                            n, 2);
              },
              TDLS_SUCCESS, "getrs on device pivots"),
          "getrs reaches the plugin without reading the pivots");
    check(p.last_call()->operation == TDLS_PLUGIN_GETRS && p.last_call()->info == nullptr, "getrs, no info");
    // The solve forms reach the plugin as TDLS_PLUGIN_SOLVE, with no pivots.
    check(reached(
              p,
              [&] {
                  return tdls_batched_solve(nullptr, TDLS_FLOAT64, TDLS_ROW_MAJOR, n, nrhs, A, lda, lda * n, B, ldb,
                                            ldb * n, info, batch);
              },
              TDLS_SUCCESS, "solve on device memory"),
          "solve reaches the plugin");
    check(p.last_call()->operation == TDLS_PLUGIN_SOLVE && p.last_call()->form == TDLS_PLUGIN_STRIDED &&
              p.last_call()->ipiv == nullptr && p.last_call()->A == A && p.last_call()->B == B &&
              p.last_call()->info == info && p.last_call()->row_major == 1,
          "solve: operation, form, no pivots, operands");
    check(reached(
              p,
              [&] {
                  return tdls_batched_solve_interleaved(h, TDLS_FLOAT32, TDLS_COL_MAJOR, n, 1, A, B, info, 70, 32);
              },
              TDLS_SUCCESS, "interleaved solve"),
          "the interleaved solve reaches the plugin");
    check(p.last_call()->operation == TDLS_PLUGIN_SOLVE && p.last_call()->form == TDLS_PLUGIN_INTERLEAVED &&
              p.last_call()->ipiv == nullptr && p.last_call()->block == 32,
          "interleaved solve: operation, form, block, no pivots");
    check(reached(
              p,
              [&] {
                  return tdls_batched_solve_ptr(h, TDLS_FLOAT64, TDLS_COL_MAJOR, n, 0, A_array, n, nullptr, n, info,
                                                8);
              },
              TDLS_SUCCESS, "pointer-array solve"),
          "the pointer-array solve reaches the plugin");
    check(p.last_call()->operation == TDLS_PLUGIN_SOLVE && p.last_call()->form == TDLS_PLUGIN_POINTERS &&
              p.last_call()->ipiv_array == nullptr,
          "pointer-array solve: operation, form, no pivot array");
    std::memset(untouched, 0, 64); // what the A_array region holds
    check(std::memcmp(A_array, untouched, 64) == 0, "the solve's device pointer array was not written");
    // n == 0 still clears info: on the device, so by the plugin.
    check(reached(
              p,
              [&] {
                  return tdls_batched_gesv(nullptr, TDLS_FLOAT64, TDLS_COL_MAJOR, 0, 1, A, 1, 1, ipiv, 1, B, 1, 1,
                                           info, 5);
              },
              TDLS_SUCCESS, "n = 0 on device"),
          "n = 0 reaches the plugin, which clears info");
    check(p.last_call()->n == 0 && p.last_call()->batch == 5, "n = 0, batch 5");

    // The plugin's failure reaches the caller with its sentence and the backend's name.
    check(reached(
              p,
              [&] {
                  return tdls_batched_gesv(nullptr, TDLS_FLOAT64, TDLS_COL_MAJOR, 13, 1, A, 13, 169, ipiv, 13, B,
                                           13, 13, info, 1);
              },
              TDLS_ERROR_EXECUTION, "plugin failure", "tdls_batched_gesv: cuda backend: stand-in launch failure"),
          "the failing call reached the plugin");

    // Refused before the plugin: operands in different places, host memory for
    // a CUDA handle, device memory for a CPU handle, invalid arguments first.
    const auto mixed = [&] {
        return tdls_batched_gesv(nullptr, TDLS_FLOAT64, TDLS_COL_MAJOR, n, 1, A, n, n * n, ipiv, n, host_B, n, n,
                                 info, 1);
    };
    check(!reached(p, mixed, TDLS_ERROR_INVALID_VALUE, "A on the device, B on the host",
                   "operands live in different places: A in CUDA device 0 memory, B in host memory"),
          "mixed operands never reach the plugin");
    const auto host_for_cuda = [&] {
        return tdls_batched_gesv(h, TDLS_FLOAT64, TDLS_COL_MAJOR, n, 1, host_A, n, n * n, nullptr, n, host_B, n, n,
                                 host_info, 1);
    };
    check(!reached(p, host_for_cuda, TDLS_ERROR_INVALID_VALUE, "host memory for a CUDA handle",
                   "A is host memory, but the handle's backend runs on CUDA device 0 memory"),
          "host memory never reaches the plugin");
    tdls_handle_t cpu = nullptr;
    check(tdls_create(&cpu, TDLS_BACKEND_CPU, 0) == TDLS_SUCCESS, "CPU handle");
    const auto device_for_cpu = [&] {
        return tdls_batched_gesv(cpu, TDLS_FLOAT64, TDLS_COL_MAJOR, n, 1, A, n, n * n, ipiv, n, B, n, n, info, 1);
    };
    check(!reached(p, device_for_cpu, TDLS_ERROR_INVALID_VALUE, "device memory for a CPU handle",
                   "A is CUDA device 0 memory, but the handle's backend runs on host memory"),
          "a CPU handle never runs on device memory");
    const auto bad_lda = [&] {
        return tdls_batched_gesv(nullptr, TDLS_FLOAT64, TDLS_COL_MAJOR, n, 1, A, n - 1, n * n, ipiv, n, host_B, n,
                                 n, info, 1);
    };
    check(!reached(p, bad_lda, TDLS_ERROR_INVALID_VALUE, "bad lda and mixed operands", "lda (3) < n (4)"),
          "argument checks come before the residency checks");
    tdls_handle_t other = nullptr;
    check(tdls_create(&other, TDLS_BACKEND_CUDA, 1) == TDLS_ERROR_INVALID_VALUE &&
              contains(tdls_last_error(), "device (1) >= the 1 device(s)"),
          "a device past the plugin's count is refused: " + std::string(tdls_last_error()));
    check(tdls_set_stream(cpu, stream) == TDLS_ERROR_NOT_SUPPORTED, "a CPU handle takes no stream");

    // A host pointer array holding device pointers is a GPU call spelled
    // wrong: refused, never run on the CPU (which would fault on them).
    void* host_A_array[batch] = {A, A + 16, A + 32};
    void* host_B_array[batch] = {host_B, host_B + 8, B};
    const auto host_array_device_entries = [&] {
        return tdls_batched_gesv_ptr(nullptr, TDLS_FLOAT64, TDLS_COL_MAJOR, n, 1, host_A_array, n, nullptr,
                                     host_B_array, n, host_info, batch);
    };
    check(!reached(p, host_array_device_entries, TDLS_ERROR_INVALID_VALUE, "host A_array of device pointers",
                   "A_array is in host memory, but A_array[0] points to CUDA device 0 memory"),
          "a host array of device pointers never reaches the plugin");
    // Entry 0 on the host, the last one on the device: the second probe.
    void* host_A_array2[batch] = {host_A, host_A + 20, host_A + 40};
    const auto last_entry_on_device = [&] {
        return tdls_batched_gesv_ptr(cpu, TDLS_FLOAT64, TDLS_COL_MAJOR, n, 1, host_A_array2, n, nullptr,
                                     host_B_array, n, host_info, batch);
    };
    check(!reached(p, last_entry_on_device, TDLS_ERROR_INVALID_VALUE, "host B_array, last entry on the device",
                   "B_array[2] points to CUDA device 0 memory"),
          "the last entry is probed too");
    // Factoring only (nrhs = 0) does not read B: its array's entries are not asked about.
    for (double& x : host_A) x = 1.0;
    for (int k = 0; k < batch; ++k)
        for (int i = 0; i < n; ++i) host_A[k * lda * n + i * (lda + 1)] = 4.0;
    host_info[0] = host_info[2] = -7;
    const auto factor_ignores_b = [&] {
        return tdls_batched_gesv_ptr(cpu, TDLS_FLOAT64, TDLS_COL_MAJOR, n, 0, host_A_array2, lda, nullptr,
                                     host_B_array, n, host_info, batch);
    };
    check(!reached(p, factor_ignores_b, TDLS_SUCCESS, "control: host arrays of host pointers run on the CPU"),
          "host arrays of host pointers stay on the CPU");
    check(host_info[0] == 0 && host_info[2] == 0, "the CPU factored them");

    // The CPU backend still solves host memory under AUTO.
    double a2[4] = {2, 1, 1, 3}, b2[2] = {4, 7};
    int32_t info2 = -1;
    check(tdls_batched_gesv(nullptr, TDLS_FLOAT64, TDLS_COL_MAJOR, 2, 1, a2, 2, 4, nullptr, 2, b2, 2, 2, &info2,
                            1) == TDLS_SUCCESS &&
              info2 == 0 && b2[0] == 1 && b2[1] == 2,
          "AUTO on host memory runs on the CPU");
    // Negative control: the message check sees a wrong expectation.
    check(!contains(tdls_last_error(), "an expectation no message meets"), "negative control");

    tdls_destroy(h);
    tdls_destroy(cpu);
    std::printf("plugin dispatch: %d checks, %d failed, %d plugin calls\n", checks, failures, p.solve_calls());
    // 11 calls: 2 complex, 3 solves.
    return failures == 0 && checks >= 70 && p.solve_calls() == 11 ? 0 : 1;
}
