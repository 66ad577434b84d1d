// The 16 extern "C" entry points of libtdls_magma(64): for each precision,
// magma_?gesv_batched, magma_?gesv_batched_small, magma_?getrf_batched and
// magma_?getrs_batched, each a forward to its template in routines.hpp and,
// when libtdls does not serve the call, to the next definition of the same
// symbol (forward.hpp). Compiled twice: magma_int_t = int (libtdls_magma)
// and long long (libtdls_magma64, MAGMA_ILP64).
#include <tdls/magma.h>
#include <tdls/tdls.h>

#include <new>
#include <string>

#include "forward.hpp"
#include "routines.hpp"

namespace tdls::magma {
namespace {

/// A served call's code; an unserved queue call handed to the next
/// definition with the caller's own arguments; an unserved host call (MAGMA
/// takes none) failed.
template <typename Function, typename... Args>
magma_int_t reply(const char* symbol, const Verdict& verdict, magma_queue_t queue, Args... args) {
    if (verdict.served) return verdict.code;
    std::string why = verdict.why_not;
    if (queue != nullptr) {
        std::string why_next;
        if (void* next = next_definition(symbol, why_next)) return reinterpret_cast<Function>(next)(args..., queue);
        why += "; " + why_next;
    }
    return not_served(symbol, why);
}

/// MAGMA's complex types are two consecutive reals, as std::complex.
static_assert(sizeof(magmaFloatComplex) == sizeof(complex_float) &&
              sizeof(magmaDoubleComplex) == sizeof(complex_double));

template <typename To, typename From>
To** as(From** array) {
    return reinterpret_cast<To**>(array);
}

} // namespace
} // namespace tdls::magma

// No exception leaves an entry point: the shim's own allocations (scratch,
// messages) fail as MAGMA does, with MAGMA_ERR_HOST_ALLOC.
#define TDLS_MAGMA_CATCH                                                                                         \
    catch (const std::bad_alloc&) {                                                                              \
        return MAGMA_ERR_HOST_ALLOC;                                                                             \
    }                                                                                                            \
    catch (...) {                                                                                                \
        return MAGMA_ERR;                                                                                        \
    }

// One precision: p the prefix, M MAGMA's element type, T libtdls's.
#define TDLS_MAGMA_ENTRY_POINTS(p, M, T)                                                                         \
    extern "C" magma_int_t magma_##p##gesv_batched(magma_int_t n, magma_int_t nrhs, M** dA_array, magma_int_t ldda, \
                                                   magma_int_t** dipiv_array, M** dB_array, magma_int_t lddb,    \
                                                   magma_int_t* dinfo_array, magma_int_t batchCount,             \
                                                   magma_queue_t queue) try {                                    \
        using namespace tdls::magma;                                                                             \
        const Verdict verdict = gesv(check_gesv(n, nrhs, ldda, lddb, batchCount), Completion::Synced, n, nrhs, as<T>(dA_array),      \
                                     ldda, dipiv_array, as<T>(dB_array), lddb, dinfo_array, batchCount, queue);  \
        return reply<decltype(&magma_##p##gesv_batched)>("magma_" #p "gesv_batched", verdict, queue, n, nrhs,    \
                                                         dA_array, ldda, dipiv_array, dB_array, lddb,            \
                                                         dinfo_array, batchCount);                               \
    }                                                                                                            \
    TDLS_MAGMA_CATCH                                                                                             \
    extern "C" magma_int_t magma_##p##gesv_batched_small(                                                        \
        magma_int_t n, magma_int_t nrhs, M** dA_array, magma_int_t ldda, magma_int_t** dipiv_array, M** dB_array, \
        magma_int_t lddb, magma_int_t* dinfo_array, magma_int_t batchCount, magma_queue_t queue) try {           \
        using namespace tdls::magma;                                                                             \
        const Verdict verdict = gesv(check_gesv_small(n, nrhs, ldda, lddb, batchCount), Completion::Enqueued, n, nrhs,                 \
                                     as<T>(dA_array), ldda, dipiv_array, as<T>(dB_array), lddb, dinfo_array,     \
                                     batchCount, queue);                                                         \
        return reply<decltype(&magma_##p##gesv_batched_small)>("magma_" #p "gesv_batched_small", verdict, queue, \
                                                               n, nrhs, dA_array, ldda, dipiv_array, dB_array,   \
                                                               lddb, dinfo_array, batchCount);                   \
    }                                                                                                            \
    TDLS_MAGMA_CATCH                                                                                             \
    extern "C" magma_int_t magma_##p##getrf_batched(magma_int_t m, magma_int_t n, M** dA_array, magma_int_t ldda, \
                                                    magma_int_t** ipiv_array, magma_int_t* info_array,           \
                                                    magma_int_t batchCount, magma_queue_t queue) try {           \
        using namespace tdls::magma;                                                                             \
        const Verdict verdict =                                                                                  \
            getrf(m, n, as<T>(dA_array), ldda, ipiv_array, info_array, batchCount, queue);                       \
        return reply<decltype(&magma_##p##getrf_batched)>("magma_" #p "getrf_batched", verdict, queue, m, n,     \
                                                          dA_array, ldda, ipiv_array, info_array, batchCount);   \
    }                                                                                                            \
    TDLS_MAGMA_CATCH                                                                                             \
    extern "C" magma_int_t magma_##p##getrs_batched(magma_trans_t trans, magma_int_t n, magma_int_t nrhs,        \
                                                    M** dA_array, magma_int_t ldda, magma_int_t** dipiv_array,   \
                                                    M** dB_array, magma_int_t lddb, magma_int_t batchCount,      \
                                                    magma_queue_t queue) try {                                   \
        using namespace tdls::magma;                                                                             \
        const Verdict verdict = getrs(trans, n, nrhs, as<T>(dA_array), ldda, dipiv_array, as<T>(dB_array), lddb, \
                                      batchCount, queue);                                                        \
        return reply<decltype(&magma_##p##getrs_batched)>("magma_" #p "getrs_batched", verdict, queue, trans, n, \
                                                          nrhs, dA_array, ldda, dipiv_array, dB_array, lddb,     \
                                                          batchCount);                                           \
    }                                                                                                            \
    TDLS_MAGMA_CATCH

TDLS_MAGMA_ENTRY_POINTS(s, float, float)
TDLS_MAGMA_ENTRY_POINTS(d, double, double)
TDLS_MAGMA_ENTRY_POINTS(c, magmaFloatComplex, tdls::complex_float)
TDLS_MAGMA_ENTRY_POINTS(z, magmaDoubleComplex, tdls::complex_double)
