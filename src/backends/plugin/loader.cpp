// libtdls: loading the GPU plugins (see loader.hpp).
#include "loader.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>
#include <string>

namespace tdls::runtime::plugin {

namespace {

/// The directory libtdls.so was loaded from ("" if unknown: dlopen then
/// searches the usual library path).
std::string library_directory() {
    Dl_info info{};
    if (dladdr(reinterpret_cast<const void*>(&file_name), &info) == 0 || info.dli_fname == nullptr) return "";
    const std::string self = info.dli_fname;
    const std::size_t slash = self.rfind('/');
    return slash == std::string::npos ? "" : self.substr(0, slash);
}

std::string plugin_path(tdls_backend_t backend) {
    const char* override_dir = std::getenv("TDLS_PLUGIN_DIR");
    const std::string dir = override_dir != nullptr && *override_dir != '\0' ? override_dir : library_directory();
    return dir.empty() ? file_name(backend) : dir + "/" + file_name(backend);
}

Plugin load(tdls_backend_t backend) {
    Plugin p;
    p.path = plugin_path(backend);
    // RTLD_LOCAL: the plugin's runtime (static cudart, libamdhip64) stays out
    // of the process's global namespace. Never closed: its table must outlive
    // every handle, and GPU runtimes do not unload cleanly.
    void* library = dlopen(p.path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) {
        const char* error = dlerror();
        p.reason = std::string("cannot load ") + p.path + " (" + (error ? error : "unknown error") + ")";
        return p;
    }
    dlerror();
    const auto entry = reinterpret_cast<tdls_plugin_entry_fn>(dlsym(library, TDLS_PLUGIN_ENTRY_NAME));
    if (entry == nullptr) {
        p.reason = p.path + " exports no " TDLS_PLUGIN_ENTRY_NAME;
        return p;
    }
    const tdls_plugin_table* table = entry(TDLS_PLUGIN_ABI_VERSION);
    if (table == nullptr || table->abi_version != TDLS_PLUGIN_ABI_VERSION ||
        table->table_size < sizeof(tdls_plugin_table) || table->device_count == nullptr ||
        table->locate == nullptr || table->solve == nullptr) {
        p.reason = p.path + " does not speak plugin ABI version " + std::to_string(TDLS_PLUGIN_ABI_VERSION) +
                   (table ? " (it offers version " + std::to_string(table->abi_version) + ")" : "");
        return p;
    }
    char why[256] = {};
    const int devices = table->device_count(why, sizeof why);
    why[sizeof why - 1] = '\0';
    p.table = table;
    p.devices = devices > 0 ? devices : 0;
    if (p.devices == 0)
        p.reason = std::string("no ") + (table->name ? table->name : "GPU") + " device (" +
                   (why[0] ? why : "the runtime reports none") + ")";
    return p;
}

struct Slot {
    std::once_flag once;
    Plugin plugin;
};

} // namespace

const char* file_name(tdls_backend_t backend) noexcept {
    return backend == TDLS_BACKEND_HIP ? "libtdls_hip.so" : "libtdls_cuda.so";
}

const Plugin& plugin(tdls_backend_t backend) {
    static Slot cuda, hip; // one load per backend per process
    Slot& slot = backend == TDLS_BACKEND_HIP ? hip : cuda;
    std::call_once(slot.once, [&] { slot.plugin = load(backend); });
    return slot.plugin;
}

} // namespace tdls::runtime::plugin
