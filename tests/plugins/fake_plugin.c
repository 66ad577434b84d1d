/* A stand-in GPU plugin for the loader's and the dispatch's tests: the real
 * plugins' entry point and table (src/backends/plugin/plugin_abi.h), with
 * behaviour chosen at compile time:
 *   FAKE_DEVICES=n     the runtime sees n devices (0: with a reason, as a
 *                      CUDA runtime without a GPU gives);
 *   FAKE_OFFER_ABI=v   the table claims ABI version v;
 *   FAKE_NO_ENTRY      no tdls_plugin_entry at all.
 * It counts how often the core called it, for the load-once checks. Its
 * "device memory" is a static arena (fake_plugin_arena): locate claims the
 * addresses inside it, as device 0, and nothing else. solve records the call
 * it receives (fake_plugin_last_call) and answers TDLS_ERROR_EXECUTION with a
 * sentence for n == 13, success otherwise; it touches no operand, unless a
 * solver was set (fake_plugin_set_solver: the Python package's tests compute
 * the call on the host through it, the arena being host memory). */
#include <stdio.h>
#include <string.h>

#include "plugin_abi.h"

#ifndef FAKE_DEVICES
#define FAKE_DEVICES 0
#endif
#ifndef FAKE_OFFER_ABI
#define FAKE_OFFER_ABI TDLS_PLUGIN_ABI_VERSION
#endif

static int entry_calls = 0;
static int device_count_calls = 0;

__attribute__((visibility("default"))) int fake_plugin_entry_calls(void) {
    return entry_calls;
}
__attribute__((visibility("default"))) int fake_plugin_device_count_calls(void) {
    return device_count_calls;
}

static int device_count(char* reason, size_t reason_size) {
    ++device_count_calls;
    if (FAKE_DEVICES == 0) snprintf(reason, reason_size, "cudaGetDeviceCount: stand-in error 35");
    return FAKE_DEVICES;
}

#define FAKE_ARENA_BYTES (1 << 20)
static _Alignas(64) unsigned char arena[FAKE_ARENA_BYTES];
static tdls_plugin_call last_call;
static int solve_calls = 0;

__attribute__((visibility("default"))) void* fake_plugin_arena(size_t* bytes) {
    *bytes = sizeof arena;
    return arena;
}
__attribute__((visibility("default"))) int fake_plugin_solve_calls(void) {
    return solve_calls;
}
__attribute__((visibility("default"))) const tdls_plugin_call* fake_plugin_last_call(void) {
    return &last_call;
}

static int locate(const void* pointer, int* device) {
    const unsigned char* p = (const unsigned char*)pointer;
    if (p < arena || p >= arena + sizeof arena) return 0;
    *device = 0;
    return 1;
}

typedef int (*fake_solver)(const tdls_plugin_call* call, char* message, size_t message_size);
static fake_solver solver = NULL;

__attribute__((visibility("default"))) void fake_plugin_set_solver(fake_solver f) {
    solver = f;
}

static int solve(const tdls_plugin_call* call, char* message, size_t message_size) {
    ++solve_calls;
    memcpy(&last_call, call, sizeof last_call);
    if (call->n == 13) {
        snprintf(message, message_size, "stand-in launch failure (cudaErrorLaunchFailure)");
        return 6; /* TDLS_ERROR_EXECUTION */
    }
    return solver != NULL ? solver(call, message, message_size) : 0;
}

static const tdls_plugin_table table = {
    FAKE_OFFER_ABI, sizeof(tdls_plugin_table), "cuda", device_count, locate, solve,
};

#ifndef FAKE_NO_ENTRY
__attribute__((visibility("default"))) const tdls_plugin_table* tdls_plugin_entry(uint32_t abi_version) {
    ++entry_calls;
    (void)abi_version; /* the stand-in offers its one table whatever is asked */
    return &table;
}
#endif
