// libtdls: definition of the SIMD range kernel of one instruction set; included
// by the generated instantiation sources of that ISA only (TDLS_SIMD_ISA names
// the namespace, TDLS_SIMD_BYTES the vector width).
#pragma once

#include <algorithm>
#include <cstdint>
#include <new>
#include <type_traits>

#include <tdls/core/math.hpp>

#include "../../common/batch_call.hpp"
#include "../processor.hpp"
#include "complex_lu.hpp"
#include "force_inline.hpp"
#include "prefetch.hpp"
#include "tile_io.hpp"
#include "tile_lu.hpp"

#ifndef TDLS_SIMD_BYTES
#error "TDLS_SIMD_BYTES must give the vector width of this translation unit"
#endif

namespace tdls::kernels::cpu::simd::TDLS_SIMD_ISA {

/// Systems of type T in one tile of this ISA: the lanes of one vector of its
/// real type (a complex tile splits each element into two such vectors).
template <typename T>
inline constexpr int lanes = TDLS_SIMD_BYTES / int(sizeof(real_type_t<T>));

/// The memory of one range: a tile, its pivots and exchanged rows, and a block
/// of right-hand sides; one allocation, cache-line aligned.
template <typename T, int W>
class RangeScratch {
  public:
    using Index = typename Lanes<T, W>::Index;
    static constexpr std::size_t alignment = 64;
    /// Right-hand sides are solved in blocks of at most ~64 KiB.
    static int rhs_block(int n, std::int64_t nrhs) noexcept { return rhs_block_columns(n, nrhs, W * sizeof(T)); }

    /// ld: the tile's padded column height; its padding rows start at zero.
    RangeScratch(int n, int ld, int rhs_columns)
        : matrix_(round(std::size_t(ld) * n * W * sizeof(T))),
          pivots_(round(std::size_t(n) * W * sizeof(Index))),
          swaps_(round(std::size_t(n) * sizeof(std::uint64_t))),
          rhs_(std::size_t(n) * rhs_columns * W * sizeof(T)),
          memory_(static_cast<unsigned char*>(
              ::operator new(matrix_ + pivots_ + swaps_ + rhs_, std::align_val_t(alignment)))) {
        __builtin_memset(memory_, 0, matrix_);
    }
    ~RangeScratch() { ::operator delete(memory_, std::align_val_t(alignment)); }
    RangeScratch(const RangeScratch&) = delete;
    RangeScratch& operator=(const RangeScratch&) = delete;

    T* matrix() const noexcept { return reinterpret_cast<T*>(memory_); }
    Index* pivots() const noexcept { return reinterpret_cast<Index*>(memory_ + matrix_); }
    std::uint64_t* swaps() const noexcept {
        return reinterpret_cast<std::uint64_t*>(memory_ + matrix_ + pivots_);
    }
    T* rhs() const noexcept { return reinterpret_cast<T*>(memory_ + matrix_ + pivots_ + swaps_); }

  private:
    static std::size_t round(std::size_t bytes) noexcept {
        return (bytes + alignment - 1) / alignment * alignment;
    }
    std::size_t matrix_, pivots_, swaps_, rhs_;
    unsigned char* memory_;
};

/// Orders up to which the tiles exchange rows lane by lane with scalar moves
/// on Zen 4, where AVX-512's gather and scatter are slow: whole calls ran
/// 1.03-1.11x faster at n = 8..32 in double and float, 0.89-0.97x at 48 and
/// 64, where the tile (from 295 KiB) is far from L1. A masked store per
/// distinct pivot row in place of the scatter ran 0.94-0.97x at n = 16..128.
/// Elsewhere the gather and scatter stay: on the Intel host of
/// docs/cpu_simd.md they won at n = 16.
inline constexpr int zen4_scalar_exchange_max_order = 32;

inline bool scalar_exchanges([[maybe_unused]] int n) noexcept {
#if defined(__AVX512F__)
    return n <= zen4_scalar_exchange_max_order && amd_family_19h();
#else
    return true; // no scatter: exchange_lanes moves scalars whatever it is told
#endif
}

/// Whether this processor's static tiles blend up to zen5_blends_max_order
/// (tile_lu.hpp, measured on Zen 5 only: Zen 4's and Zen 3's lane-by-lane
/// exchanges were not compared with the blends).
inline bool zen5_blends() noexcept { return amd_family_1ah(); }

/// Static orders whose tiles the range kernel takes two at a time
/// (factor_pair, solve_tiles). A tile of these orders is a few short chains
/// of dependent operations, and the processor overlaps two tiles' chains
/// where one tile's leave it idle. Zen 5 host (stop 53), whole gesv calls
/// on 128 MiB batches, one core, alternated with the one-tile loop: AVX-512
/// double 1.07-1.22x at n = 4..8, float 1.02-1.11x at 5 and 8 and level at
/// 4, 6, 7 (0.92-1.05x); AVX2 1.10-1.23x at 4 and 8; solve 1.02-1.18x
/// (docs/cpu_simd.md, "Two tiles at a time"). Below 4 the tile is mostly per-tile overhead (AVX2
/// double order 2: 0.84-0.88x); from 10 on a tile's own rows give the
/// processor enough independent work and the pair's second tile only
/// crowds L1 (0.90-1.01x at 10..16, both families). Interleaved blocks of
/// 64: 1.09-1.22x at 4 and 8. The generic family gains in float (4 lanes:
/// 1.23x at 4, 1.03x at 8) and loses in double, whose tiles of two lanes
/// are too short a chain to leave room (0.89-0.97x): pairs need 4 lanes.
template <typename T, int W>
constexpr bool pairs_pay(int static_n) noexcept {
    return W >= 4 && static_n >= 4 && static_n <= 8;
}

/// Solves real systems [begin, end) of the call, W at a time (the last tile
/// may be partial). StaticN > 0: compiled for that order; 0: any order up to
/// max_order (256). `zen5_blend`: ExchangeChoice::zen5_blends, zen5_blends()
/// on this processor (the tests take both).
template <typename T, int StaticN, bool RowMajor>
void real_range(const BatchCall& call, std::int64_t begin, std::int64_t end, bool zen5_blend) {
    constexpr int W = lanes<T>;
    using L = Lanes<T, W>;
    using M = typename L::M;
    using Index = typename L::Index;
    const BatchOperands& ops = call.operands;
    const int n = StaticN > 0 ? StaticN : int(ops.n);
    const bool solves = call.operation != Operation::Getrf && ops.nrhs > 0;
    const int block = solves ? RangeScratch<T, W>::rhs_block(n, ops.nrhs) : 0;
    using Tile = simd::TDLS_SIMD_ISA::Tile<T, W, StaticN>;
    const RangeScratch<T, W> scratch(n, Tile::leading(n), block);
    const ExchangeChoice exchanges{scalar_exchanges(n), zen5_blend};
    const Tile tile(n, scratch.matrix(), scratch.pivots(), scratch.swaps(), exchanges);
    const T tau = T(call.pivot_threshold);

    // A factored tile's results out: its factors and pivots where the
    // operation writes them back (solve keeps them in the tile) and its
    // info; returns the lanes whose B is written (info 0). This and
    // solve_rhs are forced inline into the tile loops' bodies, whose code
    // they were until stop 54: left to GCC, solve_rhs went out of line and
    // double orders 2 and 3 ran 0.87x and 0.91x on average (Zen 5).
    const auto store_factors = [&](const Tile& t, const TileSystems<T, W>& systems, std::int64_t first,
                                   const M& info) TDLS_SIMD_FORCE_INLINE_LAMBDA {
        if (writes_factors(call.operation)) {
            store_matrices(t, systems);
            store_pivots(t, systems);
        }
        for (int l = 0; l < systems.count; ++l) ops.info[first + l] = std::int32_t(info[l]);
        const M written = info == Index(0);
        return written;
    };
    // The right-hand sides of P factored tiles, a block of columns at a
    // time, solved together (solve_tiles); tile p's B through rhs[p].
    const auto solve_rhs = [&]<int P>(const Tile* const (&tiles)[P], const TileSystems<T, W>* systems,
                                      T* const (&rhs)[P], const M* written) TDLS_SIMD_FORCE_INLINE_LAMBDA {
        for (std::int64_t column = 0; column < ops.nrhs; column += block) {
            const int columns = int(std::min<std::int64_t>(block, ops.nrhs - column));
            for (int p = 0; p < P; ++p) load_rhs<StaticN>(rhs[p], n, systems[p], column, columns);
            solve_tiles<P>(tiles, rhs, columns, RowMajor);
            for (int p = 0; p < P; ++p) store_rhs<StaticN>(rhs[p], n, systems[p], column, columns, written[p]);
        }
    };
    // One tile: its systems in, factored (step(k) beside each step k) or its
    // pivots read, its results out.
    const auto solve_tile = [&](const TileSystems<T, W>& systems, std::int64_t first, const auto& step) {
        if constexpr (StaticN == 0)
            load_matrices_hinting_block(tile, systems, writes_factors(call.operation));
        else
            load_matrices(tile, systems);
        M written; // the lanes whose B is written
        if (call.operation == Operation::Getrs) {
            written = load_pivots(tile, systems); // every lane whose pivots are in range
            index_exchanges(tile);
        } else {
            written = store_factors(tile, systems, first, factor(tile, tau, step));
        }
        if (!solves) return;
        const Tile* const tiles[1] = {&tile};
        T* const rhs[1] = {scratch.rhs()};
        solve_rhs(tiles, &systems, rhs, &written);
    };
    // Interleaved blocks of several tiles: each block's first tile hints the
    // rest of the block in the range (prefetch.hpp), decided at each block's
    // start from the captures the lambda has anyway (a flag computed once
    // would be one more capture, and move the static orders' code, whose
    // tiles are far below the threshold and whose views carry no count).
    const auto fill = [&](TileSystems<T, W>& s, std::int64_t first) {
        fill_systems<T, W>(s, ops, first, int(std::min<std::int64_t>(W, end - first)));
        if constexpr (StaticN == 0)
            s.block_ahead = std::int16_t(s.side_by_side && first % ops.block == 0 &&
                                                 prefetch_whole_blocks<T, W>(ops.form, int(ops.n), ops.block)
                                             ? std::min(ops.block, end - first) - W // after it, in block and range
                                             : 0);
    };

    // Small static orders factor and solve their tiles two at a time
    // (factor_pair, solve_tiles), the next pair hinted as the next tile is
    // below when the hints pay. A range's odd last tile goes alone.
    if constexpr (pairs_pay<T, W>(StaticN)) {
        if (call.operation != Operation::Getrs) {
            const RangeScratch<T, W> scratch_b(n, Tile::leading(n), block);
            const Tile tile_b(n, scratch_b.matrix(), scratch_b.pivots(), scratch_b.swaps(), exchanges);
            const auto solve_pair = [&](const TileSystems<T, W>* systems, std::int64_t first, const auto& step_a,
                                        const auto& step_b) {
                load_matrices(tile, systems[0]);
                load_matrices(tile_b, systems[1]);
                M info[2];
                factor_pair(tile, tile_b, tau, step_a, step_b, info[0], info[1]);
                const Tile* const tiles[2] = {&tile, &tile_b};
                // A loop, as before stop 54: two calls written out grew the
                // pair's code by 2 KiB and double order 4 ran 0.97x on average.
                M written[2];
                for (int p = 0; p < 2; ++p) written[p] = store_factors(*tiles[p], systems[p], first + p * W, info[p]);
                if (!solves) return;
                T* const rhs[2] = {scratch.rhs(), scratch_b.rhs()};
                solve_rhs(tiles, systems, rhs, written);
            };
            // views[t]: the pair solved now; views[t ^ 1]: the next one.
            TileSystems<T, W> views[2][2];
            const auto fill_pair = [&](TileSystems<T, W>* pair, std::int64_t first) {
                fill(pair[0], first);
                if (first + W < end) fill(pair[1], first + W);
            };
            if (begin < end) fill_pair(views[0], begin);
            const auto pairs_loop = [&](auto hints) {
                const PrefetchPlan plan{n, solves ? int(std::min<std::int64_t>(block, ops.nrhs)) : 0,
                                        writes_factors(call.operation)};
                const auto step = [&](const TileSystems<T, W>* next) {
                    if constexpr (decltype(hints)::value)
                        return NextTilePrefetch<T, W>(next, plan);
                    else
                        return NoStepWork{};
                };
                for (std::int64_t first = begin, t = 0; first < end; first += 2 * W, t ^= 1) {
                    TileSystems<T, W>* const next = views[t ^ 1];
                    const std::int64_t after = first + 2 * W;
                    if (after < end) fill_pair(next, after);
                    if (first + W >= end) {
                        solve_tile(views[t][0], first, NoStepWork{});
                        break;
                    }
                    solve_pair(views[t], first, step(after < end ? &next[0] : nullptr),
                               step(after + W < end ? &next[1] : nullptr));
                }
            };
            const bool masked = begin < end && matrices_move_masked(tile, views[0][0]);
            if (prefetch_may_pay<T, W>(StaticN) &&
                prefetch_pays<T, W>(ops.form, n, masked))
                pairs_loop(std::true_type{});
            else
                pairs_loop(std::false_type{});
            return;
        }
    }

    // Where the hints pay (prefetch.hpp), the next tile's views are read one
    // tile early and its systems prefetched while this one is factored; the
    // two tiles' views alternate. The static orders whose tiles never pay
    // (below 1 KiB of matrices and never moved by masked loads) do not
    // compile that loop. The first tile's move stands for the range's: a
    // call's full tiles share their steps; only a pointer call's may differ
    // in whether their systems lie back to back, which decides order 2's.
    if constexpr (StaticN == 0 || prefetch_may_pay<T, W>(StaticN)) {
        TileSystems<T, W> views[2];
        if (begin < end) fill(views[0], begin);
        const bool masked = begin < end && matrices_move_masked(tile, views[0]);
        if (prefetch_pays<T, W>(ops.form, n, masked)) {
            const PrefetchPlan plan{n, solves ? int(std::min<std::int64_t>(block, ops.nrhs)) : 0,
                                    writes_factors(call.operation)};
            for (std::int64_t first = begin, t = 0; first < end; first += W, t ^= 1) {
                const bool more = first + W < end;
                if (more) fill(views[t ^ 1], first + W);
                solve_tile(views[t], first, NextTilePrefetch<T, W>(more ? &views[t ^ 1] : nullptr, plan));
            }
            return;
        }
    }
    for (std::int64_t first = begin; first < end; first += W) {
        TileSystems<T, W> systems;
        fill(systems, first);
        solve_tile(systems, first, NoStepWork{});
    }
}

/// The range kernel the dispatch table holds: complex_lu.hpp's for complex
/// T, the tiles' for real T.
template <typename T, int StaticN, bool RowMajor>
void solve_range(const BatchCall& call, std::int64_t begin, std::int64_t end) {
    if constexpr (is_complex_scalar_v<T>) {
        // complex_lu.hpp: one kernel for every order (instances.cmake
        // compiles complex at order 0 only).
        complex_range<T, RowMajor>(call, begin, end);
    } else {
        real_range<T, StaticN, RowMajor>(call, begin, end, zen5_blends());
    }
}

} // namespace tdls::kernels::cpu::simd::TDLS_SIMD_ISA

/// One explicit instantiation line of a generated source.
#define TDLS_SIMD_INSTANTIATE(T, N, ROW_MAJOR)                                                               \
    template void tdls::kernels::cpu::simd::TDLS_SIMD_ISA::solve_range<T, N, ROW_MAJOR>(                     \
        const tdls::kernels::BatchCall&, std::int64_t, std::int64_t);
