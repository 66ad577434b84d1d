// Safe interposition: what libtdls does not serve goes to the next
// definition of the same symbol in the process (libmagma, linked after
// libtdls_magma), found with dlsym(RTLD_NEXT); where there is none, the call
// fails with MAGMA_ERR and one line on stderr.
#pragma once

#include <tdls/magma.h>

#include <string>

namespace tdls::magma {

/// The next definition of `symbol` after libtdls_magma (dlsym(RTLD_NEXT)),
/// else one in a shared object loaded later, or nullptr with the reason in
/// `why`. Never a libtdls_magma's, this one's or the other width's
/// (forwarding there would hand it arguments of the wrong width).
void* next_definition(const char* symbol, std::string& why);

/// MAGMA_ERR for a call nothing serves, saying why on stderr once per
/// symbol and process.
magma_int_t not_served(const char* symbol, const std::string& why);

} // namespace tdls::magma
