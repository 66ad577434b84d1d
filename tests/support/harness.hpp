// Test support: runs one system through a solver on a group of std::threads,
// with any residency, entry point, barrier and element stride, and collects
// what the solver left in its operands.
//
// External operands live in buffers at the requested stride, every other
// element a guard value: the outcome reports whether the solver wrote outside
// its operands. The workspace gets guard elements past workspace_size, and its
// data region starts as NaN, so that reading an element nobody wrote poisons
// the results.
#pragma once

#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

#include <tdls/solvers.hpp>

#include "lapack.hpp"
#include "reference_lu.hpp"
#include "thread_group.hpp"

namespace tdls_test {

enum class Entry { Solve, SolveInplace, FactorizeSubstitute, FactorizeSubstituteInplace };
enum class Barrier { Deduced, User };

inline constexpr Entry all_entries[] = {Entry::Solve, Entry::SolveInplace, Entry::FactorizeSubstitute,
                                        Entry::FactorizeSubstituteInplace};

template <typename T>
struct Problem {
    int n = 0;
    std::vector<T> S; // stored matrix, column-major read
    std::vector<T> b;
};

template <typename T>
struct Outcome {
    std::vector<T> S;     // stored matrix after the call
    std::vector<int> piv; // pivots as the solver wrote them
    std::vector<T> x;     // the right-hand-side/solution operand after the call
    int info = -1;
    bool verdicts_agree = true;
    bool guards_intact = true;
};

template <typename T>
inline T guard_value() {
    return T(-12345.25);
}
inline constexpr int pivot_guard = -7777;

/// Bytes of T that hold its value: x87 long double keeps 10 significant bytes
/// in 16, the rest padding that arithmetic leaves as it likes.
template <typename T>
constexpr std::size_t value_bytes() {
    if constexpr (std::is_same_v<T, long double> && std::numeric_limits<long double>::digits == 64)
        return 10;
    else
        return sizeof(T);
}

template <typename T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t e = 0; e < a.size(); ++e)
        if (std::memcmp(&a[e], &b[e], value_bytes<T>()) != 0) return false;
    return true;
}
template <typename T>
bool same_outcome(const Outcome<T>& a, const Outcome<T>& b) {
    return same_bits(a.S, b.S) && a.piv == b.piv && same_bits(a.x, b.x) && a.info == b.info;
}

// ---- uniform access to the static and the dynamic solver ---------------------

template <typename S>
struct StaticSolver {
    using T = typename S::value_type;
    static constexpr auto config = S::config;
    static constexpr int fixed_order = S::order;
    static constexpr int rows_per_thread = S::rows_per_thread; // clamped to the order
    static constexpr bool physical = S::row_interchange == tdls::RowInterchange::Physical;
    static int threads(int) { return S::threads_per_system; }
    static int workspace(int) { return S::workspace_size; }

    template <bool IM, bool IP, std::int64_t CS, typename Sync>
    static tdls::Verdict factorize(int, int tx, T* A, std::int64_t s, int* piv, T* w, Sync&& sync) {
        return S::template factorize<IP, IM, CS, CS>(tx, A, s, piv, s, w, std::forward<Sync>(sync));
    }
    template <bool IM, bool IP, bool IR, std::int64_t CS, typename Sync>
    static void substitute(int, int tx, const T* A, std::int64_t s, const int* piv, const T* b, T* x, T* w,
                           Sync&& sync) {
        S::template substitute<IR, IP, IM, CS, CS, CS>(tx, A, s, piv, s, b, x, s, w,
                                                       std::forward<Sync>(sync));
    }
    template <bool IM, bool IP, bool IR, std::int64_t CS, typename Sync>
    static void substitute_inplace(int, int tx, const T* A, std::int64_t s, const int* piv, T* y, T* w,
                                   Sync&& sync) {
        S::template substitute_inplace<IR, IP, IM, CS, CS, CS>(tx, A, s, piv, s, y, s, w,
                                                               std::forward<Sync>(sync));
    }
    template <bool IM, bool IP, bool IR, std::int64_t CS, typename Sync>
    static tdls::Verdict solve(int, int tx, T* A, std::int64_t s, int* piv, const T* b, T* x, T* w,
                               Sync&& sync) {
        return S::template solve<IR, IP, IM, CS, CS, CS>(tx, A, s, piv, s, b, x, s, w,
                                                         std::forward<Sync>(sync));
    }
    template <bool IM, bool IP, bool IR, std::int64_t CS, typename Sync>
    static tdls::Verdict solve_inplace(int, int tx, T* A, std::int64_t s, int* piv, T* y, T* w, Sync&& sync) {
        return S::template solve_inplace<IR, IP, IM, CS, CS, CS>(tx, A, s, piv, s, y, s, w,
                                                                 std::forward<Sync>(sync));
    }
};

template <typename D>
struct DynamicSolver {
    using T = typename D::value_type;
    static constexpr auto config = D::config;
    static constexpr int fixed_order = 0;
    static constexpr int rows_per_thread = D::rows_per_thread;
    static constexpr bool physical = D::row_interchange == tdls::RowInterchange::Physical;
    static int threads(int n) { return D::threads_per_system(n); }
    static int workspace(int n) { return D::workspace_size(n); }

    template <bool IM, bool IP, std::int64_t CS, typename Sync>
    static tdls::Verdict factorize(int n, int tx, T* A, std::int64_t s, int* piv, T* w, Sync&& sync) {
        return D::template factorize<IP, IM, CS, CS>(n, tx, A, s, piv, s, w, std::forward<Sync>(sync));
    }
    template <bool IM, bool IP, bool IR, std::int64_t CS, typename Sync>
    static void substitute(int n, int tx, const T* A, std::int64_t s, const int* piv, const T* b, T* x, T* w,
                           Sync&& sync) {
        D::template substitute<IR, IP, IM, CS, CS, CS>(n, tx, A, s, piv, s, b, x, s, w,
                                                       std::forward<Sync>(sync));
    }
    template <bool IM, bool IP, bool IR, std::int64_t CS, typename Sync>
    static void substitute_inplace(int n, int tx, const T* A, std::int64_t s, const int* piv, T* y, T* w,
                                   Sync&& sync) {
        D::template substitute_inplace<IR, IP, IM, CS, CS, CS>(n, tx, A, s, piv, s, y, s, w,
                                                               std::forward<Sync>(sync));
    }
    template <bool IM, bool IP, bool IR, std::int64_t CS, typename Sync>
    static tdls::Verdict solve(int n, int tx, T* A, std::int64_t s, int* piv, const T* b, T* x, T* w,
                               Sync&& sync) {
        return D::template solve<IR, IP, IM, CS, CS, CS>(n, tx, A, s, piv, s, b, x, s, w,
                                                         std::forward<Sync>(sync));
    }
    template <bool IM, bool IP, bool IR, std::int64_t CS, typename Sync>
    static tdls::Verdict solve_inplace(int n, int tx, T* A, std::int64_t s, int* piv, T* y, T* w,
                                       Sync&& sync) {
        return D::template solve_inplace<IR, IP, IM, CS, CS, CS>(n, tx, A, s, piv, s, y, s, w,
                                                                 std::forward<Sync>(sync));
    }
};

// ---- one run -------------------------------------------------------------------------

/// Solves p with Solver on a group of std::threads. IM/IP/IR: internal
/// matrix/pivots/rhs. `stride`: element stride of the external operands;
/// CtStride, when not dynamic_stride, passes it as a template argument too.
template <typename Solver, bool IM, bool IP, bool IR, std::int64_t CtStride = tdls::dynamic_stride>
Outcome<typename Solver::T> run(const Problem<typename Solver::T>& p, Entry entry,
                                Barrier barrier = Barrier::Deduced, std::int64_t stride = 1) {
    using T = typename Solver::T;
    const int n = p.n;
    const int threads = Solver::threads(n);
    constexpr int R = Solver::rows_per_thread;
    const std::size_t nn = std::size_t(n) * n;
    const T guard = guard_value<T>();

    // External buffers: system element e at e * stride, guards elsewhere.
    std::vector<T> A_ext(nn * stride, guard), b_ext(std::size_t(n) * stride, guard),
        x_ext(std::size_t(n) * stride, guard);
    std::vector<int> piv_ext(std::size_t(n) * stride, pivot_guard);
    const bool inplace = entry == Entry::SolveInplace || entry == Entry::FactorizeSubstituteInplace;
    for (std::size_t e = 0; e < nn; ++e) A_ext[e * stride] = p.S[e];
    for (int e = 0; e < n; ++e) (inplace ? x_ext : b_ext)[std::size_t(e) * stride] = p.b[e];

    const int ws = Solver::workspace(n);
    constexpr int workspace_guards = 8;
    std::vector<T> work(ws + workspace_guards, guard);
    // NaN in every part: a value the solver reads before writing it shows.
    const tdls::real_type_t<T> nan = std::numeric_limits<tdls::real_type_t<T>>::quiet_NaN();
    for (int e = 2; e < ws; ++e) {
        if constexpr (tdls::is_complex_scalar_v<T>)
            work[e] = T(nan, nan);
        else
            work[e] = nan;
    }
    work[0] = work[1] = T(0);

    Outcome<T> out;
    out.S.assign(nn, guard);
    out.piv.assign(n, pivot_guard);
    out.x.assign(n, guard);
    std::vector<int> verdicts(threads, -1);
    UserBarrier user_barrier(threads);

    auto body = [&](int tx) {
        // Internal slices: the rows tx + K * threads of the calling thread.
        std::vector<T> A_slice(std::size_t(R) * n, guard);
        std::vector<int> piv_slice(R, pivot_guard);
        std::vector<T> b_slice(R, guard), x_slice(R, guard);
        for (int K = 0; K < R; ++K) {
            const int row = tx + K * threads;
            if (row >= n) continue;
            for (int c = 0; c < n; ++c) A_slice[std::size_t(c) * R + K] = p.S[std::size_t(c) * n + row];
            (inplace ? x_slice : b_slice)[K] = p.b[row];
        }
        T* A = IM ? A_slice.data() : A_ext.data();
        int* piv = IP ? piv_slice.data() : piv_ext.data();
        const T* b = IR ? b_slice.data() : b_ext.data();
        T* x = IR ? x_slice.data() : x_ext.data();

        auto call = [&](auto&& sync) {
            using Sync = decltype(sync);
            tdls::Verdict v{};
            switch (entry) {
            case Entry::Solve:
                v = Solver::template solve<IM, IP, IR, CtStride>(n, tx, A, stride, piv, b, x, work.data(),
                                                                 std::forward<Sync>(sync));
                break;
            case Entry::SolveInplace:
                v = Solver::template solve_inplace<IM, IP, IR, CtStride>(
                    n, tx, A, stride, piv, x, work.data(), std::forward<Sync>(sync));
                break;
            case Entry::FactorizeSubstitute:
                v = Solver::template factorize<IM, IP, CtStride>(n, tx, A, stride, piv, work.data(), sync);
                Solver::template substitute<IM, IP, IR, CtStride>(n, tx, A, stride, piv, b, x, work.data(),
                                                                  std::forward<Sync>(sync));
                break;
            case Entry::FactorizeSubstituteInplace:
                v = Solver::template factorize<IM, IP, CtStride>(n, tx, A, stride, piv, work.data(), sync);
                Solver::template substitute_inplace<IM, IP, IR, CtStride>(
                    n, tx, A, stride, piv, x, work.data(), std::forward<Sync>(sync));
                break;
            }
            return v;
        };
        const tdls::Verdict v =
            barrier == Barrier::User ? call(user_barrier.callable()) : call(tdls::AutoSync{});
        verdicts[tx] = v.info;

        // Slices back into the outcome, each thread its own rows.
        for (int K = 0; K < R; ++K) {
            const int row = tx + K * threads;
            if (row >= n) continue;
            if (IM)
                for (int c = 0; c < n; ++c) out.S[std::size_t(c) * n + row] = A_slice[std::size_t(c) * R + K];
            if (IP) out.piv[row] = piv_slice[K];
            if (IR) out.x[row] = x_slice[K];
        }
    };
    group_of(threads).run(body);

    out.info = verdicts[0];
    for (int v : verdicts) out.verdicts_agree = out.verdicts_agree && v == out.info;
    auto check_guards = [&](const auto& buffer, std::size_t count, auto guard_of) {
        for (std::size_t e = 0; e < buffer.size(); ++e)
            if (e % stride != 0 || e / stride >= count)
                out.guards_intact = out.guards_intact && buffer[e] == guard_of;
    };
    check_guards(A_ext, nn, guard);
    check_guards(piv_ext, std::size_t(n), pivot_guard);
    check_guards(b_ext, std::size_t(n), guard);
    check_guards(x_ext, std::size_t(n), guard);
    for (int e = ws; e < ws + workspace_guards; ++e)
        out.guards_intact = out.guards_intact && work[e] == guard;
    if (IM) {
        for (std::size_t e = 0; e < nn; ++e)
            out.guards_intact = out.guards_intact && A_ext[e * stride] == p.S[e];
    } else {
        for (std::size_t e = 0; e < nn; ++e) out.S[e] = A_ext[e * stride];
    }
    if (!IP)
        for (int e = 0; e < n; ++e) out.piv[e] = piv_ext[std::size_t(e) * stride];
    if (!IR)
        for (int e = 0; e < n; ++e) out.x[e] = x_ext[std::size_t(e) * stride];
    return out;
}

/// run() with the residencies chosen at run time: bit 0 matrix, 1 pivots, 2 rhs.
template <typename Solver>
Outcome<typename Solver::T> run_residency(int mask, const Problem<typename Solver::T>& p, Entry entry,
                                          Barrier barrier = Barrier::Deduced, std::int64_t stride = 1) {
    switch (mask & 7) {
    case 0:
        return run<Solver, false, false, false>(p, entry, barrier, stride);
    case 1:
        return run<Solver, true, false, false>(p, entry, barrier, stride);
    case 2:
        return run<Solver, false, true, false>(p, entry, barrier, stride);
    case 3:
        return run<Solver, true, true, false>(p, entry, barrier, stride);
    case 4:
        return run<Solver, false, false, true>(p, entry, barrier, stride);
    case 5:
        return run<Solver, true, false, true>(p, entry, barrier, stride);
    case 6:
        return run<Solver, false, true, true>(p, entry, barrier, stride);
    default:
        return run<Solver, true, true, true>(p, entry, barrier, stride);
    }
}

// ---- what the solver must produce --------------------------------------------------

/// The outcome the reference LU predicts for a solver of this configuration.
template <typename Solver>
Outcome<typename Solver::T> expected_outcome(const Problem<typename Solver::T>& p, Entry entry) {
    using T = typename Solver::T;
    constexpr auto config = Solver::config;
    const int n = p.n;
    const auto f =
        reference_factor<T>(p.S, n, config.relative_pivot_threshold.value(), config.singular_floor.value());
    Outcome<T> out;
    out.info = f.info;
    out.S.resize(std::size_t(n) * n);
    out.piv.resize(n);
    for (int r = 0; r < n; ++r) {
        // Physical: row r holds the row at position r; logical: the row stays.
        const int k = Solver::physical ? r : f.position[r];
        for (int c = 0; c < n; ++c) out.S[std::size_t(c) * n + r] = f.at(k, c);
        out.piv[r] = Solver::physical ? f.perm[r] : f.position[r];
    }
    const bool writes =
        f.info == 0 || entry == Entry::FactorizeSubstitute || entry == Entry::FactorizeSubstituteInplace;
    if (writes)
        out.x = reference_solve(f, p.b, config.layout);
    else
        out.x = entry == Entry::SolveInplace ? p.b : std::vector<T>(n, guard_value<T>());
    return out;
}

/// Factors in LAPACK's format (rows in pivoted order) and the final order,
/// from an outcome of either row interchange scheme.
template <typename T>
std::pair<std::vector<T>, std::vector<int>> lapack_format(const Outcome<T>& o, int n, bool physical) {
    const std::vector<int> perm = order_from_pivots(o.piv, physical);
    std::vector<T> lu(std::size_t(n) * n);
    for (int k = 0; k < n; ++k) {
        const int row = physical ? k : perm[k];
        for (int c = 0; c < n; ++c)
            lu[std::size_t(c) * n + k] = row >= 0 ? o.S[std::size_t(c) * n + row] : T(0);
    }
    return {lu, perm};
}

} // namespace tdls_test
