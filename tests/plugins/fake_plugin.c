/* A stand-in GPU plugin for the loader's tests: the real plugins' entry point
 * and table (src/backends/plugin/plugin_abi.h), with behaviour chosen at
 * compile time:
 *   FAKE_DEVICES=n     the runtime sees n devices (0: with a reason, as a
 *                      CUDA runtime without a GPU gives);
 *   FAKE_OFFER_ABI=v   the table claims ABI version v;
 *   FAKE_NO_ENTRY      no tdls_plugin_entry at all.
 * It counts how often the core called it, for the load-once checks. */
#include <stdio.h>

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

static const tdls_plugin_table_v1 table = {
    FAKE_OFFER_ABI, sizeof(tdls_plugin_table_v1), "cuda", device_count,
};

#ifndef FAKE_NO_ENTRY
__attribute__((visibility("default"))) const tdls_plugin_table_v1* tdls_plugin_entry(uint32_t abi_version) {
    ++entry_calls;
    (void)abi_version; /* the stand-in offers its one table whatever is asked */
    return &table;
}
#endif
