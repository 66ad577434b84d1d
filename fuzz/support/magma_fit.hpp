// libtdls fuzzing: the MAGMA harnesses' decoded sizes as magma_int_t, and
// the shrinking of a decoded call that would exceed one input's limits
// (batch.hpp): leading dimensions back to within 8 of n, then nrhs to 1..8,
// then half the batch, until it fits.
#pragma once

#include <tdls/magma.h>

#include <cstdint>

#include "batch.hpp"

namespace tdls_fuzz {

/// A decoded 64-bit value as magma_int_t: the 32-bit library sees it
/// truncated, as a caller's own conversion would.
inline magma_int_t as_magma(std::int64_t v) {
    return static_cast<magma_int_t>(v);
}

/// factor_only: the call has no right-hand sides (getrf), whose sizes then
/// do not count.
inline void fit_magma_call(magma_int_t n, bool factor_only, magma_int_t& nrhs, magma_int_t& ldda, magma_int_t& lddb,
                           magma_int_t& batch) {
    const auto too_big = [&] {
        const std::int64_t systems = batch, rhs = factor_only ? 0 : nrhs;
        return saturated_mul(systems, saturated_mul(ldda, n)) > element_cap ||
               saturated_mul(systems, saturated_mul(lddb, rhs)) > element_cap ||
               saturated_mul(systems, work_of(n, rhs)) > work_cap || systems > batch_cap;
    };
    while (too_big()) {
        if (ldda > n + 8)
            ldda = n + (ldda - n) % 9;
        else if (lddb > n + 8)
            lddb = n + (lddb - n) % 9;
        else if (nrhs > 8)
            nrhs = 1 + nrhs % 8;
        else if (batch > 1)
            batch /= 2;
        else
            return;
    }
}

} // namespace tdls_fuzz
