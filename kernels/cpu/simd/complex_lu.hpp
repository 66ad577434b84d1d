// libtdls: LU with partial pivoting of W complex systems at once, one system
// per SIMD lane, each complex element split into a vector of real parts and
// a vector of imaginary parts (W lanes of the real type R each): a complex
// multiply-add is then four real vector multiply-adds with no shuffle.
//
// The arithmetic of every lane, operation by operation, is that of the
// cooperative solver on one thread (detail/engine.hpp) for std::complex: the
// pivot is the first largest |re| + |im| (izamax), relaxed by the threshold
// tau, NaNs never chosen from below; a column whose largest candidate is
// below the smallest normal number is singular (multiplier scale 1); the
// multipliers are a_ik * (1 / a_kk) with tdls::quotient's Smith division;
// products are (ac - bd, ad + bc), as GCC expands std::complex's; the
// column-major back substitution divides, the row-major U^T solve multiplies
// by the reciprocal. Compiled without contraction of multiply-adds the two
// are bitwise equal (tests/simd/test_simd_complex.cpp); the library's
// instances contract them into FMAs.
//
// Simpler than the real tiles (tile_lu.hpp): left-looking with the rows of a
// column in registers, whole rows exchanged lane by lane, systems moved
// element by element. It serves every order up to max_order; its speed is in
// docs/cpu_simd.md.
#pragma once

#include <algorithm>
#include <complex>
#include <cstdint>
#include <limits>
#include <new>

#include <tdls/core/math.hpp>

#include "../../common/batch_call.hpp"
#include "../../common/pivots.hpp"
#include "lanes.hpp"
#include "tile_io.hpp"

namespace tdls::kernels::cpu::simd::TDLS_SIMD_ISA {

/// W complex systems of order n, split: element (i, j) of lane l has its real
/// part at re(i, j)[l] and its imaginary part at im(i, j)[l], the two
/// vectors side by side (one memory stream per element); columns ld()
/// elements apart; the pivot row of each step per lane; the right-hand sides,
/// split the same way (entry i of column c: rhs_re(i, c), rhs_im(i, c)).
template <typename R, int W>
class ComplexTile {
  public:
    using L = Lanes<R, W>;
    using V = typename L::V;
    using M = typename L::M;
    using Index = typename L::Index;

    /// The column stride in elements: at least n, and never a multiple of 256
    /// bytes. Columns 4 KiB apart (n = 64 with 64-byte vectors) put row i of
    /// every column in the same L1 set, and the left-looking update reads a
    /// row across columns: that ran 2x slower with AVX-512 than with AVX2.
    static int leading(int n) noexcept {
        int ld = n;
        while ((std::int64_t(ld) * 2 * W * sizeof(R)) % 256 == 0) ++ld;
        return ld;
    }

    /// One allocation, cache-line aligned, as the real tiles' (simd_range.hpp):
    /// with new[]'s 16-byte alignment an element's two vectors straddled
    /// cache lines whenever the allocator returned a block 16 bytes off a
    /// line, and the factorization ran 1.5x slower in such a process.
    static constexpr std::size_t alignment = 64;

    // Left uninitialized: every element is written before it is read (the
    // systems' loads fill all n x n elements and sides of every lane; the
    // padding rows past n are never touched). Zeroing half a MiB per range
    // cost a quarter of the rate at n = 32 when each range is one tile.
    ComplexTile(int n, int rhs_columns)
        : n_(n), ld_(leading(n)), matrix_(round(std::size_t(ld_) * n * 2 * W * sizeof(R))),
          pivots_(round(std::size_t(n) * W * sizeof(Index))),
          rhs_(std::size_t(ld_) * rhs_columns * 2 * W * sizeof(R)),
          memory_(static_cast<unsigned char*>(
              ::operator new(matrix_ + 2 * pivots_ + rhs_, std::align_val_t(alignment)))) {}
    ~ComplexTile() { ::operator delete(memory_, std::align_val_t(alignment)); }
    ComplexTile(const ComplexTile&) = delete;
    ComplexTile& operator=(const ComplexTile&) = delete;

    int order() const noexcept { return n_; }
    R* re(int i, int j) noexcept { return matrix() + (std::size_t(j) * ld_ + i) * 2 * W; }
    R* im(int i, int j) noexcept { return re(i, j) + W; }
    Index* pivot(int k) noexcept { return reinterpret_cast<Index*>(memory_ + matrix_) + std::size_t(k) * W; }
    /// row_at(k)[l]: the original row of lane l at position k (the swap sequence applied).
    Index* row_at(int k) noexcept {
        return reinterpret_cast<Index*>(memory_ + matrix_ + pivots_) + std::size_t(k) * W;
    }
    R* rhs_re(int i, int c) noexcept {
        return reinterpret_cast<R*>(memory_ + matrix_ + 2 * pivots_) + (std::size_t(c) * ld_ + i) * 2 * W;
    }
    R* rhs_im(int i, int c) noexcept { return rhs_re(i, c) + W; }

  private:
    static std::size_t round(std::size_t bytes) noexcept { return (bytes + alignment - 1) / alignment * alignment; }
    R* matrix() noexcept { return reinterpret_cast<R*>(memory_); }

    int n_, ld_;
    std::size_t matrix_, pivots_, rhs_; // bytes of each part (the first two rounded to lines)
    unsigned char* memory_;
};

/// A vector pair: W complex numbers.
template <typename R, int W>
struct Split {
    typename Lanes<R, W>::V re, im;
};

/// a * b as GCC expands std::complex's product: (ac - bd, ad + bc).
template <typename R, int W>
inline Split<R, W> times(Split<R, W> a, Split<R, W> b) noexcept {
    return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}

/// tdls::quotient's Smith division, lane by lane: both branches computed,
/// each lane takes the one its |re| >= |im| test picks.
template <typename R, int W>
inline Split<R, W> quotient(Split<R, W> a, Split<R, W> b) noexcept {
    using L = Lanes<R, W>;
    const typename L::M first = L::magnitude(b.re) >= L::magnitude(b.im);
    // |c| >= |d|: r = d / c, den = c + d r, ((a.re + a.im r), (a.im - a.re r)) / den.
    const typename L::V r1 = b.im / b.re, den1 = b.re + b.im * r1;
    const typename L::V re1 = (a.re + a.im * r1) / den1, im1 = (a.im - a.re * r1) / den1;
    // else: r = c / d, den = c r + d, ((a.re r + a.im), (a.im r - a.re)) / den.
    const typename L::V r2 = b.re / b.im, den2 = b.re * r2 + b.im;
    const typename L::V re2 = (a.re * r2 + a.im) / den2, im2 = (a.im * r2 - a.re) / den2;
    return {first ? re1 : re2, first ? im1 : im2};
}

template <typename R, int W>
inline Split<R, W> load(const R* re, const R* im) noexcept {
    return {Lanes<R, W>::load(re), Lanes<R, W>::load(im)};
}
template <typename R, int W>
inline void store(R* re, R* im, Split<R, W> v) noexcept {
    Lanes<R, W>::store(re, v.re);
    Lanes<R, W>::store(im, v.im);
}

/// Exchanges rows k and p_l of every column in each lane l whose pivot p_l
/// of step k is another row: two scalars per column and part. (Column by
/// column across lanes instead measured the same at n = 32 and 64.)
template <typename R, int W>
inline void exchange_rows(ComplexTile<R, W>& t, int k) noexcept {
    const int n = t.order();
    const auto* pivot = t.pivot(k);
    for (int l = 0; l < W; ++l) {
        const int p = int(pivot[l]);
        if (p == k) continue;
        for (int j = 0; j < n; ++j) {
            std::swap(t.re(k, j)[l], t.re(p, j)[l]);
            std::swap(t.im(k, j)[l], t.im(p, j)[l]);
        }
    }
}

/// Rows of a column updated together in registers by factor(): their
/// accumulators (two vectors each) and the pivot row's element stay in
/// registers across the steps k.
template <int W, typename R>
inline constexpr int row_block = 4;

/// Column j, rows [first, first + Rows): every step k < min(i, j) applied
/// to element (i, j), in increasing k (the engine's order), with the rows'
/// running values in registers. Steps below `first` come from the rows
/// above (final by then); the others from the block's own rows, final once
/// their own steps are applied, in order.
template <typename R, int W, int Rows>
inline void update_rows(ComplexTile<R, W>& t, int j, int first) noexcept {
    using L = Lanes<R, W>;
    using V = typename L::V;
    V re[Rows], im[Rows];
#pragma GCC unroll 8
    for (int r = 0; r < Rows; ++r) {
        re[r] = L::load(t.re(first + r, j));
        im[r] = L::load(t.im(first + r, j));
    }
    const int shared = std::min(first, j); // steps every row of the block takes from above
    for (int k = 0; k < shared; ++k) {
        const V u_re = L::load(t.re(k, j)), u_im = L::load(t.im(k, j));
        const R* l = t.re(first, k); // rows first.. of column k: real, imaginary, real, ...
#pragma GCC unroll 8
        for (int r = 0; r < Rows; ++r) {
            const V lr = L::load(l + 2 * r * W), li = L::load(l + (2 * r + 1) * W);
            re[r] = re[r] - (lr * u_re - li * u_im);
            im[r] = im[r] - (lr * u_im + li * u_re);
        }
    }
    // Steps first .. j - 1 that reach rows of this block: row k of the block
    // is final once its own steps are in.
#pragma GCC unroll 8
    for (int kr = 0; kr < Rows - 1; ++kr) {
        const int k = first + kr;
        if (k >= j) break;
#pragma GCC unroll 8
        for (int r = kr + 1; r < Rows; ++r) {
            const V lr = L::load(t.re(first + r, k)), li = L::load(t.im(first + r, k));
            re[r] = re[r] - (lr * re[kr] - li * im[kr]);
            im[r] = im[r] - (lr * im[kr] + li * re[kr]);
        }
    }
#pragma GCC unroll 8
    for (int r = 0; r < Rows; ++r) {
        L::store(t.re(first + r, j), re[r]);
        L::store(t.im(first + r, j), im[r]);
    }
}

/// Factors the tile in place (LAPACK's format: row k of the factors is the
/// row at position k) with the pivot threshold tau; records each step's
/// pivot row per lane. Returns LAPACK's info per lane. Left-looking, column
/// by column: each element receives the engine's steps in the engine's order
/// (whole rows are exchanged at each step, so a row's multipliers travel
/// with its unreduced entries), so the factors are bitwise the right-looking
/// engine's.
template <typename R, int W>
typename Lanes<R, W>::M factor(ComplexTile<R, W>& t, R tau) noexcept {
    using L = Lanes<R, W>;
    using V = typename L::V;
    using M = typename L::M;
    using Index = typename L::Index;
    using S = Split<R, W>;
    constexpr int RB = row_block<W, R>;
    const int n = t.order();
    const R floor = std::numeric_limits<R>::min(); // the C ABI's singular floor, the smallest normal number
    M info = L::splat_index(0);
    for (int k = 0; k < n; ++k) {
        // Column k receives its steps: rows 1..k-1 become U, rows k.. the candidates.
        int first = 1;
        for (; first + RB <= n; first += RB) update_rows<R, W, RB>(t, k, first);
        for (; first < n; ++first) update_rows<R, W, 1>(t, k, first);

        // The first largest |re| + |im| strictly below the diagonal (NaN never wins).
        const V in_place = L::magnitude(L::load(t.re(k, k))) + L::magnitude(L::load(t.im(k, k)));
        V best = L::splat(R(-1));
        M best_row = L::splat_index(-1);
        for (int i = k + 1; i < n; ++i) {
            const V m = L::magnitude(L::load(t.re(i, k))) + L::magnitude(L::load(t.im(i, k)));
            const M larger = m > best;
            best = larger ? m : best;
            best_row = larger ? L::splat_index(Index(i)) : best_row;
        }
        // The engine's choose(): keep the row in place when it reaches tau
        // times the largest (and the floor); else the largest replaces it.
        const M below_wins = (best_row >= Index(0)) & (best > in_place);
        const M keep = below_wins & (in_place >= L::splat(tau) * best) & (in_place >= L::splat(floor)) &
                       (in_place > L::splat(R(0)));
        const M moves = below_wins & ~keep;
        const V largest = below_wins ? best : in_place;
        const M pivot = moves ? best_row : L::splat_index(Index(k));
        L::store(t.pivot(k), pivot);
        const M singular = (largest < L::splat(floor)) | (largest == L::splat(R(0)));
        info = (info == Index(0)) & singular ? L::splat_index(Index(k + 1)) : info;
        exchange_rows(t, k);

        // Multipliers a_ik * (1 / a_kk); a singular column scales by 1.
        const S one{L::splat(R(1)), L::splat(R(0))};
        const S inverse = quotient<R, W>(one, load<R, W>(t.re(k, k), t.im(k, k)));
        const S reciprocal{singular ? one.re : inverse.re, singular ? one.im : inverse.im};
        for (int i = k + 1; i < n; ++i)
            store<R, W>(t.re(i, k), t.im(i, k), times<R, W>(load<R, W>(t.re(i, k), t.im(i, k)), reciprocal));
    }
    return info;
}

/// row_at(k): the original row at position k after the recorded exchanges.
template <typename R, int W>
void index_exchanges(ComplexTile<R, W>& t) noexcept {
    const int n = t.order();
    for (int l = 0; l < W; ++l) {
        for (int k = 0; k < n; ++k) t.row_at(k)[l] = k;
        for (int k = 0; k < n; ++k) std::swap(t.row_at(k)[l], t.row_at(int(t.pivot(k)[l]))[l]);
    }
}

/// Solves the `columns` right-hand sides held in the tile with its factors:
/// column-major A: L y = P b, U x = y; row-major A (the tile holds A^T's
/// factors): U^T z = b, L^T w = z, x = P^T w. The permutation is applied
/// when the sides are loaded (column-major) or stored (row-major).
template <typename R, int W>
void solve(ComplexTile<R, W>& t, int columns, bool row_major) noexcept {
    using L = Lanes<R, W>;
    using S = Split<R, W>;
    const int n = t.order();
    const S one{L::splat(R(1)), L::splat(R(0))};
    for (int c = 0; c < columns; ++c) {
        const auto x = [&](int i) { return load<R, W>(t.rhs_re(i, c), t.rhs_im(i, c)); };
        const auto set = [&](int i, S v) { store<R, W>(t.rhs_re(i, c), t.rhs_im(i, c), v); };
        const auto a = [&](int i, int j) { return load<R, W>(t.re(i, j), t.im(i, j)); };
        const auto minus = [](S p, S q) { return S{p.re - q.re, p.im - q.im}; };
        if (!row_major) {
            for (int i = 0; i < n; ++i) {
                const S y = x(i);
                for (int r = i + 1; r < n; ++r) set(r, minus(x(r), times<R, W>(a(r, i), y)));
            }
            for (int p = n - 1; p >= 0; --p) {
                const S v = quotient<R, W>(x(p), a(p, p));
                set(p, v);
                for (int q = 0; q < p; ++q) set(q, minus(x(q), times<R, W>(a(q, p), v)));
            }
        } else {
            for (int i = 0; i < n; ++i) {
                const S z = times<R, W>(x(i), quotient<R, W>(one, a(i, i)));
                for (int col = i + 1; col < n; ++col) set(col, minus(x(col), times<R, W>(a(i, col), z)));
                set(i, z);
            }
            for (int j = n - 1; j > 0; --j) {
                const S w = x(j);
                for (int col = 0; col < j; ++col) set(col, minus(x(col), times<R, W>(a(j, col), w)));
            }
        }
    }
}

/// Systems [begin, end) of a complex call, W at a time (the last tile may be
/// partial: its other lanes solve the identity and are written nowhere).
template <typename T, bool RowMajor>
void complex_range(const BatchCall& call, std::int64_t begin, std::int64_t end) {
    using R = real_type_t<T>;
    constexpr int W = TDLS_SIMD_BYTES / int(sizeof(R));
    using L = Lanes<R, W>;
    using M = typename L::M;
    using Index = typename L::Index;
    const BatchOperands& ops = call.operands;
    const int n = int(ops.n);
    const bool solves = call.operation != Operation::Getrf && ops.nrhs > 0;
    // Right-hand sides in blocks of at most ~64 KiB per part.
    const int block = solves ? rhs_block_columns(n, ops.nrhs, W * sizeof(R)) : 0;
    ComplexTile<R, W> t(n, block);
    const R tau = R(call.pivot_threshold);

    for (std::int64_t first = begin; first < end; first += W) {
        const int count = int(std::min<std::int64_t>(W, end - first));
        const TileSystems<T, W> s = systems_of<T, W>(ops, first, count);
        for (int l = 0; l < W; ++l)
            for (int j = 0; j < n; ++j)
                for (int i = 0; i < n; ++i) {
                    const T e = l < count ? s.view[l].A[i * s.view[l].a_row + j * s.view[l].a_col]
                                          : T(i == j ? R(1) : R(0));
                    t.re(i, j)[l] = e.real();
                    t.im(i, j)[l] = e.imag();
                }
        M written; // the lanes whose B is written
        if (call.operation == Operation::Getrs) {
            // Pivots read once each and checked as they are used: a lane with
            // one outside 1..n keeps its B.
            written = L::splat_index(-1);
            for (int l = 0; l < W; ++l)
                for (int k = 0; k < n; ++k) {
                    std::int32_t p = l < count ? s.view[l].ipiv[k * s.view[l].ipiv_step] : k + 1;
                    if (p < 1 || p > n) {
                        written[l] = 0;
                        p = k + 1;
                    }
                    t.pivot(k)[l] = Index(p - 1);
                }
        } else {
            const M info = factor(t, tau);
            if (writes_factors(call.operation)) { // solve: the factors stay in the tile
                for (int l = 0; l < count; ++l) {
                    const SystemView<T>& v = s.view[l];
                    for (int j = 0; j < n; ++j)
                        for (int i = 0; i < n; ++i) v.A[i * v.a_row + j * v.a_col] = T(t.re(i, j)[l], t.im(i, j)[l]);
                    if (v.ipiv)
                        for (int k = 0; k < n; ++k) v.ipiv[k * v.ipiv_step] = std::int32_t(t.pivot(k)[l] + 1);
                }
            }
            for (int l = 0; l < count; ++l) ops.info[first + l] = std::int32_t(info[l]);
            written = info == Index(0);
        }
        if (!solves) continue;
        index_exchanges(t);
        for (std::int64_t column = 0; column < ops.nrhs; column += block) {
            const int columns = int(std::min<std::int64_t>(block, ops.nrhs - column));
            for (int l = 0; l < W; ++l)
                for (int c = 0; c < columns; ++c)
                    for (int i = 0; i < n; ++i) {
                        // Column-major: entry i is b at the original row of position i (P b).
                        const int from = RowMajor ? i : int(t.row_at(i)[l]);
                        const T e = l < count ? s.view[l].B[from * s.view[l].b_row + (column + c) * s.view[l].b_col]
                                              : T(R(0));
                        t.rhs_re(i, c)[l] = e.real();
                        t.rhs_im(i, c)[l] = e.imag();
                    }
            solve(t, columns, RowMajor);
            for (int l = 0; l < count; ++l) {
                if (!written[l]) continue;
                const SystemView<T>& v = s.view[l];
                for (int c = 0; c < columns; ++c)
                    for (int i = 0; i < n; ++i) {
                        // Row-major: x = P^T w, w_i lands at the original row of position i.
                        const int to = RowMajor ? int(t.row_at(i)[l]) : i;
                        v.B[to * v.b_row + (column + c) * v.b_col] = T(t.rhs_re(i, c)[l], t.rhs_im(i, c)[l]);
                    }
            }
        }
    }
}

} // namespace tdls::kernels::cpu::simd::TDLS_SIMD_ISA
