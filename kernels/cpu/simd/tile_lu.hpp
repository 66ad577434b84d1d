// libtdls: LU with partial pivoting of W systems at once, one system per SIMD
// lane: the textbook right-looking elimination of LAPACK's dgetf2, with every
// scalar of it replaced by a vector of W lanes. Each lane makes its own pivot
// choice; rows are exchanged under lane masks, so that no lane ever waits for
// another and nothing leaves the vector registers but whole vectors.
//
// The arithmetic of every lane, operation by operation, is that of the
// cooperative solver on one thread (detail/engine.hpp): the same pivot rule
// (LAPACK's first largest magnitude, relaxed by the threshold tau, NaNs never
// chosen from below), the same singular rule (largest candidate below the
// smallest normal number, then a multiplier scale of 1), reciprocal-scaled
// multipliers, divided column-major back substitution, reciprocal-scaled
// row-major U^T solve. Compiled without contraction of
// multiply-adds, the two are bitwise equal (tests/test_simd_tile.cpp); the
// library's instances contract them into FMAs.
#pragma once

#include <cstdint>
#include <limits>

#if defined(__AVX512F__)
#include <immintrin.h>
#endif

#include "isa.hpp"
#include "force_inline.hpp"
#include "lanes.hpp"

namespace tdls::kernels::cpu::simd::TDLS_SIMD_ISA {

/// Static orders whose steps exchange by masked blends of row k with every
/// row below it, whether a lane chose it or not (pivot_step), on every
/// processor: the set of rows the lanes chose, computed lane by lane, and
/// the branches on its size cost more than the blends they spare. The
/// blends grow with the order squared, the gathers and scatters they
/// replace with the lanes: on the model-207 Xeon host (AVX-512) the blends
/// ran 1.06-1.22x at n = 2..6 in double and 1.01-1.22x in float, and in
/// float 1.05-1.09x at 7 and 8, where double lost 2-3%; both lost 8-27% at
/// 12 and 16 (docs/cpu_simd.md).
template <typename T>
inline constexpr int blends_max_order = sizeof(T) == 4 ? 8 : 6;
template <typename T, int N>
inline constexpr bool blends_every_row_below = N > 0 && N <= blends_max_order<T>;

/// The largest static order whose steps blend on AMD family 1Ah (Zen 5),
/// where exchanging lane by lane (AVX-512's gather and scatter, AVX2's
/// scalar moves) costs more than on the Xeon. Whole calls, one core,
/// alternated with the lane-by-lane exchanges (stop 55, two sets of two
/// rounds; docs/cpu_simd.md): AVX-512 double 1.02-1.23x at n = 7..9,
/// 0.96-1.12x at 10, level at 11 (0.95-1.08x), 0.94-1.00x at 12; float (16
/// lanes) 1.02-1.34x at every order 9..16; AVX2 double (4 lanes) 1.06-1.20x
/// at 7 and 8, level at 9; AVX2 float 1.02-1.22x at 9..11, 1.01-1.06x at
/// 12, 0.95-1.00x at 13. A lane-by-lane exchange costs with the lanes and
/// the blends with the rows below, so the order follows W. Narrower
/// vectors keep the rule above.
template <int W>
inline constexpr int zen5_blends_max_order = W >= 16 ? 16 : W >= 8 ? 11 : W >= 4 ? 8 : 0;

/// Whether static order n blends on Zen 5 and lane by lane elsewhere.
template <typename T, int W>
constexpr bool blends_on_zen5_only(int n) noexcept {
    return n > blends_max_order<T> && n <= zen5_blends_max_order<W>;
}

/// How a tile's steps exchange rows where the processor decides
/// (simd_range.hpp chooses, by measurement).
struct ExchangeChoice {
    /// Lane by lane with scalar moves where the ISA also has a gather and a
    /// scatter (exchange_lanes).
    bool scalar = false;
    /// Static orders up to zen5_blends_max_order<W> exchange by blends, as
    /// those of blends_every_row_below do on every processor.
    bool zen5_blends = false;
};

/// The working copy of W systems of order n: element (i, j) of lane l at
/// a[(j*ld + i)*W + l] (column-major, a vector per element, columns padded to
/// ld = leading(n) rows, a multiple of the row block, with rows that stay
/// zero), the pivot row chosen at each step per lane, and per step the set
/// of rows that some lane exchanges with it (one bit per row up to order
/// 64; past it, every_lane_exchanges or none).
template <typename T, int W, int StaticN>
class Tile {
  public:
    using L = Lanes<T, W>;
    using Index = typename L::Index;
    using V = typename L::V;
    using M = typename L::M;
    static_assert(StaticN >= 0 && StaticN <= max_order);
    /// Rows of a column updated together in registers (tile_lu's factor).
    static constexpr int row_block = StaticN > 0 && StaticN < 8 ? StaticN : 8;
    static constexpr int padded(int n) noexcept { return (n + row_block - 1) / row_block * row_block; }
    /// The column height: the padded order, plus one row block where that
    /// is an even number of row blocks past order 16. A column stride of a
    /// multiple of 16 vectors maps every column's row i to the same few L1
    /// sets (at 64 rows of 32-byte vectors, 2 KiB apart: two sets), and each
    /// exchange and each update then misses L1 column after column: order 64
    /// ran 2-3x slower than its flops (AVX2, Zen 3). An odd number of row
    /// blocks spreads the columns over the sets. Static orders up to 16 keep
    /// their packed tile, which fits L1 anyway.
    static constexpr int leading(int n) noexcept {
        const int rows = padded(n);
        return n > 16 && rows % (2 * row_block) == 0 ? rows + row_block : rows;
    }

    Tile(int n, T* a, Index* pivots, std::uint64_t* swaps, ExchangeChoice exchanges = {}) noexcept
        : n_(StaticN > 0 ? StaticN : n), ld_(leading(n_)), a_(a), pivots_(pivots), swaps_(swaps),
          exchanges_(exchanges) {}

    constexpr int order() const noexcept {
        if constexpr (StaticN > 0)
            return StaticN;
        else
            return n_;
    }
    constexpr int ld() const noexcept {
        if constexpr (StaticN > 0)
            return leading(StaticN);
        else
            return ld_;
    }
    T* at(int i, int j) const noexcept { return a_ + (std::int64_t(j) * ld() + i) * W; }
    Index* pivot(int k) const noexcept { return pivots_ + std::int64_t(k) * W; }
    std::uint64_t& swaps(int k) const noexcept { return swaps_[k]; }
    bool scalar_exchanges() const noexcept { return exchanges_.scalar; }
    /// Whether step k exchanges row k with every row below it by blends,
    /// whichever the lanes chose: known at compile time but for the orders
    /// that blend on Zen 5 only.
    constexpr bool blends_all_rows_below() const noexcept {
        if constexpr (blends_every_row_below<T, StaticN>)
            return true;
        else if constexpr (blends_on_zen5_only<T, W>(StaticN))
            return exchanges_.zen5_blends;
        else
            return false;
    }

  private:
    int n_, ld_;
    T* a_;
    Index* pivots_;
    std::uint64_t* swaps_;
    ExchangeChoice exchanges_;
};

/// Exchanges, in each lane whose pivot of step k is row r, rows k and r of a
/// column-major block of vectors (`columns` columns, `ld` vectors apart).
template <typename T, int W>
inline void exchange_rows(T* block, std::int64_t ld, int columns, int k, std::uint64_t rows,
                          typename Lanes<T, W>::M pivot) noexcept {
    using L = Lanes<T, W>;
    while (rows) {
        const int r = __builtin_ctzll(rows);
        rows &= rows - 1;
        const typename L::M lanes = pivot == typename L::Index(r);
        for (int c = 0; c < columns; ++c) {
            T* const x = block + (c * ld + k) * W;
            T* const y = block + (c * ld + r) * W;
            const typename L::V vx = L::load(x), vy = L::load(y);
            L::store(x, lanes ? vy : vx);
            L::store(y, lanes ? vx : vy);
        }
    }
}

/// Exchanges, in each lane l whose pivot of step k is a row p_l other than
/// k, rows k and p_l of a column-major block of vectors (`columns` columns,
/// `ld` vectors apart), lane by lane: a lane's exchange moves 2 * columns
/// scalars, where a masked exchange of vectors would move 2 * columns
/// vectors for every distinct pivot row. With AVX-512, a gather and a
/// scatter per column unless `by_scalars` (simd_range.hpp decides).
template <typename T, int W>
inline void exchange_lanes(T* block, std::int64_t ld, int columns, int k, const typename Lanes<T, W>::Index* pivot,
                           [[maybe_unused]] bool by_scalars) noexcept {
    const std::int64_t column = ld * W;
#if defined(__AVX512F__)
    if constexpr (W * sizeof(T) == 64) {
        if (!by_scalars) {
            using L = Lanes<T, W>;
            typename L::M lane{};
            for (int l = 0; l < W; ++l) lane[l] = l;
            const typename L::M offset = (L::load(pivot) - k) * W + lane;
            for (int c = 0; c < columns; ++c) {
                T* const row = block + (c * ld + k) * W;
                const typename L::V x = L::load(row);
                typename L::V y;
                if constexpr (sizeof(T) == 8) {
                    y = (typename L::V)_mm512_mask_i64gather_pd((__m512d)x, 0xff, (__m512i)offset, row, 8);
                    L::store(row, y);
                    _mm512_i64scatter_pd(row, (__m512i)offset, (__m512d)x, 8);
                } else {
                    y = (typename L::V)_mm512_mask_i32gather_ps((__m512)x, 0xffff, (__m512i)offset, row, 4);
                    L::store(row, y);
                    _mm512_i32scatter_ps(row, (__m512i)offset, (__m512)x, 4);
                }
            }
            return;
        }
    }
#endif
    for (int l = 0; l < W; ++l) {
        const int r = int(pivot[l]);
        if (r == k) continue;
        T* x = block + std::int64_t(k) * W + l;
        T* y = block + std::int64_t(r) * W + l;
        for (int c = 0; c < columns; ++c, x += column, y += column) {
            const T v = *x;
            *x = *y;
            *y = v;
        }
    }
}

/// Tile::swaps(k) past order 64, where a 64-bit set cannot name the rows:
/// some lane exchanges rows at step k, each is to be exchanged lane by lane.
/// No set of exchanged rows equals it, since row k itself is never in one.
inline constexpr std::uint64_t every_lane_exchanges = ~std::uint64_t(0);

/// Exchanges rows k and each lane's pivot row of step k in a block of
/// vectors, as Tile::swaps(k) says: by masked vector moves for the rows in
/// the set, or lane by lane.
template <typename T, int W, int N>
inline void exchange_step(const Tile<T, W, N>& t, T* block, std::int64_t ld, int columns, int k) noexcept {
    const std::uint64_t rows = t.swaps(k);
    if (rows == every_lane_exchanges)
        exchange_lanes<T, W>(block, ld, columns, k, t.pivot(k), t.scalar_exchanges());
    else if (rows)
        exchange_rows<T, W>(block, ld, columns, k, rows, Lanes<T, W>::load(t.pivot(k)));
}

/// Exchanges row k with each lane's pivot row of step k in columns c0 ..
/// c0 + count - 1 of the tile, as factor() does once Tile::swaps(k) is set:
/// masked vector exchanges where the tile blends (every row below k:
/// Tile::blends_all_rows_below) and wherever the lanes chose at most three
/// distinct rows; otherwise lane by lane. `pivot`: the pivots of step k,
/// as Tile::pivot(k) holds them (factor passes the register it stored them
/// from: with them reloaded from memory there, double n = 4 ran 5% slower).
template <typename T, int W, int N>
inline void exchange_columns(const Tile<T, W, N>& t, int c0, int count, int k,
                             typename Lanes<T, W>::M pivot) noexcept {
    const std::uint64_t rows = t.swaps(k);
    if (t.blends_all_rows_below() || __builtin_popcountll(rows) <= 3)
        exchange_rows<T, W>(t.at(0, c0), t.ld(), count, k, rows, pivot);
    else if (rows)
        exchange_lanes<T, W>(t.at(0, c0), t.ld(), count, k, t.pivot(k), t.scalar_exchanges());
}

/// The exchanges of steps s0 .. s1 - 1, in step order, in columns c0 ..
/// c0 + count - 1 (factor_columns' deferred exchanges). Out of line: it
/// runs once per panel, and it keeps the dynamic kernel's growth out of
/// GCC's inlining budget for the translation unit, which decides whether
/// small helpers stay inline (with it inlined and factor's pivots reloaded
/// from memory, transpose.hpp's gather_runs went out of line and double
/// n = 4 ran at 0.76x).
template <typename T, int W, int N>
[[gnu::noinline]] void exchange_columns(const Tile<T, W, N>& t, int c0, int count, int s0, int s1) noexcept {
    for (int s = s0; s < s1; ++s) exchange_columns(t, c0, count, s, Lanes<T, W>::load(t.pivot(s)));
}

/// The set of rows exchanged with row k, from the pivots of step k.
template <typename T, int W, int N>
inline std::uint64_t rows_exchanged_at(const Tile<T, W, N>& t, int k) noexcept {
    std::uint64_t rows = 0;
    const auto* pivot = t.pivot(k);
    if (t.order() > 64) {
        for (int l = 0; l < W; ++l) rows |= std::uint64_t(pivot[l] != k);
        return rows ? every_lane_exchanges : 0;
    }
    // Branch-free: which lanes exchange is data, and unpredictable.
    for (int l = 0; l < W; ++l) rows |= std::uint64_t(pivot[l] != k) << pivot[l];
    return rows;
}

/// Applies to column j the updates of the steps before it, row block by row
/// block held in registers: a(i, j) -= l(i, k) a(k, j) for k < min(i, j), in
/// increasing k, exactly the sequence the right-looking elimination applies to
/// that element (the rows of l travel with every exchange, so the values
/// match too), but each element is loaded and stored once per column rather
/// than once per step.
template <typename T, int W, int N>
inline void update_column(const Tile<T, W, N>& t, int j) noexcept {
    using L = Lanes<T, W>;
    using V = typename L::V;
    constexpr int RB = Tile<T, W, N>::row_block;
    const int n = t.order();
    for (int i0 = 0; i0 < n; i0 += RB) {
        V acc[RB];
        for (int r = 0; r < RB; ++r) acc[r] = L::load(t.at(i0 + r, j));
        // Steps above the block update all of its rows.
        const int above = i0 < j ? i0 : j;
        for (int k = 0; k < above; ++k) {
            const V u = L::load(t.at(k, j));
            for (int r = 0; r < RB; ++r) acc[r] = acc[r] - L::load(t.at(i0 + r, k)) * u;
        }
        // Steps inside the block update the rows below them.
#pragma GCC unroll 8
        for (int q = 0; q < RB; ++q) {
            if (i0 + q >= j) break;
#pragma GCC unroll 8
            for (int r = q + 1; r < RB; ++r) acc[r] = acc[r] - L::load(t.at(i0 + r, i0 + q)) * acc[q];
        }
        for (int r = 0; r < RB; ++r)
            if (i0 + r < n) L::store(t.at(i0 + r, j), acc[r]);
    }
}

/// Register blocking of the updates from order 25 on (update_panel): `rows` x
/// `columns` accumulators, with one multiplier vector and `columns` pivot-row
/// vectors live beside them. 32 vector registers (AVX-512) hold 4 x 4; 16
/// (AVX2, SSE2) hold 4 x 3. On Zen 4 the factorization at n = 64 took
/// 0.80-0.84x the time of the column-by-column update, whole calls at
/// n = 28-64 ran 1.08-1.20x faster, and below 25 nothing was gained
/// (docs/cpu_simd.md).
template <typename T, int W>
struct PanelShape {
    static constexpr int rows = 4;
    static constexpr int columns = W * int(sizeof(T)) >= 64 ? 4 : 3;
    static constexpr int from_order = 25;
    /// From this order factor_columns defers exchanges (its comment says
    /// how). A tile of order 48 (56 padded rows of 64-byte vectors, 168 KiB)
    /// is far past L1, and each step's exchange swept all of it: at n = 64
    /// the factorization took 1.8-2.1x the time it takes with no exchange at
    /// all (model-207 Xeon, AVX-512). Deferred, the factorization alone ran
    /// 1.2-1.25x faster in double and 1.3-1.4x in float at n = 48-176 with
    /// AVX-512, 1.1-1.3x with AVX2 (double 128: level; float 1.6x); whole
    /// calls 1.14-1.18x and 1.23-1.38x at 48-128, 1.04-1.13x at 40-44, level
    /// to 1.03x at 36. At 32 the host's noise hid any difference, and at
    /// 24-27 catching up each panel cost 5-15% (docs/cpu_simd.md).
    static constexpr int deferred_exchanges_from = 36;
};

/// Applies to the C columns j0 .. j0 + C - 1 the updates of every step
/// before j0, RB rows by C columns in registers: each multiplier loaded
/// serves C columns and each pivot-row element RB rows, where
/// update_column loads a multiplier per multiply-add. Each element still
/// receives its updates one by one in increasing step order, so the values
/// are update_column's bit for bit.
template <int RB, int C, typename T, int W, int N>
[[gnu::noinline]] void update_panel(const Tile<T, W, N>& t, int j0) noexcept {
    using L = Lanes<T, W>;
    using V = typename L::V;
    static_assert(Tile<T, W, N>::row_block % RB == 0, "a panel row block must not cross the tile's padding");
    const int n = t.order();
    for (int i0 = 0; i0 < n; i0 += RB) {
        V acc[RB][C];
#pragma GCC unroll 8
        for (int r = 0; r < RB; ++r)
#pragma GCC unroll 8
            for (int c = 0; c < C; ++c) acc[r][c] = L::load(t.at(i0 + r, j0 + c));
        // Steps above the block update all of its rows.
        const int above = i0 < j0 ? i0 : j0;
        for (int k = 0; k < above; ++k) {
            V u[C];
#pragma GCC unroll 8
            for (int c = 0; c < C; ++c) u[c] = L::load(t.at(k, j0 + c));
#pragma GCC unroll 8
            for (int r = 0; r < RB; ++r) {
                const V l = L::load(t.at(i0 + r, k));
#pragma GCC unroll 8
                for (int c = 0; c < C; ++c) acc[r][c] = acc[r][c] - l * u[c];
            }
        }
        // Steps inside the block (rows of U above the panel) update the rows
        // below them.
#pragma GCC unroll 8
        for (int q = 0; q < RB; ++q) {
            if (i0 + q >= j0) break;
#pragma GCC unroll 8
            for (int r = q + 1; r < RB; ++r) {
                const V l = L::load(t.at(i0 + r, i0 + q));
#pragma GCC unroll 8
                for (int c = 0; c < C; ++c) acc[r][c] = acc[r][c] - l * acc[q][c];
            }
        }
#pragma GCC unroll 8
        for (int r = 0; r < RB; ++r)
            if (i0 + r < n)
#pragma GCC unroll 8
                for (int c = 0; c < C; ++c) L::store(t.at(i0 + r, j0 + c), acc[r][c]);
    }
}

/// Applies to column j the updates of steps k0 .. j - 1, those of the steps
/// before k0 being in place already (update_panel): update_column with the
/// steps cut from below. Rows up to k0 receive none.
template <typename T, int W, int N>
[[gnu::noinline]] void update_column_from(const Tile<T, W, N>& t, int j, int k0) noexcept {
    using L = Lanes<T, W>;
    using V = typename L::V;
    constexpr int RB = Tile<T, W, N>::row_block;
    const int n = t.order();
    for (int i0 = k0 / RB * RB; i0 < n; i0 += RB) {
        V acc[RB];
        for (int r = 0; r < RB; ++r) acc[r] = L::load(t.at(i0 + r, j));
        const int above = i0 < j ? i0 : j;
        for (int k = k0; k < above; ++k) {
            const V u = L::load(t.at(k, j));
            for (int r = 0; r < RB; ++r) acc[r] = acc[r] - L::load(t.at(i0 + r, k)) * u;
        }
#pragma GCC unroll 8
        for (int q = 0; q < RB; ++q) {
            if (i0 + q >= j) break;
            if (i0 + q < k0) continue;
#pragma GCC unroll 8
            for (int r = q + 1; r < RB; ++r) acc[r] = acc[r] - L::load(t.at(i0 + r, i0 + q)) * acc[q];
        }
        for (int r = 0; r < RB; ++r)
            if (i0 + r < n) L::store(t.at(i0 + r, j), acc[r]);
    }
}

/// Step k of factor_columns once column k has received its updates: the
/// pivot chosen per lane (LAPACK's rule, relaxed by tau), the singular lanes
/// recorded in `info`, rows k and the pivot's exchanged in columns `first`
/// .. `live` - 1, and the multipliers scaled. Always inlined: factor_pair
/// runs it for two tiles one after the other.
template <typename T, int W, int N>
TDLS_SIMD_FORCE_INLINE void pivot_step(const Tile<T, W, N>& t, int k, T tau, int first, int live,
                                       typename Lanes<T, W>::M& info) noexcept {
    using L = Lanes<T, W>;
    using V = typename L::V;
    using M = typename L::M;
    using Index = typename L::Index;
    const int n = t.order();
    const V one = L::splat(T(1)), zero = V{}, floor = L::splat(std::numeric_limits<T>::min());
    // First largest magnitude strictly below the diagonal (NaN never wins).
    const V in_place = L::magnitude(L::load(t.at(k, k)));
    V best = L::splat(T(-1));
    M below = L::splat_index(-1);
    for (int i = k + 1; i < n; ++i) {
        const V m = L::magnitude(L::load(t.at(i, k)));
        const M better = m > best;
        best = better ? m : best;
        below = better ? L::splat_index(Index(i)) : below;
    }
    // The row in place stays unless a row below is strictly larger, or,
    // under a relaxed threshold, while it reaches tau times that row.
    const M larger_below = (below >= 0) & (best > in_place);
    M stays = ~larger_below;
    if (tau < T(1)) stays |= (in_place >= L::splat(tau) * best) & (in_place >= floor) & (in_place > zero);
    const V largest = larger_below ? best : in_place;
    const M pivot = stays ? L::splat_index(Index(k)) : below;
    L::store(t.pivot(k), pivot);
    const M singular = (largest < floor) | (largest == zero);
    info = (singular & (info == 0)) ? L::splat_index(Index(k + 1)) : info;

    // The rows exchanged with row k: where the tile blends (small static
    // orders) every row below k, whichever the lanes chose (the same
    // blends in every tile, no branch on the data); otherwise the rows the
    // lanes chose.
    std::uint64_t rows;
    if (t.blends_all_rows_below())
        rows = (std::uint64_t(1) << N) - (std::uint64_t(2) << k);
    else
        rows = rows_exchanged_at(t, k);
    t.swaps(k) = rows;
    // Those, or a few distinct rows: masked vector exchanges; many (or,
    // past order 64, any: every_lane_exchanges): lane by lane.
    exchange_columns(t, first, live - first, k, pivot);

    const V reciprocal = singular ? one : one / L::load(t.at(k, k));
    for (int i = k + 1; i < n; ++i) L::store(t.at(i, k), L::load(t.at(i, k)) * reciprocal);
}

/// factor() with the updates column by column (Panels false) or, from order
/// 25 on, in panels of C columns (Panels true): at the panel's first column,
/// every panel column receives the steps before the panel (update_panel);
/// each column then receives the panel's own earlier steps at its turn
/// (update_column_from). An exchange moves whole rows, the partly updated
/// panel columns included, so every element meets the same values in the
/// same order as column by column. Columns past the last whole panel are
/// updated column by column. Two instantiations rather than a run-time
/// choice inside one loop: the column-by-column loop of the small orders
/// then compiles as it did before panels existed (a shared loop cost them
/// 5-10% in double on Zen 4).
///
/// Deferred exchanges (docs/cpu_simd.md): from order
/// deferred_exchanges_from, each step's exchange reaches only
/// the columns of the current panel and those left of it. A column past
/// the panel receives the exchanges of all earlier steps, in step order, at
/// the start of its panel (or, past the last whole panel, of its step),
/// when update_panel is about to bring it into L1 anyway; the columns left
/// of the current panel receive its steps' exchanges in one pass, four
/// columns at a time, when the next panel starts (update_panel reads them
/// there first) or when the factorization ends. Exchanges of different
/// columns are independent, and each column still receives every exchange
/// in step order before anything reads it, so the factors are bit for bit
/// those of exchanging across the tile at every step.
///
/// Out of line: the range kernel instantiates it with and without the
/// prefetch (two loops), and with both inlined GCC moved solve and
/// store_pivots out of line instead (8% slower at n = 4, float).
template <bool Panels, typename T, int W, int N, typename Step>
[[gnu::noinline]] typename Lanes<T, W>::M factor_columns(const Tile<T, W, N>& t, T tau, const Step& step) noexcept {
    using M = typename Lanes<T, W>::M;
    using Panel = PanelShape<T, W>;
    const int n = t.order();
    M info = M{};
    const int panels_end = Panels ? n / Panel::columns * Panel::columns : 0;
    int panel = 0; // the first column of the current panel
    const bool deferred = Panels && n >= Panel::deferred_exchanges_from;
    // Columns 0 .. live - 1 have received the exchanges of the steps before
    // k (while deferred, those left of the panel all but the panel's own).
    int live = deferred ? 0 : n;
    const auto catch_up_left = [&](int k) {
        for (int c = 0; c < panel; c += Panel::columns)
            exchange_columns(t, c, panel - c < Panel::columns ? panel - c : Panel::columns, panel, k);
    };
    for (int k = 0; k < n; ++k) {
        step(k);
        if (deferred) {
            if (k > 0 && k <= panels_end && k % Panel::columns == 0) catch_up_left(k);
            if (k == live) {
                const int width = k < panels_end ? Panel::columns : 1;
                exchange_columns(t, k, width, 0, k);
                live = k + width;
            }
        }
        if constexpr (Panels) {
            if (k < panels_end) {
                if (k % Panel::columns == 0) {
                    panel = k;
                    if (k > 0) update_panel<Panel::rows, Panel::columns>(t, k);
                }
                if (k > panel) update_column_from(t, k, panel);
            } else {
                update_column(t, k);
            }
        } else if (k > 0) {
            update_column(t, k);
        }
        pivot_step(t, k, tau, deferred && k < panels_end ? panel : 0, live, info);
    }
    if (deferred && panels_end == n) catch_up_left(n);
    return info;
}

/// What factor() runs at the start of each step k, beside the arithmetic,
/// when the caller has nothing there (the range kernel may prefetch the next
/// tile: prefetch.hpp). Such work must not touch the tile.
struct NoStepWork {
    void operator()(int) const noexcept {}
};

/// Factors the W systems in place (P A = L U per lane, LAPACK's format) and
/// records the pivots; returns each lane's info (0, or the first singular
/// column, 1-based). Left-looking: column k receives its updates, then its
/// pivot is chosen, its rows exchanged across the whole tile, and its
/// multipliers scaled (factor_columns).
template <typename T, int W, int N, typename Step = NoStepWork>
typename Lanes<T, W>::M factor(const Tile<T, W, N>& t, T tau, const Step& step = {}) noexcept {
    if constexpr (N == 0)
        if (t.order() >= PanelShape<T, W>::from_order) return factor_columns<true>(t, tau, step);
    return factor_columns<false>(t, tau, step);
}

/// factor() of two tiles of a small static order at once, step by step:
/// each tile's step is a chain of dependent operations (update, pivot
/// search, exchange, reciprocal, scaling) far shorter than its latency, and
/// one tile's chain does not wait on the other's, so the processor overlaps
/// them. Each tile's operations are those of factor(), in the same order:
/// its factors are factor()'s bit for bit.
template <typename T, int W, int N, typename StepA, typename StepB>
[[gnu::noinline]] void factor_pair(const Tile<T, W, N>& a, const Tile<T, W, N>& b, T tau, const StepA& step_a,
                                   const StepB& step_b, typename Lanes<T, W>::M& info_a,
                                   typename Lanes<T, W>::M& info_b) noexcept {
    static_assert(N > 0 && N < PanelShape<T, W>::from_order, "pairs are for the column-by-column orders");
    info_a = typename Lanes<T, W>::M{};
    info_b = typename Lanes<T, W>::M{};
    for (int k = 0; k < N; ++k) {
        step_a(k);
        step_b(k);
        if (k > 0) {
            update_column(a, k);
            update_column(b, k);
        }
        pivot_step(a, k, tau, 0, N, info_a);
        pivot_step(b, k, tau, 0, N, info_b);
    }
}

/// After pivots were loaded from LAPACK's swap sequence (getrs): the rows
/// each step exchanges.
template <typename T, int W, int N>
void index_exchanges(const Tile<T, W, N>& t) noexcept {
    for (int k = 0; k < t.order(); ++k) t.swaps(k) = rows_exchanged_at(t, k);
}

/// Solves A X = B for `columns` right-hand sides of the W factored systems
/// of each of P tiles (1, or 2 for the range kernel's pairs), tile p's B at
/// b[p]: element (i, c) of lane l at b[p][(c*n + i)*W + l], overwritten by
/// X. Column-major: L U = P A, so P b, then L y = P b, U x = y. Row-major:
/// the factors are those of A^T = P^T L U, so U^T z = b, L^T w = z,
/// x = P^T w. The tiles take their turns operation by operation, each in
/// the order of one tile alone, so that the processor overlaps their chains
/// of divisions and multiply-adds and each tile's X is the same bit for
/// bit. Always inlined into the range kernel (out of line, orders 2-4 ran
/// 5-8% slower).
template <int P, typename T, int W, int N>
TDLS_SIMD_FORCE_INLINE void solve_tiles(const Tile<T, W, N>* const (&t)[P], T* const (&b)[P], int columns,
                                        bool row_major) noexcept {
    using L = Lanes<T, W>;
    using V = typename L::V;
    const int n = t[0]->order();
    const V one = L::splat(T(1));
    const auto x = [&](int p, int i, int c) { return b[p] + (std::int64_t(c) * n + i) * W; };
    if (!row_major) {
        for (int k = 0; k < n; ++k)
            for (int p = 0; p < P; ++p) exchange_step(*t[p], b[p], n, columns, k);
        for (int c = 0; c < columns; ++c) {
            for (int k = 0; k < n; ++k)
                for (int p = 0; p < P; ++p) {
                    const V y = L::load(x(p, k, c));
                    for (int i = k + 1; i < n; ++i)
                        L::store(x(p, i, c), L::load(x(p, i, c)) - L::load(t[p]->at(i, k)) * y);
                }
            for (int k = n - 1; k >= 0; --k)
                for (int p = 0; p < P; ++p) {
                    const V v = L::load(x(p, k, c)) / L::load(t[p]->at(k, k));
                    L::store(x(p, k, c), v);
                    for (int i = 0; i < k; ++i)
                        L::store(x(p, i, c), L::load(x(p, i, c)) - L::load(t[p]->at(i, k)) * v);
                }
        }
        return;
    }
    for (int c = 0; c < columns; ++c) {
        for (int i = 0; i < n; ++i)
            for (int p = 0; p < P; ++p) {
                const V z = L::load(x(p, i, c)) * (one / L::load(t[p]->at(i, i)));
                L::store(x(p, i, c), z);
                for (int j = i + 1; j < n; ++j)
                    L::store(x(p, j, c), L::load(x(p, j, c)) - L::load(t[p]->at(i, j)) * z);
            }
        for (int j = n - 1; j >= 0; --j)
            for (int p = 0; p < P; ++p) {
                const V w = L::load(x(p, j, c));
                for (int i = 0; i < j; ++i)
                    L::store(x(p, i, c), L::load(x(p, i, c)) - L::load(t[p]->at(j, i)) * w);
            }
    }
    for (int k = n - 1; k >= 0; --k)
        for (int p = 0; p < P; ++p) exchange_step(*t[p], b[p], n, columns, k);
}

} // namespace tdls::kernels::cpu::simd::TDLS_SIMD_ISA
