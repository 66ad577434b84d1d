// The real GPU plugin, built beside libtdls.so, on this machine: it loads,
// speaks the core's ABI version with every entry filled, and answers. With
// no GPU (CI), the backend must be unavailable because the runtime found no
// device, never because the plugin failed to load; with a GPU it must be
// available and create a handle. Either way the CPU backend still solves.
//
// Usage: check_real_plugin <cuda|hip> <directory of the plugin>
#include <tdls/tdls.h>

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "plugin_abi.h"

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: %s cuda|hip <plugin directory>\n", argv[0]);
        return 2;
    }
    const std::string which = argv[1], dir = argv[2];
    const std::string path = dir + "/libtdls_" + which + ".so";
    int failures = 0;
    const auto check = [&](bool ok, const std::string& what) {
        if (!ok) std::fprintf(stderr, "FAILED: %s\n", what.c_str());
        failures += ok ? 0 : 1;
    };

    // The plugin itself: its table, as the loader sees it.
    void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    check(library != nullptr, "dlopen " + path + ": " + (library ? "" : dlerror()));
    if (library == nullptr) return 1;
    const auto entry = reinterpret_cast<tdls_plugin_entry_fn>(dlsym(library, TDLS_PLUGIN_ENTRY_NAME));
    check(entry != nullptr, "entry point exported");
    const tdls_plugin_table* table = entry ? entry(TDLS_PLUGIN_ABI_VERSION) : nullptr;
    check(table != nullptr && table->abi_version == TDLS_PLUGIN_ABI_VERSION &&
              table->table_size >= sizeof(tdls_plugin_table) && table->device_count && table->locate &&
              table->solve && table->name == which,
          "a complete table of ABI version " + std::to_string(TDLS_PLUGIN_ABI_VERSION) + " named " + which);
    check(entry == nullptr || entry(TDLS_PLUGIN_ABI_VERSION + 1) == nullptr, "another ABI version is refused");
    int host_value = 0, device = -1;
    check(table == nullptr || table->locate(&host_value, &device) == 0, "host memory is not device memory");
    check(table == nullptr || table->locate(nullptr, &device) == 0, "NULL is not device memory");

    // Through the library.
    setenv("TDLS_PLUGIN_DIR", dir.c_str(), 1);
    const tdls_backend_t backend = which == "cuda" ? TDLS_BACKEND_CUDA : TDLS_BACKEND_HIP;
    tdls_handle_t h = nullptr;
    const tdls_status_t created = tdls_create(&h, backend, 0);
    const std::string message = tdls_last_error();
    if (tdls_backend_available(backend)) {
        check(created == TDLS_SUCCESS, "a GPU is present: handle created (" + message + ")");
        std::printf("check_real_plugin %s: a device is present\n", which.c_str());
    } else {
        check(created == TDLS_ERROR_BACKEND_UNAVAILABLE, "no GPU: BACKEND_UNAVAILABLE");
        check(message.find("no " + which + " device (") != std::string::npos,
              "no GPU: the plugin loaded and its runtime said why: " + message);
        std::printf("check_real_plugin %s: no device here: %s\n", which.c_str(), message.c_str());
    }
    tdls_destroy(h);
    double A[1] = {4}, B[1] = {2};
    int32_t info = -1;
    check(tdls_batched_gesv(nullptr, TDLS_FLOAT64, TDLS_COL_MAJOR, 1, 1, A, 1, 1, nullptr, 1, B, 1, 1, &info, 1) ==
                  TDLS_SUCCESS &&
              B[0] == 0.5,
          "the CPU backend solves host memory with the plugin loaded");
    return failures == 0 ? 0 : 1;
}
