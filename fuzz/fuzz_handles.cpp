// libtdls fuzzing: handles and the rest of the C ABI. The input is a
// program: a sequence of operations on four handle slots (create, destroy,
// set_stream, get_backend, set_pivot_threshold, set_num_threads, a small
// compute call through any entry point), interleaved with the stateless
// functions (status_name, status_string, backend_available, get_version),
// with raw enum values, NULL out-pointers, stale (destroyed) handles and
// invented ones. A model of the live handles gives each call's expected
// status; tdls_last_error() must name the function of every failed call and
// survive successful ones unchanged.
#include <tdls/tdls.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "support/input.hpp"
#include "support/oracle.hpp"
#include "support/raw_enums.h"

namespace {

using namespace tdls_fuzz;

constexpr int slot_count = 4;
constexpr std::size_t live_cap = 8; // handles alive at once (each may own a oneTBB arena)

/// What tdls_last_error() must return: the detail of this thread's last
/// failed call, for the whole process (the library keeps it across inputs).
std::string& last_failure() {
    static std::string detail = tdls_last_error();
    return detail;
}

/// After every library call: a failure's detail names the function and is
/// remembered; a success leaves the previous detail in place.
void after_call(const char* function, tdls_status_t status) {
    if (status != TDLS_SUCCESS) {
        check_last_error(function);
        last_failure() = tdls_last_error();
    } else {
        TDLS_FUZZ_CHECK(last_failure() == tdls_last_error(),
                        "%s succeeded but tdls_last_error() changed from \"%s\" to \"%s\"", function,
                        last_failure().c_str(), tdls_last_error());
    }
}

void expect(const char* function, tdls_status_t status, tdls_status_t expected) {
    TDLS_FUZZ_CHECK(status == expected, "%s returned %s, expected %s (\"%s\")", function,
                    tdls_status_name(status), tdls_status_name(expected),
                    status == TDLS_SUCCESS ? "" : tdls_last_error());
    after_call(function, status);
}

struct Model {
    tdls_handle_t slots[slot_count] = {};
    std::map<tdls_handle_t, tdls_backend_t> live;                  // handle -> backend it was created for
    std::unique_ptr<unsigned char> invented{new unsigned char(0)}; // a handle never created: 1 byte
    int stream_object = 0;                                         // what a non-NULL stream points to

    /// The handle an operation acts on: a slot (live, stale or never set),
    /// NULL (the default context) or the invented one.
    tdls_handle_t pick(std::uint8_t b) const {
        switch (b % 6) {
        case 4:
            return nullptr;
        case 5:
            return reinterpret_cast<tdls_handle_t>(invented.get());
        default:
            return slots[b % 6];
        }
    }
    bool is_live(tdls_handle_t h) const { return live.count(h) != 0; }
    /// NULL or live: what the functions taking a handle accept.
    bool usable(tdls_handle_t h) const { return h == nullptr || is_live(h); }
};

bool backend_is_gpu(std::int32_t backend) {
    return backend == TDLS_BACKEND_CUDA || backend == TDLS_BACKEND_HIP;
}

void do_create(Model& m, Input& in) {
    const int slot = in.byte() % slot_count;
    const bool null_out = in.one_in(16);
    const std::int32_t backend = in.enumerator(4);
    const std::uint8_t d = in.byte();
    const int device = d < 0xE0 ? 0 : (d & 1 ? -1 : (d & 2 ? 1 : in.raw<std::int32_t>()));
    if (m.live.size() >= live_cap && !null_out) return;

    const bool valid_backend = backend >= TDLS_BACKEND_AUTO && backend <= TDLS_BACKEND_HIP;
    const bool available = valid_backend && raw_backend_available(backend) == 1;
    // The failures that apply; the contract does not order create's checks.
    const bool invalid = null_out || !valid_backend || device < 0 ||
                         (valid_backend && !backend_is_gpu(backend) && device != 0);
    const bool unavailable = valid_backend && !available;
    tdls_handle_t sentinel = reinterpret_cast<tdls_handle_t>(&m.stream_object);
    tdls_handle_t out = sentinel;
    const tdls_status_t status = raw_create(null_out ? nullptr : &out, backend, device);
    if (!invalid && available && backend_is_gpu(backend)) {
        // A GPU backend that runs here: the device ordinal may not exist.
        TDLS_FUZZ_CHECK(status == TDLS_SUCCESS || status == TDLS_ERROR_INVALID_VALUE ||
                            status == TDLS_ERROR_BACKEND_UNAVAILABLE,
                        "tdls_create(backend %d, device %d) returned %s", backend, device,
                        tdls_status_name(status));
        after_call("tdls_create", status);
        if (status != TDLS_SUCCESS) return;
    } else if (!invalid && !unavailable) {
        expect("tdls_create", status, TDLS_SUCCESS);
    } else {
        TDLS_FUZZ_CHECK((invalid && status == TDLS_ERROR_INVALID_VALUE) ||
                            (unavailable && status == TDLS_ERROR_BACKEND_UNAVAILABLE),
                        "tdls_create(backend %d, device %d%s) returned %s", backend, device,
                        null_out ? ", NULL" : "", tdls_status_name(status));
        after_call("tdls_create", status);
        TDLS_FUZZ_CHECK(out == sentinel, "tdls_create failed but wrote the handle");
        return;
    }
    TDLS_FUZZ_CHECK(out != nullptr && out != sentinel && !m.is_live(out),
                    "tdls_create succeeded without a new handle");
    m.live[out] = tdls_backend_t(backend);
    m.slots[slot] = out;
}

void do_destroy(Model& m, Input& in) {
    const tdls_handle_t h = m.pick(in.byte());
    const tdls_status_t status = tdls_destroy(h);
    expect("tdls_destroy", status, m.usable(h) ? TDLS_SUCCESS : TDLS_ERROR_INVALID_HANDLE);
    m.live.erase(h);
}

void do_set_stream(Model& m, Input& in) {
    const tdls_handle_t h = m.pick(in.byte());
    void* stream = in.one_in(2) ? nullptr : &m.stream_object;
    const tdls_status_t status = tdls_set_stream(h, stream);
    if (h == nullptr || !m.is_live(h)) return expect("tdls_set_stream", status, TDLS_ERROR_INVALID_HANDLE);
    const tdls_backend_t backend = m.live[h];
    if (stream == nullptr) return expect("tdls_set_stream", status, TDLS_SUCCESS);
    if (backend == TDLS_BACKEND_CPU) return expect("tdls_set_stream", status, TDLS_ERROR_NOT_SUPPORTED);
    // AUTO: the contract leaves a stream's fate to the developers.
    TDLS_FUZZ_CHECK(status == TDLS_SUCCESS || status == TDLS_ERROR_NOT_SUPPORTED,
                    "tdls_set_stream on an AUTO handle returned %s", tdls_status_name(status));
    after_call("tdls_set_stream", status);
}

void do_get_backend(Model& m, Input& in) {
    const tdls_handle_t h = m.pick(in.byte());
    const bool null_out = in.one_in(8);
    const std::int32_t sentinel = 0x5A5A5A5A;
    tdls_backend_t out;
    std::memcpy(&out, &sentinel, sizeof out); // not a tdls_backend_t value: written or not
    const tdls_status_t status = tdls_get_backend(h, null_out ? nullptr : &out);
    std::int32_t written;
    std::memcpy(&written, &out, sizeof written);
    if (!m.usable(h) && null_out) {
        TDLS_FUZZ_CHECK(status == TDLS_ERROR_INVALID_HANDLE || status == TDLS_ERROR_INVALID_VALUE,
                        "tdls_get_backend(stale, NULL) returned %s", tdls_status_name(status));
        return after_call("tdls_get_backend", status);
    }
    if (!m.usable(h))
        expect("tdls_get_backend", status, TDLS_ERROR_INVALID_HANDLE);
    else if (null_out)
        expect("tdls_get_backend", status, TDLS_ERROR_INVALID_VALUE);
    else {
        expect("tdls_get_backend", status, TDLS_SUCCESS);
        const std::int32_t backend = h == nullptr ? TDLS_BACKEND_AUTO : m.live[h];
        TDLS_FUZZ_CHECK(written == backend, "tdls_get_backend gave %d for a handle created for %d", written,
                        backend);
        return;
    }
    TDLS_FUZZ_CHECK(written == sentinel, "tdls_get_backend failed but wrote the backend");
}

double decode_tau(Input& in) {
    const std::uint8_t b = in.byte();
    constexpr double nan = std::numeric_limits<double>::quiet_NaN();
    constexpr double inf = std::numeric_limits<double>::infinity();
    const double values[] = {1.0,
                             0.5,
                             1e-300,
                             0.0,
                             -0.0,
                             nan,
                             inf,
                             -inf,
                             1.0 + 1e-16,
                             1.0000000000000002,
                             std::numeric_limits<double>::denorm_min(),
                             -1.0,
                             0.999999,
                             -nan};
    constexpr int count = sizeof values / sizeof values[0];
    if (b < 0xC0) return values[b % count];
    return in.raw<double>();
}

void do_set_pivot_threshold(Model& m, Input& in) {
    const tdls_handle_t h = m.pick(in.byte());
    const double tau = decode_tau(in);
    const tdls_status_t status = tdls_set_pivot_threshold(h, tau);
    if (h == nullptr || !m.is_live(h))
        return expect("tdls_set_pivot_threshold", status, TDLS_ERROR_INVALID_HANDLE);
    expect("tdls_set_pivot_threshold", status,
           tau > 0.0 && tau <= 1.0 ? TDLS_SUCCESS : TDLS_ERROR_INVALID_VALUE);
}

void do_set_num_threads(Model& m, Input& in) {
    const tdls_handle_t h = m.pick(in.byte());
    const int values[] = {
        0, 1, 2, -1, 1, 3, std::numeric_limits<int>::min(), 0, 2, std::numeric_limits<int>::max()};
    const int threads = values[in.byte() % 10];
    const tdls_status_t status = tdls_set_num_threads(h, threads);
    if (h == nullptr || !m.is_live(h))
        return expect("tdls_set_num_threads", status, TDLS_ERROR_INVALID_HANDLE);
    expect("tdls_set_num_threads", status, threads >= 0 ? TDLS_SUCCESS : TDLS_ERROR_INVALID_VALUE);
}

void do_status_text(Input& in) {
    static const char* const names[] = {"TDLS_SUCCESS",
                                        "TDLS_ERROR_INVALID_HANDLE",
                                        "TDLS_ERROR_INVALID_VALUE",
                                        "TDLS_ERROR_NOT_SUPPORTED",
                                        "TDLS_ERROR_BACKEND_UNAVAILABLE",
                                        "TDLS_ERROR_ALLOCATION",
                                        "TDLS_ERROR_EXECUTION",
                                        "TDLS_ERROR_INTERNAL"};
    const std::uint8_t b = in.byte();
    const std::int32_t s = b < 0xE0 ? std::int32_t(b % 10) - 1 : in.raw<std::int32_t>();
    const char* name = raw_status_name(s);
    const char* sentence = raw_status_string(s);
    const char* expected = s >= 0 && s < 8 ? names[s] : "TDLS_UNKNOWN_STATUS";
    TDLS_FUZZ_CHECK(name != nullptr && std::strcmp(name, expected) == 0,
                    "tdls_status_name(%d) = \"%s\", not \"%s\"", s, name ? name : "(null)", expected);
    TDLS_FUZZ_CHECK(sentence != nullptr && sentence[0] != '\0', "tdls_status_string(%d) is empty", s);
    TDLS_FUZZ_CHECK(last_failure() == tdls_last_error(), "tdls_status_name changed tdls_last_error()");
}

void do_backend_available(Input& in) {
    const std::int32_t backend = in.enumerator(4);
    const int available = raw_backend_available(backend);
    if (backend == TDLS_BACKEND_AUTO || backend == TDLS_BACKEND_CPU)
        TDLS_FUZZ_CHECK(available == 1, "tdls_backend_available(%d) = %d, AUTO and CPU are always usable",
                        backend, available);
    else if (backend_is_gpu(backend))
        TDLS_FUZZ_CHECK(available == 0 || available == 1, "tdls_backend_available(%d) = %d", backend,
                        available);
    else
        TDLS_FUZZ_CHECK(available == 0, "tdls_backend_available(%d), not a backend, = %d", backend,
                        available);
}

void do_get_version(Input& in) {
    const std::uint8_t which = in.byte();
    int major = -1, minor = -1, patch = -1;
    tdls_get_version(which & 1 ? &major : nullptr, which & 2 ? &minor : nullptr,
                     which & 4 ? &patch : nullptr);
    TDLS_FUZZ_CHECK(major == (which & 1 ? TDLS_VERSION_MAJOR : -1) &&
                        minor == (which & 2 ? TDLS_VERSION_MINOR : -1) &&
                        patch == (which & 4 ? TDLS_VERSION_PATCH : -1),
                    "tdls_get_version gave %d.%d.%d (mask %d)", major, minor, patch, which & 7);
}

/// A small valid call through one of the five compute entry points: the
/// handle decides (NULL or live: solved; stale or invented: refused, with
/// nothing touched).
void do_compute(Model& m, Input& in) {
    const tdls_handle_t h = m.pick(in.byte());
    const std::uint8_t which = in.byte();
    const std::int64_t n = 1 + which % 4, nrhs = 1, batch = 2;
    const std::int32_t layout = (which >> 2) & 1;
    const std::int64_t ldb = layout == TDLS_ROW_MAJOR ? nrhs : n; // one system's B: n elements either way
    std::vector<double> A(std::size_t(n * n * batch)), B(std::size_t(n * nrhs * batch));
    for (std::size_t i = 0; i < A.size(); ++i)
        A[i] = (i % std::size_t(n + 1) == 0) ? 4.0 : double(in.byte() % 5) - 2;
    for (double& b : B) b = double(in.byte() % 7) - 3;
    std::vector<std::int32_t> ipiv(std::size_t(n * batch)), info(std::size_t(batch), -9);
    for (std::size_t k = 0; k < ipiv.size(); ++k)
        ipiv[k] = std::int32_t(k % std::size_t(n)) + 1; // no interchange
    const std::vector<double> A0 = A, B0 = B;
    const std::vector<std::int32_t> ipiv0 = ipiv, info0 = info;
    void* A_array[2] = {A.data(), A.data() + n * n};
    void* B_array[2] = {B.data(), B.data() + n};
    std::int32_t* ipiv_array[2] = {ipiv.data(), ipiv.data() + n};
    tdls_status_t status;
    const char* function;
    switch ((which >> 3) % 5) {
    case 0:
        function = "tdls_batched_gesv";
        status = raw_gesv(h, TDLS_FLOAT64, layout, n, nrhs, A.data(), n, n * n, ipiv.data(), n, B.data(), ldb,
                          n, info.data(), batch);
        break;
    case 1:
        function = "tdls_batched_gesv_ptr";
        status = raw_gesv_ptr(h, TDLS_FLOAT64, layout, n, nrhs, A_array, n, ipiv_array, B_array, ldb,
                              info.data(), batch);
        break;
    case 2:
        function = "tdls_batched_gesv_interleaved";
        status = raw_gesv_interleaved(h, TDLS_FLOAT64, layout, n, nrhs, A.data(), ipiv.data(), B.data(),
                                      info.data(), batch, 2);
        break;
    case 3:
        function = "tdls_batched_getrf";
        status =
            raw_getrf(h, TDLS_FLOAT64, layout, n, A.data(), n, n * n, ipiv.data(), n, info.data(), batch);
        break;
    default:
        function = "tdls_batched_getrs";
        status = raw_getrs(h, TDLS_FLOAT64, layout, n, nrhs, A.data(), n, n * n, ipiv.data(), n, B.data(),
                           ldb, n, batch);
        break;
    }
    if (m.usable(h)) {
        expect(function, status, TDLS_SUCCESS);
        return;
    }
    expect(function, status, TDLS_ERROR_INVALID_HANDLE);
    TDLS_FUZZ_CHECK(A == A0 && B == B0 && ipiv == ipiv0 && info == info0,
                    "%s with a stale handle changed an operand", function);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    Input in(data, size);
    Model m;
    for (int step = 0; step < 64 && in.remaining() > 0; ++step) {
        switch (in.byte() % 10) {
        case 0:
            do_create(m, in);
            break;
        case 1:
            do_destroy(m, in);
            break;
        case 2:
            do_set_stream(m, in);
            break;
        case 3:
            do_get_backend(m, in);
            break;
        case 4:
            do_set_pivot_threshold(m, in);
            break;
        case 5:
            do_set_num_threads(m, in);
            break;
        case 6:
            do_status_text(in);
            break;
        case 7:
            do_backend_available(in);
            break;
        case 8:
            do_get_version(in);
            break;
        default:
            do_compute(m, in);
            break;
        }
    }
    // Every handle still alive is destroyed: the next input starts clean.
    while (!m.live.empty()) {
        const tdls_handle_t h = m.live.begin()->first;
        expect("tdls_destroy", tdls_destroy(h), TDLS_SUCCESS);
        m.live.erase(h);
    }
    return 0;
}
