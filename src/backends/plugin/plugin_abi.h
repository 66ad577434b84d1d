/* libtdls: the ABI between libtdls.so and its GPU plugins (libtdls_cuda.so,
 * libtdls_hip.so), which libtdls.so loads at first use (loader.cpp).
 *
 * A plugin exports one C function, tdls_plugin_entry. The core calls it once
 * with the ABI version it speaks; the plugin returns its table for that
 * version, or NULL if it does not speak it (the core then reports the plugin
 * as unavailable, with both versions in the message). The table lives as long
 * as the plugin stays loaded, which is until the process ends.
 *
 * Plain C on purpose: the core and a plugin are built by different compilers
 * (g++ and nvcc or hipcc), so only C types cross.
 *
 * Version 2: identification, device discovery, residency and the compute
 * entry. Version 3: the operation TDLS_PLUGIN_SOLVE (a version-2 plugin would
 * take it for gesv and write the caller's read-only A). A field added at the
 * end raises table_size; a change to an existing field or a new value of one
 * raises TDLS_PLUGIN_ABI_VERSION. */
#ifndef TDLS_PLUGIN_ABI_H
#define TDLS_PLUGIN_ABI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TDLS_PLUGIN_ABI_VERSION 3u
#define TDLS_PLUGIN_ENTRY_NAME "tdls_plugin_entry"

/* Values of tdls_plugin_call.operation and .form. */
/* SOLVE: gesv's B and info with A and the pivots only read (ipiv NULL). */
enum { TDLS_PLUGIN_GESV = 0, TDLS_PLUGIN_GETRF = 1, TDLS_PLUGIN_GETRS = 2, TDLS_PLUGIN_SOLVE = 3 };
enum { TDLS_PLUGIN_STRIDED = 0, TDLS_PLUGIN_POINTERS = 1, TDLS_PLUGIN_INTERLEAVED = 2 };

/* One validated compute call: the C ABI's arguments, the handle's settings
 * and the device the core chose. Every pointer is device memory of the
 * plugin's runtime (the core checked where each lives); the fields of the
 * other batch forms are NULL or 0. The plugin must not read operand memory
 * from the host. */
typedef struct tdls_plugin_call {
    int32_t operation;        /* TDLS_PLUGIN_GESV, _GETRF, _GETRS or _SOLVE */
    int32_t dtype;            /* tdls_dtype_t: TDLS_FLOAT32 or TDLS_FLOAT64 */
    int32_t row_major;        /* 1: TDLS_ROW_MAJOR */
    int32_t form;             /* TDLS_PLUGIN_STRIDED, _POINTERS or _INTERLEAVED */
    int64_t n, nrhs, batch;   /* batch >= 1; n == 0 only sets info */
    void* A;                  /* strided, interleaved */
    void* const* A_array;     /* pointers */
    int64_t lda, strideA;
    int32_t* ipiv;            /* strided, interleaved; may be NULL */
    int32_t* const* ipiv_array; /* pointers; may be NULL */
    int64_t strideIpiv;
    void* B;                  /* strided, interleaved; NULL when nrhs == 0 */
    void* const* B_array;     /* pointers */
    int64_t ldb, strideB;
    int32_t* info;            /* NULL for getrs */
    int64_t block;            /* interleaved */
    double pivot_threshold;   /* (0, 1] */
    int32_t device;           /* device ordinal of the plugin's runtime */
    void* stream;             /* cudaStream_t / hipStream_t; NULL: the default stream */
} tdls_plugin_call;

typedef struct tdls_plugin_table {
    uint32_t abi_version; /* TDLS_PLUGIN_ABI_VERSION */
    uint32_t table_size;  /* sizeof(tdls_plugin_table) or more */
    const char* name;     /* "cuda" or "hip" */
    /* Devices the plugin's runtime can use, >= 0. With none, a sentence
     * saying why ("cudaGetDeviceCount: no CUDA-capable device (100)"; any
     * runtime error counts as no device) is written to reason, at most
     * reason_size bytes with the terminating NUL. Called once per process. */
    int (*device_count)(char* reason, size_t reason_size);
    /* 1 when pointer is device or managed memory of the runtime, with its
     * device ordinal in *device; 0 for host, unregistered or unknown memory
     * (NULL included). Never fails, never leaves a runtime error pending. */
    int (*locate)(const void* pointer, int* device);
    /* Enqueues the call on call->stream and returns without waiting, as
     * cuBLAS does; returns a tdls_status_t value. On failure a sentence is
     * written to message (at most message_size bytes with the NUL): a launch
     * or runtime error is TDLS_ERROR_EXECUTION, a shape no kernel of the
     * plugin serves TDLS_ERROR_NOT_SUPPORTED, a device out of range
     * TDLS_ERROR_INVALID_VALUE. Thread-safe. */
    int (*solve)(const tdls_plugin_call* call, char* message, size_t message_size);
} tdls_plugin_table;

typedef const tdls_plugin_table* (*tdls_plugin_entry_fn)(uint32_t abi_version);

#ifdef __cplusplus
}
#endif

#endif /* TDLS_PLUGIN_ABI_H */
