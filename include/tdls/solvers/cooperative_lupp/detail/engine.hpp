// libtdls: the algorithm of the cooperative LU-pp solver, shared by the static
// and the dynamic solver.
//
// Copyright (c) 2026, the libtdls developers. BSD 3-Clause License (LICENSE).
//
// The right-looking elimination with partial pivoting below, its rowid
// bookkeeping and its register-resident rows follow the method of MAGMA's
// small-system batched solver (magmablas/zgesv_batched_small.cu,
// zgesv_batched_small_device, by Azzam Haidar and Ahmad Abdelfattah; MAGMA
// 2.x, Univ. of Tennessee, Knoxville; Univ. of California, Berkeley; Univ. of
// Colorado, Denver), used under MAGMA's BSD 3-Clause license, reproduced in
// full in the LICENSE file. This is an independent implementation of that
// method; no MAGMA code is copied.
//
// One object of Engine lives in each thread of the group for the duration of
// one entry point. It holds the per-row state of the thread (the position or
// original index of each of its rows, its right-hand-side entries) and runs the
// phases of the algorithm. Between two barriers, no workspace element is
// written by one thread while another accesses it; each phase below says which
// region it writes and which it reads. The sequence of barriers depends only on
// the order, the row interchanges, the layout and the entry point, never on the
// data, so a barrier wider than the group remains valid.
#pragma once

#include <concepts>
#include <type_traits>

#include <tdls/core/group.hpp>
#include <tdls/core/macros.hpp>
#include <tdls/core/math.hpp>
#include <tdls/core/unroll.hpp>
#include <tdls/solvers/cooperative_lupp/config.hpp>
#include <tdls/solvers/cooperative_lupp/detail/operands.hpp>

namespace tdls::detail::coop {

/// The pivot of one column: its position in the pivoted order and the largest
/// candidate magnitude of the column, which decides singularity.
template <typename Real>
struct PivotChoice {
    int position;
    Real largest;
};

/// The order in which pivot candidates compete: the largest magnitude, the
/// first position among equals; a position < 0 is no candidate. A strict
/// total order on the candidates that exist (magnitudes are never NaN here:
/// a NaN never becomes a candidate), so any reduction tree finds the same
/// winner as a scan in thread order.
template <typename Real>
TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU constexpr bool outranks(Real m, int p, Real best,
                                                               int best_position) noexcept {
    return p >= 0 && (best_position < 0 || m > best || (m == best && p < best_position));
}

/// A group barrier that also reduces the group's pivot candidates itself
/// (the GPU block kernels: warp shuffles, then one candidate per warp;
/// kernels/gpu/pivot_search.hpp). reduce_candidates takes each thread's
/// candidate, may use `threads` slots of each candidate array, contains at
/// least one full barrier of the group (what was written before it is
/// visible after it) and returns the same winner in every thread, the
/// winner of `outranks`. Other barriers: every thread publishes its
/// candidate, one barrier, every thread scans them all.
template <typename S, typename Real, typename T>
concept ReducesCandidates = requires(S& s, int tx, int threads, Real m, int p, T* slots) {
    { s.reduce_candidates(tx, threads, m, p, slots, slots) } -> std::same_as<PivotChoice<Real>>;
};

/// Elements of the solver workspace for order n and a group of `threads`
/// threads, the two barrier elements included: the seed's formula. Logical
/// interchanges: three vectors of n (pivot row, magnitudes by position,
/// right-hand-side broadcast); the row-major substitution's two records of
/// n + 1 fit too, since its last step publishes nothing (see
/// lower_transposed). Physical: the candidate of each thread and its position,
/// the magnitude of the row in place, and two exchange records of n + 2 (row,
/// original index, rhs entry).
template <bool Physical>
TDLS_HOST_DEVICE constexpr int workspace_elements(int n, int threads) noexcept {
    const int data = Physical ? 2 * n + 2 * threads + 5 : 3 * n;
    return barrier_workspace_elements + data;
}

/// Rows each thread holds: the configured number, clamped to the order by a
/// static solver (a larger value only adds phantom rows), as upstream does.
template <int RowsPerThread, int StaticN>
inline constexpr int effective_rows_per_thread =
    StaticN > 0 && RowsPerThread > StaticN ? StaticN : RowsPerThread;

template <typename T, auto Config, int StaticN>
class Engine {
  public:
    /// Magnitudes, the threshold and the floor are real; so is the
    /// bookkeeping the workspace carries between threads (stored as scalars,
    /// read back with real_part).
    using Real = real_type_t<T>;
    static constexpr int R = effective_rows_per_thread<Config.rows_per_thread, StaticN>;
    static constexpr bool physical = Config.row_interchange == RowInterchange::Physical;
    static constexpr bool row_major = Config.layout == MatrixLayout::RowMajor;
    static constexpr bool unroll = Config.unroll_loops && StaticN > 0;
    static constexpr Real threshold = Config.relative_pivot_threshold.value();
    static constexpr bool runtime_threshold = Config.runtime_pivot_threshold;
    static constexpr Real floor = Config.singular_floor.value();
    static constexpr int static_threads = StaticN > 0 ? (StaticN + R - 1) / R : 0;

    /// Slots expanded at compile time in a dynamic solver; more are looped.
    static constexpr int max_expanded_slots = 16;

    // The public solvers check these first, with their names in the message.
    static_assert(Config.rows_per_thread >= 1, "rows_per_thread must be >= 1");
    static_assert(threshold > Real(0) && threshold <= Real(1), "relative_pivot_threshold must be in (0, 1]");
    static_assert(floor > Real(0), "singular_floor must be positive");

    /// runtime_threshold_value is used only under Config.runtime_pivot_threshold.
    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU constexpr Engine(int n, int tx, T* work,
                                                            Real runtime_threshold_value = threshold) noexcept
        : n_(n), threads_((n + R - 1) / R), tx_(tx), ws_(work + barrier_workspace_elements),
          threshold_(runtime_threshold_value), place_{}, rhs_{} {}

    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU constexpr int order() const noexcept {
        if constexpr (StaticN > 0)
            return StaticN;
        else
            return n_;
    }
    /// The order as a loop bound: a compile-time Index for the static solver,
    /// so that its column loops expand at compile time (see for_range).
    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU constexpr auto extent() const noexcept {
        if constexpr (StaticN > 0)
            return Index<StaticN>{};
        else
            return n_;
    }
    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU constexpr int threads() const noexcept {
        if constexpr (StaticN > 0)
            return static_threads;
        else
            return threads_;
    }
    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU constexpr int tx() const noexcept { return tx_; }
    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU constexpr int info() const noexcept { return info_; }

    /// Row of the stored matrix held in slot K: rows tx, tx + threads, ...
    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU constexpr int index(int K) const noexcept {
        return tx_ + K * threads();
    }

    /// Position in the pivoted order of the row of slot K.
    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU constexpr int position(int K) const noexcept {
        if constexpr (physical)
            return index(K);
        else
            return place_[K];
    }

    /// Calls fn(K) for every slot K holding a real row. Phantom rows (past the
    /// order) are skipped at compile time where no thread of the slot holds a
    /// real row or every thread does, at run time otherwise.
    template <typename Fn>
    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU constexpr void for_slots(Fn&& fn) const {
        if constexpr (StaticN == 0 && R > max_expanded_slots) {
            // A dynamic thread holding many rows (the CPU's one thread per
            // system) walks them in a loop: expanding hundreds of slots would
            // only cost compile time, and its rows are in memory anyway.
            for (int K = 0; K < R && tx_ + K * threads_ < n_; ++K) fn(K);
        } else {
            unroll_K<R>([&](auto Kc) {
                constexpr int K = decltype(Kc)::value;
                if constexpr (StaticN > 0) {
                    if constexpr (K * static_threads >= StaticN) {
                        // phantom slot in every thread
                    } else if constexpr ((K + 1) * static_threads <= StaticN) {
                        fn(Kc);
                    } else {
                        if (tx_ + K * static_threads < StaticN) fn(Kc);
                    }
                } else {
                    if (tx_ + K * threads_ < n_) fn(Kc);
                }
            });
        }
    }

    // ---- per-row state: places and right-hand side ------------------------

    /// Every row starts at its own position (logical) / with its own index (physical).
    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU constexpr void init_places() noexcept {
        for_slots([&](auto K) { place_[K] = index(K); });
    }
    template <typename Piv>
    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU constexpr void load_places(const Piv& piv) noexcept {
        for_slots([&](auto K) { place_[K] = piv(K, index(K)); });
    }
    template <typename Piv>
    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU constexpr void store_places(const Piv& piv) const noexcept {
        for_slots([&](auto K) { piv(K, index(K)) = place_[K]; });
    }
    template <typename B>
    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU constexpr void load_rhs(const B& b) noexcept {
        for_slots([&](auto K) { rhs_[K] = b(K, index(K)); });
    }

    /// Column-major substitution under physical interchanges: the row at
    /// position k needs entry piv[k] of b, which another thread owns. Writes
    /// [n, 2n), one barrier, reads it.
    template <typename B, typename Sync>
    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU constexpr void gather_permuted_rhs(const B& b, Sync& sync) {
        T* const exchange = ws_ + order();
        for_slots([&](auto K) { exchange[index(K)] = b(K, index(K)); });
        arrive_and_wait(sync);
        for_slots([&](auto K) { rhs_[K] = exchange[place_[K]]; });
    }

    // ---- factorization ------------------------------------------------------

    /// Factors the rows in place, two barriers per column. Fused: also runs
    /// the first triangular solve on the right-hand side (L y = P b under
    /// ColMajor, U^T z = b under RowMajor).
    template <bool Fused, typename Rows, typename Sync>
    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU constexpr void factor(Rows& rows, Sync& sync) {
        for_range<unroll>(zero, extent(), [&](auto i) {
            if constexpr (physical)
                step_physical<Fused>(i, rows, sync);
            else
                step_logical<Fused>(i, rows, sync);
        });
    }

    // ---- substitutions ---------------------------------------------------------
    // Workspace: [0, n) and [n, 2n) under ColMajor; two records of n + 1 (a row
    // and one scalar), alternating by step, under RowMajor.

    /// L y = P b, unit lower triangular, one barrier per column: the owner of
    /// position i publishes y_i in [0, n), every row below applies it next step.
    template <typename Rows, typename Sync>
    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU constexpr void forward_lower(Rows& rows, Sync& sync) {
        T* const y_values = ws_;
        for_range<unroll>(zero, extent(), [&](auto i) {
            with_previous(i, [&](auto previous) {
                const T y = y_values[previous];
                for_slots([&](auto K) {
                    if (position(K) > previous) rhs_[K] = less(rhs_[K], rows(K, previous), y);
                });
            });
            for_slots([&](auto K) {
                if (position(K) == i) y_values[i] = rhs_[K];
            });
            arrive_and_wait(sync);
        });
    }

    /// U x = y, one barrier per column, from the last: the owner of position p
    /// divides by the pivot and publishes x_p in [n, 2n). The division (not a
    /// product by the reciprocal) keeps LAPACK's accuracy. The value stays in
    /// the register of its owner, so no thread writes what another reads in the
    /// same interval.
    template <typename Rows, typename Sync>
    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU constexpr void back_upper(Rows& rows, Sync& sync) {
        const auto n = extent();
        T* const x_values = ws_ + order();
        for_range_down<unroll>(zero, n, [&](auto p) {
            with_next(p, n, [&](auto next) {
                const T x = x_values[next];
                for_slots([&](auto K) {
                    if (position(K) <= p) rhs_[K] = less(rhs_[K], rows(K, next), x);
                });
            });
            for_slots([&](auto K) {
                if (position(K) == p) {
                    rhs_[K] = quotient(rhs_[K], rows(K, p));
                    x_values[p] = rhs_[K];
                }
            });
            arrive_and_wait(sync);
        });
    }

    /// U^T z = b, RowMajor, from the factored rows: the owner of position i
    /// publishes row i of U, the owner of entry i its reduced entry b'_i, and
    /// every thread applies step i in the next interval. The last step is left
    /// pending for lower_transposed.
    template <typename Rows, typename Sync>
    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU constexpr void upper_transposed(Rows& rows, Sync& sync) {
        const auto n = extent();
        for_range<unroll>(zero, n, [&](auto i) {
            with_previous(i, [&](auto before) {
                const T* const previous = record(before);
                apply_upper_transposed(before, previous, previous[int(n)], quotient(T(1), previous[int(before)]));
            });
            T* const current = record(i);
            for_slots([&](auto K) {
                if (position(K) == i) for_range<unroll>(i, n, [&](auto j) { current[j] = rows(K, j); });
                if (index(K) == i) current[n] = rhs_[K];
            });
            arrive_and_wait(sync);
        });
    }

    /// L^T w = z, RowMajor, unit upper triangular, from the last entry. Row j
    /// of L lives with the owner of position j, entry j of z with the owner of
    /// index j: both publish into the record of the step, double buffered so
    /// that each step takes one barrier. first_step numbers the records after
    /// those of upper_transposed; PendingUpper applies its last step first.
    template <bool PendingUpper, typename Rows, typename Sync>
    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU constexpr void lower_transposed(Rows& rows, Sync& sync,
                                                                           int first_step) {
        const int n = order();
        for_range_down<unroll>(zero, extent(), [&](auto j) {
            const int step = first_step + (n - 1 - j);
            if (j == n - 1) {
                if constexpr (PendingUpper) {
                    const T* const previous = record(step - 1);
                    apply_upper_transposed(n - 1, previous, previous[n], quotient(T(1), previous[n - 1]));
                }
            } else {
                const T* const previous = record(step - 1);
                const T w = previous[n];
                for_slots([&](auto K) {
                    if (index(K) <= j) rhs_[K] = less(rhs_[K], previous[index(K)], w);
                });
            }
            // The last step (j = 0) has no reader: it publishes nothing, which
            // keeps n = 1 within the seed's 3n elements. Its barrier stays, so
            // that the sequence does not depend on the order.
            if (j > 0) {
                T* const current = record(step);
                for_slots([&](auto K) {
                    if (index(K) == j) current[n] = rhs_[K];
                    if (position(K) == j)
                        for_range<unroll>(zero, j, [&](auto c) { current[c] = rows(K, c); });
                });
            }
            arrive_and_wait(sync);
        });
    }

    // ---- solutions out ----------------------------------------------------------

    /// ColMajor: x_v was published in [n, 2n) by the owner of position v.
    template <typename X>
    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU constexpr void output_col_major(const X& x, bool write) const {
        const T* const x_values = ws_ + order();
        if (write) for_slots([&](auto K) { x(K, index(K)) = x_values[index(K)]; });
    }

    /// RowMajor: x = P^T w. Logical: x_r = w at the position of row r.
    /// Physical: x at the original index of the row at position k is w_k. One
    /// exchange through [0, n).
    template <typename X, typename Sync>
    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU constexpr void output_row_major(const X& x, Sync& sync,
                                                                           bool write) {
        T* const exchange = ws_;
        for_slots([&](auto K) { exchange[physical ? place_[K] : index(K)] = rhs_[K]; });
        arrive_and_wait(sync);
        if (write) for_slots([&](auto K) { x(K, index(K)) = exchange[physical ? index(K) : place_[K]]; });
    }

  private:
    /// c - a * b, every update of the algorithm: unfused, or fused under
    /// Config.fused_multiply_add (tdls::minus_product).
    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU static constexpr T less(T c, T a, T b) noexcept {
        return minus_product<Config.fused_multiply_add>(c, a, b);
    }

    /// Record of substitution step s under RowMajor: n row values, one scalar.
    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU constexpr T* record(int step) const noexcept {
        return ws_ + (step & 1) * (order() + 1);
    }

    /// Applies step i of U^T z = b: z_i = b'_i * (1 / u_ii), then
    /// b'_c -= u_ic z_i. The product by the pivot's reciprocal is MAGMA's and
    /// upstream TDLS's arithmetic, so that row-major results are bitwise
    /// theirs; the fused solve passes the reciprocal its multipliers use (1
    /// for a singular column, whose solution is not written). Below the
    /// smallest normal number the reciprocal overflows: there it divides, as
    /// eliminate does.
    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU constexpr void apply_upper_transposed(int i, const T* urow, T b_i,
                                                                                 T reciprocal) noexcept {
        T z = product(b_i, reciprocal);
        if constexpr (floor < smallest_normal<T>())
            if (magnitude(urow[i]) < smallest_normal<T>()) z = quotient(b_i, urow[i]);
        for_slots([&](auto K) {
            const int c = index(K);
            if (c > i)
                rhs_[K] = less(rhs_[K], urow[c], z);
            else if (c == i)
                rhs_[K] = z;
        });
    }

    /// LAPACK's rule, relaxed by the threshold: the first largest magnitude
    /// below the diagonal replaces the row in place unless that row reaches
    /// threshold times it (and the floor). A NaN in place is kept, as LAPACK's
    /// sequential search keeps it; NaNs below are never chosen.
    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU constexpr PivotChoice<Real> choose(int i, Real in_place, Real best,
                                                                              int best_position) const noexcept {
        if (best_position < 0 || !(best > in_place)) return {i, in_place};
        if constexpr (runtime_threshold) {
            if (in_place >= threshold_ * best && in_place >= floor && in_place > Real(0)) return {i, best};
        } else if constexpr (threshold < Real(1)) {
            if (in_place >= threshold * best && in_place >= floor && in_place > Real(0)) return {i, best};
        }
        return {best_position, best};
    }

    /// Scales the multipliers of column i and updates the rows below the
    /// pivot row prow. A column whose largest magnitude is zero or below the
    /// floor is singular: the verdict records its first occurrence and a
    /// reciprocal of 1 keeps the factorization finite to the end.
    template <bool Fused, typename Rows, typename I>
    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU constexpr void eliminate(I i, Real largest, const T* prow,
                                                                    const T* prhs, Rows& rows) {
        const auto n = extent();
        const bool singular = largest < floor || largest == Real(0);
        if (singular && info_ == 0) info_ = i + 1;
        const T reciprocal = singular ? T(1) : quotient(T(1), prow[i]);
        // Below the smallest normal number a reciprocal overflows: there, as
        // LAPACK's dgetf2 does, divide instead. Only a floor under that number
        // lets such a pivot through, so the default configuration never tests.
        bool divide = false;
        if constexpr (floor < smallest_normal<T>())
            divide = !singular && magnitude(prow[i]) < smallest_normal<T>();
        for_slots([&](auto K) {
            if (position(K) > i) {
                const T l = divide ? quotient(rows(K, i), prow[i]) : product(rows(K, i), reciprocal);
                rows(K, i) = l;
                for_range<unroll>(i + one, n, [&](auto j) { rows(K, j) = less(rows(K, j), l, prow[j]); });
                if constexpr (Fused && !row_major) rhs_[K] = less(rhs_[K], l, *prhs);
            }
        });
        if constexpr (Fused && row_major) apply_upper_transposed(i, prow, *prhs, reciprocal);
    }

    /// Column i under logical interchanges. Workspace: sB = [0, n) right-hand
    /// side broadcast, sx = [n, 2n) pivot row, dsx = [2n, 3n) magnitudes by
    /// position.
    template <bool Fused, typename Rows, typename Sync, typename I>
    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU constexpr void step_logical(I i, Rows& rows, Sync& sync) {
        const auto n = extent();
        T* const sB = ws_;
        T* const sx = ws_ + order();
        T* const dsx = ws_ + 2 * order();
        // 1. magnitudes of the candidates, by position: writes dsx.
        for_slots([&](auto K) {
            if (place_[K] >= i) dsx[place_[K]] = magnitude(rows(K, i));
        });
        arrive_and_wait(sync);
        // 2. every thread makes the same choice from dsx; the pivot row is
        //    published in sx, its right-hand-side entry in sB[i].
        Real best = Real(-1);
        int best_position = -1;
        for_range<unroll>(i + one, n, [&](auto p) {
            const Real m = real_part(dsx[p]);
            if (m > best) {
                best = m;
                best_position = p;
            }
        });
        const PivotChoice<Real> choice = choose(i, real_part(dsx[i]), best, best_position);
        for_slots([&](auto K) {
            if (place_[K] == choice.position) {
                for_range<unroll>(i, n, [&](auto j) { sx[j] = rows(K, j); });
                if constexpr (Fused && !row_major) sB[i] = rhs_[K];
                place_[K] = i;
            } else if (place_[K] == i) {
                place_[K] = choice.position;
            }
            if constexpr (Fused && row_major) {
                if (index(K) == i) sB[i] = rhs_[K];
            }
        });
        arrive_and_wait(sync);
        // 3. elimination: reads sx and sB[i].
        eliminate<Fused>(i, choice.largest, sx, sB + i, rows);
    }

    /// Column i under physical interchanges. Workspace: candidate magnitude
    /// and position of each thread, magnitude of the row in place, then the
    /// records of the row entering position i (the pivot row, also the
    /// broadcast of the elimination) and of the row leaving it.
    template <bool Fused, typename Rows, typename Sync, typename I>
    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU constexpr void step_physical(I i, Rows& rows, Sync& sync) {
        const int n = order();
        const int t = threads();
        T* const candidate = ws_;
        T* const candidate_position = ws_ + t;
        T* const in_place = ws_ + 2 * t;
        T* const enter = in_place + 1;
        T* const leave = enter + n + 2;
        // 1. each thread's first largest magnitude below the diagonal.
        Real best = Real(-1);
        int best_position = -1;
        for_slots([&](auto K) {
            const int v = index(K);
            if (v == i) {
                *in_place = magnitude(rows(K, i));
            } else if (v > i) {
                const Real m = magnitude(rows(K, i));
                if (m > best) {
                    best = m;
                    best_position = v;
                }
            }
        });
        // 2. the same reduction in every thread: largest magnitude, first
        //    position among equals (outranks). The rows that move are published.
        if constexpr (ReducesCandidates<std::remove_cvref_t<Sync>, Real, T>) {
            const PivotChoice<Real> winner =
                sync.reduce_candidates(tx_, t, best, best_position, candidate, candidate_position);
            best = winner.largest;
            best_position = winner.position;
        } else {
            candidate[tx_] = best;
            candidate_position[tx_] = T(best_position);
            arrive_and_wait(sync);
            best = Real(-1);
            best_position = -1;
            for (int s = 0; s < t; ++s) {
                const int p = int(real_part(candidate_position[s]));
                const Real m = real_part(candidate[s]);
                if (outranks(m, p, best, best_position)) {
                    best = m;
                    best_position = p;
                }
            }
        }
        const PivotChoice<Real> choice = choose(i, real_part(*in_place), best, best_position);
        const bool moves = choice.position != i;
        for_slots([&](auto K) {
            const int v = index(K);
            // Both branches keep the first column a constant (see for_range).
            if (v == choice.position && moves)
                write_record<Fused>(enter, K, zero, rows);
            else if (v == choice.position)
                write_record<Fused>(enter, K, i, rows);
            else if (moves && v == i)
                write_record<Fused>(leave, K, zero, rows);
            if constexpr (Fused && row_major) {
                if (v == i) enter[n + 1] = rhs_[K];
            }
        });
        arrive_and_wait(sync);
        // 3. the exchanged rows land, then the elimination reads `enter`.
        if (moves) {
            for_slots([&](auto K) {
                const int v = index(K);
                if (v == i)
                    read_record<Fused>(enter, K, rows);
                else if (v == choice.position)
                    read_record<Fused>(leave, K, rows);
            });
        }
        eliminate<Fused>(i, choice.largest, enter, enter + n + 1, rows);
    }

    /// Record: columns [from, n) of the row, its original index, its
    /// right-hand-side entry when the rows carry it (fused, ColMajor).
    template <bool Fused, typename Rows, typename Slot, typename From>
    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU constexpr void write_record(T* record, Slot K, From from,
                                                                       Rows& rows) const {
        const int n = order();
        for_range<unroll>(from, extent(), [&](auto j) { record[j] = rows(K, j); });
        record[n] = T(place_[K]);
        if constexpr (Fused && !row_major) record[n + 1] = rhs_[K];
    }
    template <bool Fused, typename Rows, typename Slot>
    TDLS_HOST_DEVICE TDLS_FORCE_INLINE_GPU constexpr void read_record(const T* record, Slot K, Rows& rows) {
        const int n = order();
        for_range<unroll>(zero, extent(), [&](auto j) { rows(K, j) = record[j]; });
        place_[K] = int(real_part(record[n]));
        if constexpr (Fused && !row_major) rhs_[K] = record[n + 1];
    }

    int n_;
    int threads_;
    int tx_;
    T* ws_;
    Real threshold_;
    int info_ = 0;
    /// Logical: position of the row of each slot in the pivoted order.
    /// Physical: original index of the row of each slot.
    int place_[R];
    /// Right-hand-side entries: by row under ColMajor (they follow the rows),
    /// by index under RowMajor (entry tx + K * threads).
    T rhs_[R];
};

} // namespace tdls::detail::coop
