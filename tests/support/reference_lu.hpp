// Test support: a textbook LU with partial pivoting, sequential and scalar,
// written independently of the solver, applying the same pivot rule
// (threshold, singular floor, first largest magnitude) and the same
// arithmetic expressions in the same order. With contraction of multiply-adds
// disabled (-ffp-contract=off, set for every test) its results are the exact
// bits the solver must produce.
#pragma once

#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include <tdls/solvers/cooperative_lupp/config.hpp>

namespace tdls_test {

template <typename T>
struct ReferenceLU {
    int n = 0;
    /// LAPACK format: row k of the factors is the row at position k; stored
    /// column-major, lu[c * n + k].
    std::vector<T> lu;
    /// perm[k] = original index of the row at position k.
    std::vector<int> perm;
    /// position[r] = position of original row r (inverse of perm).
    std::vector<int> position;
    int info = 0;

    T at(int k, int c) const { return lu[std::size_t(c) * n + k]; }
};

/// Factors S (column-major, order n) as P S = L U. Magnitudes are LAPACK's:
/// |x| for a real x, |re| + |im| for a complex one (izamax's cabs1).
template <typename T>
ReferenceLU<T> reference_factor(const std::vector<T>& S, int n, tdls::real_type_t<T> threshold,
                                tdls::real_type_t<T> floor) {
    using Real = tdls::real_type_t<T>;
    ReferenceLU<T> f;
    f.n = n;
    // rows[k] = the row at position k, as a vector of its n entries.
    std::vector<std::vector<T>> rows(n, std::vector<T>(n));
    for (int r = 0; r < n; ++r)
        for (int c = 0; c < n; ++c) rows[r][c] = S[std::size_t(c) * n + r];
    f.perm.resize(n);
    for (int k = 0; k < n; ++k) f.perm[k] = k;

    for (int i = 0; i < n; ++i) {
        const Real in_place = tdls::magnitude(rows[i][i]);
        Real best = Real(-1);
        int best_position = -1;
        for (int p = i + 1; p < n; ++p) {
            const Real m = tdls::magnitude(rows[p][i]);
            if (m > best) {
                best = m;
                best_position = p;
            }
        }
        int pivot = i;
        Real largest = in_place;
        if (best_position >= 0 && best > in_place) {
            largest = best;
            const bool keep =
                threshold < Real(1) && in_place >= threshold * best && in_place >= floor && in_place > Real(0);
            pivot = keep ? i : best_position;
        }
        std::swap(rows[i], rows[pivot]);
        std::swap(f.perm[i], f.perm[pivot]);
        const bool singular = largest < floor || largest == Real(0);
        if (singular && f.info == 0) f.info = i + 1;
        const T reciprocal = singular ? T(1) : tdls::quotient(T(1), rows[i][i]);
        // A pivot below the smallest normal number (only a floor under it lets
        // one through) divides instead, as LAPACK's dgetf2.
        const bool divide = !singular && tdls::magnitude(rows[i][i]) < std::numeric_limits<Real>::min();
        for (int r = i + 1; r < n; ++r) {
            const T l = divide ? tdls::quotient(rows[r][i], rows[i][i]) : tdls::product(rows[r][i], reciprocal);
            rows[r][i] = l;
            for (int j = i + 1; j < n; ++j) rows[r][j] = rows[r][j] - tdls::product(l, rows[i][j]);
        }
    }
    f.lu.resize(std::size_t(n) * n);
    for (int k = 0; k < n; ++k)
        for (int c = 0; c < n; ++c) f.lu[std::size_t(c) * n + k] = rows[k][c];
    f.position.resize(n);
    for (int k = 0; k < n; ++k) f.position[f.perm[k]] = k;
    return f;
}

/// Solves with the factors of S. ColMajor: S x = b by L y = P b, U x = y.
/// RowMajor: S^T x = b by U^T z = b, L^T w = z, x = P^T w.
template <typename T>
std::vector<T> reference_solve(const ReferenceLU<T>& f, const std::vector<T>& b, tdls::MatrixLayout layout) {
    const int n = f.n;
    std::vector<T> v(n);
    if (layout == tdls::MatrixLayout::ColMajor) {
        for (int k = 0; k < n; ++k) v[k] = b[f.perm[k]];
        for (int i = 0; i < n; ++i)
            for (int r = i + 1; r < n; ++r) v[r] = v[r] - tdls::product(f.at(r, i), v[i]);
        for (int p = n - 1; p >= 0; --p) {
            v[p] = tdls::quotient(v[p], f.at(p, p));
            for (int q = 0; q < p; ++q) v[q] = v[q] - tdls::product(f.at(q, p), v[p]);
        }
        return v;
    }
    v = b;
    for (int i = 0; i < n; ++i) {
        // The product by the pivot's reciprocal, as the solver (MAGMA's and
        // upstream TDLS's arithmetic); a subnormal pivot divides, as it does.
        const T u = f.at(i, i);
        const T z = tdls::magnitude(u) < std::numeric_limits<tdls::real_type_t<T>>::min() ? tdls::quotient(v[i], u)
                                                                                        : tdls::product(v[i], tdls::quotient(T(1), u));
        for (int c = i + 1; c < n; ++c) v[c] = v[c] - tdls::product(f.at(i, c), z);
        v[i] = z;
    }
    for (int j = n - 1; j >= 0; --j)
        for (int c = 0; c < j; ++c) v[c] = v[c] - tdls::product(f.at(j, c), v[j]);
    std::vector<T> x(n);
    for (int k = 0; k < n; ++k) x[f.perm[k]] = v[k];
    return x;
}

} // namespace tdls_test
