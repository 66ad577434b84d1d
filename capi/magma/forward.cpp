#include "forward.hpp"

#include <dlfcn.h>
#include <link.h>

#include <cstdio>
#include <mutex>
#include <new>
#include <string>
#include <set>
#include <vector>

#ifndef TDLS_MAGMA_LIBRARY_NAME
#define TDLS_MAGMA_LIBRARY_NAME "libtdls_magma"
#endif

namespace tdls::magma {

namespace {

/// Whether the object defining `function` exports `symbol` under one of the
/// two libtdls_magma version nodes: this library, or the other width's.
bool is_libtdls_magma(void* function, const char* symbol) {
    Dl_info info{};
    if (dladdr(function, &info) == 0 || info.dli_fname == nullptr) return false;
    void* handle = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
    if (handle == nullptr) return false;
    const bool ours = dlvsym(handle, symbol, "TDLS_MAGMA_LP64") != nullptr ||
                      dlvsym(handle, symbol, "TDLS_MAGMA_ILP64") != nullptr;
    dlclose(handle);
    return ours;
}

/// No exception may unwind through dl_iterate_phdr (C code, under the
/// loader's lock): an allocation failure stops the walk and is raised after.
struct LoadedNames {
    std::vector<std::string> names;
    bool out_of_memory = false;
};

int collect_name(dl_phdr_info* info, std::size_t, void* data) noexcept {
    auto* loaded = static_cast<LoadedNames*>(data);
    if (info->dlpi_name == nullptr || info->dlpi_name[0] == '\0') return 0;
    try {
        loaded->names.emplace_back(info->dlpi_name);
        return 0;
    } catch (...) {
        loaded->out_of_memory = true;
        return 1;
    }
}

/// A definition in any loaded shared object but a libtdls_magma, in load
/// order. RTLD_NEXT sees the objects loaded with the program only; a libmagma
/// that arrived later by dlopen(RTLD_GLOBAL) (a Python extension, a plugin)
/// is found here. The names are gathered first: dlopen is not called from
/// inside dl_iterate_phdr's callback, which runs under the loader's lock.
void* definition_loaded_later(const char* symbol) {
    LoadedNames loaded;
    dl_iterate_phdr(collect_name, &loaded);
    if (loaded.out_of_memory) throw std::bad_alloc();
    for (const std::string& name : loaded.names) {
        void* handle = dlopen(name.c_str(), RTLD_LAZY | RTLD_NOLOAD);
        if (handle == nullptr) continue;
        void* function = dlsym(handle, symbol);
        dlclose(handle);
        if (function != nullptr && !is_libtdls_magma(function, symbol)) return function;
    }
    return nullptr;
}

} // namespace

void* next_definition(const char* symbol, std::string& why) {
    void* next = dlsym(RTLD_NEXT, symbol);
    if (next != nullptr && !is_libtdls_magma(next, symbol)) return next;
    if (void* later = definition_loaded_later(symbol)) return later;
    why = "no library but libtdls_magma defines it (link libmagma after libtdls_magma; the other width's "
          "libtdls_magma is never called)";
    return nullptr;
}

magma_int_t not_served(const char* symbol, const std::string& why) {
    static std::mutex mutex;
    static std::set<std::string> said;
    const std::lock_guard lock(mutex);
    if (said.insert(symbol).second)
        std::fprintf(stderr, TDLS_MAGMA_LIBRARY_NAME ": %s: not served: %s; returning MAGMA_ERR\n", symbol,
                     why.c_str());
    return MAGMA_ERR;
}

} // namespace tdls::magma
