#include "forward.hpp"

#include <dlfcn.h>

#include <cstdio>
#include <mutex>
#include <set>

namespace tdls::magma {

namespace {

/// Whether the object defining `function` exports `symbol` under one of the
/// two libtdls_magma version nodes.
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

} // namespace

void* next_definition(const char* symbol, std::string& why) {
    void* next = dlsym(RTLD_NEXT, symbol);
    if (next == nullptr) {
        why = "no library after libtdls_magma defines it (link libmagma after libtdls_magma)";
        return nullptr;
    }
    if (is_libtdls_magma(next, symbol)) {
        why = "the next definition is the other width's libtdls_magma (both are loaded)";
        return nullptr;
    }
    return next;
}

magma_int_t not_served(const char* symbol, const std::string& why) {
    static std::mutex mutex;
    static std::set<std::string> said;
    const std::lock_guard lock(mutex);
    if (said.insert(symbol).second)
        std::fprintf(stderr, "libtdls_magma: %s: not served: %s; returning MAGMA_ERR\n", symbol, why.c_str());
    return MAGMA_ERR;
}

} // namespace tdls::magma
