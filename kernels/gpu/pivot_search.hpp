// libtdls: the block kernels' group barrier, with the parallel pivot search
// the cooperative solver asks it for (detail::coop::ReducesCandidates).
//
// Without it, every thread of a block of n threads would scan the n
// candidates of each column in shared memory after the barrier: n loads per
// thread and column, n^2 per thread in all. Here each warp first folds its
// lanes' candidates into its first lane with shuffles (log2(warp) steps, no
// memory), the first lanes publish one candidate per warp, and after the same
// single barrier every thread scans ceil(n / warp) candidates: 32 times fewer
// loads, no extra barrier, the same winner (the candidates' order is a strict
// total order, tdls::detail::coop::outranks).
//
// Host-device, over a Lanes policy: the device's (__syncthreads and the
// warp shuffle, kernels.cuh) or the tests' emulation on CPU threads
// (tests/test_gpu_driver.cpp), so that the tests run this very reduction.
#pragma once

#include <tdls/solvers/cooperative_lupp/detail/engine.hpp>

namespace tdls::kernels::gpu {

/// Lanes: barrier() waits for the whole block; shuffle_down(v, d) returns v
/// of lane (this lane + d) of the same warp, called by every lane of the
/// warp at once (what it returns for a lane past the warp's last is not
/// used). Warp: the lanes of a warp (32, or a wavefront of 64).
template <int Warp, typename Lanes>
struct BlockGroupBarrier {
    Lanes lanes;

    TDLS_HOST_DEVICE void operator()() { lanes.barrier(); }

    template <typename Real, typename T>
    TDLS_HOST_DEVICE detail::coop::PivotChoice<Real> reduce_candidates(int tx, int threads, Real best,
                                                                       int position, T* slot_magnitude,
                                                                       T* slot_position) {
        using detail::coop::outranks;
        const int lane = tx % Warp;
        const int warp = tx / Warp;
        const int warps = (threads + Warp - 1) / Warp;
        const int lanes_here = threads - warp * Warp < Warp ? threads - warp * Warp : Warp; // the last may be short
        // Halving: lane l takes lane l + d's candidate. Lane 0 ends with the
        // warp's winner: the candidates of every lane whose index differs
        // from 0 in the bits already folded reach it (standard tree).
        for (int d = Warp / 2; d > 0; d /= 2) {
            const Real m = lanes.shuffle_down(best, d);
            const int p = lanes.shuffle_down(position, d);
            if (lane + d < lanes_here && outranks(m, p, best, position)) {
                best = m;
                position = p;
            }
        }
        if (lane == 0) {
            slot_magnitude[warp] = best;
            slot_position[warp] = T(position);
        }
        lanes.barrier();
        best = Real(-1);
        position = -1;
        for (int w = 0; w < warps; ++w) {
            const int p = int(real_part(slot_position[w]));
            const Real m = real_part(slot_magnitude[w]);
            if (outranks(m, p, best, position)) {
                best = m;
                position = p;
            }
        }
        return {position, best};
    }
};

} // namespace tdls::kernels::gpu
