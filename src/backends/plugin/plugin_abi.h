/* libtdls: the ABI between libtdls.so and its GPU plugins (libtdls_cuda.so,
 * libtdls_hip.so), which libtdls.so loads at first use (loader.cpp).
 *
 * A plugin exports one C function, tdls_plugin_entry. The core calls it once
 * with the ABI version it speaks; the plugin returns its table for that
 * version, or NULL if it does not speak it (the core then reports the plugin
 * as unavailable, with both versions in the message). The table lives as long
 * as the plugin stays loaded, which is until the process ends.
 *
 * Version 1: identification and device discovery. The compute entries come
 * with the GPU backends (issue 4) as later fields of this table; a field added
 * at the end raises table_size, a change to an existing field raises
 * TDLS_PLUGIN_ABI_VERSION. */
#ifndef TDLS_PLUGIN_ABI_H
#define TDLS_PLUGIN_ABI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TDLS_PLUGIN_ABI_VERSION 1u
#define TDLS_PLUGIN_ENTRY_NAME "tdls_plugin_entry"

typedef struct tdls_plugin_table_v1 {
    uint32_t abi_version; /* TDLS_PLUGIN_ABI_VERSION */
    uint32_t table_size;  /* sizeof(tdls_plugin_table_v1) or more */
    const char* name;     /* "cuda" or "hip" */
    /* Devices the plugin's runtime can use, >= 0. With none, a sentence
     * saying why ("cudaGetDeviceCount: no CUDA-capable device (100)"; any
     * runtime error counts as no device) is written to reason, at most
     * reason_size bytes with the terminating NUL. Called once per process. */
    int (*device_count)(char* reason, size_t reason_size);
} tdls_plugin_table_v1;

typedef const tdls_plugin_table_v1* (*tdls_plugin_entry_fn)(uint32_t abi_version);

#ifdef __cplusplus
}
#endif

#endif /* TDLS_PLUGIN_ABI_H */
